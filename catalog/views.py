"""Server-rendered catalog pages: search (list/grid), card detail, per-game browse by set, help."""
from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from catalog.timeouts import SearchTimeout, search_deadline
from config.throttling import PageThrottled, page_throttle
from rules import games as g
from rules.registry import get_spec

from .labels import STAT_LABELS
from .models import Card
from .pagination import COUNT_CAP, CappedPaginator
from .pictures import attach_pictures, best_picture
from .search import QueryError
from .search.fields import FIELDS, NUMBER
from .search.help import EXAMPLES, GENERAL_EXAMPLES
from .search.localized import value_words
from .selectors import (
    _finish_order,
    card_get,
    card_printing_groups,
    card_same_identity,
    card_search,
    card_series,
    card_series_cards,
    card_sets,
    card_suggest,
    parse_order,
    printings_for_pictures,
)

PAGE_SIZE = 60
# The sort menu of the search page (the query's own order:/dir: apply when none is chosen).
SORT_CHOICES = [
    ("name", gettext_lazy("Name")), ("code", gettext_lazy("Code")), ("set", gettext_lazy("Set")),
    ("rarity", gettext_lazy("Rarity")), ("cost", gettext_lazy("Cost")), ("level", gettext_lazy("Level (WS)")),
    ("power", gettext_lazy("Power (WS)")), ("cp", gettext_lazy("CP (PC)")), ("mhp", gettext_lazy("MHP (Phantasmagoria)")),
    ("atk", gettext_lazy("ATK (Chaos)")), ("defense", gettext_lazy("DEF (Chaos)")), ("ap", gettext_lazy("AP (Lycee)")),
    ("dp", gettext_lazy("DP (Lycee)")),
]
VIEWS = ("list", "grid")


def stat_line(card: Card) -> str:
    """The card pages' stat line (``rules/<game>/display.py``)."""
    return get_spec(card.game).stat_line(card, STAT_LABELS)


def _page(request: HttpRequest, qs: QuerySet[Card]):
    paginator = CappedPaginator(qs.prefetch_related(printings_for_pictures()), PAGE_SIZE)
    number = request.GET.get("page") or 1
    try:
        page = paginator.page(number)
    except PageNotAnInteger:
        page = paginator.page(1)
    except EmptyPage:
        page = paginator.page(paginator.num_pages if paginator.count_exact else 1)
    page.object_list = list(page.object_list)
    attach_pictures(page.object_list)
    for card in page.object_list:
        card.summary = stat_line(card)
    return page


def _games() -> list[tuple[str, str]]:
    return [(code, g.GAME_NAMES[code]) for code in g.GAMES]


def home_view(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": _games()})


def _query_without(request: HttpRequest, *drop: str) -> str:
    params = request.GET.copy()
    for key in drop:
        params.pop(key, None)
    return params.urlencode()


def card_search_view(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    game = request.GET.get("game") or None
    if game not in g.GAMES:
        game = None
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "list"
    error = None
    page = None
    suggestions: list[Card] = []
    status = 200
    order = request.GET.get("order", "")
    direction = request.GET.get("dir", "")
    if order not in dict(SORT_CHOICES):
        order = ""
    retry_after = None
    if q or game:
        try:
            page_throttle(request)  # the API's rates and counters (config/throttling.py): 429
            with search_deadline():  # a statement timeout on the count, the page and "did you mean": 503
                qs = card_search(q=q, game=game)
                if order:
                    qs = qs.order_by(*_finish_order(parse_order(("-" if direction == "desc" else "") + order)))
                page = _page(request, qs)
                if page.paginator.count == 0 and q:
                    suggestions = card_suggest(q=q, game=game)
        except (QueryError, SearchTimeout, PageThrottled) as exc:
            error = exc  # an AppError: error.message is in the reader's language
            status = exc.status
            retry_after = exc.headers.get("Retry-After")
            page = None
    context = {
        "q": q,
        "game": game,
        "games": _games(),
        "view": view,
        "page": page,
        "suggestions": suggestions,
        "error": error,
        "error_marker": (q[: error.position], q[error.position:]) if isinstance(error, QueryError) else None,
        "base_query": _query_without(request, "page"),
        "view_query": _query_without(request, "view", "page"),
        "count_cap": COUNT_CAP,
        "sort_choices": SORT_CHOICES,
        "order": order,
        "direction": "desc" if direction == "desc" else "asc",
    }
    response = render(request, "catalog/card_search.html", context, status=status)
    if retry_after:
        response["Retry-After"] = retry_after
    return response


def _stat(card: Card, name: str):
    value = getattr(card, name)
    return None if value in (None, "", [], {}) else value


def card_detail_view(request: HttpRequest, game: str, code: str) -> HttpResponse:
    if game not in g.GAMES:
        raise Http404(f"unknown game {game}")
    card = card_get(game=game, code=code)
    slots = set(card.slots or [])
    lycee_grid = [
        [(s, (not slots) or s in slots) for s in ("AF-L", "AF-C", "AF-R")],
        [(s, (not slots) or s in slots) for s in ("DF-L", "DF-C", "DF-R")],
    ]
    keywords = [k if isinstance(k, str) else k.get("name", "") for k in (card.keywords or [])]
    same_set = (
        list(Card.objects.filter(game=game, set_code=card.set_code).exclude(pk=card.pk).only("game", "code", "name")
             .order_by("code")[:12])
        if card.set_code else []
    )
    series = get_spec(game).series_of(card.set_code, card.work)
    context = {
        "card": card,
        "game_name": g.GAME_NAMES[game],
        "lycee_grid": lycee_grid,
        "keywords": keywords,
        "printings": list(card.printings.all()),
        "picture": best_picture(card.code, card.printings.all()),
        "printing_groups": card_printing_groups(card=card),
        "same_card": card_same_identity(card=card),
        "series": series,
        "same_set": same_set,
        "cost_detail": sorted((card.cost_detail or {}).items()),
        "abilities": [(a, getattr(card, a)) for a in g.PHANTASMA_ATTRIBUTES],
        "stat_names": get_spec(game).stats,
        "engine": _engine_report(card),
        **_text_language_context(card, request.GET.get("text", "")),
    }
    return render(request, f"catalog/card_detail_{game}.html", context)


def _engine_report(card: Card) -> dict:
    """The card page's engine block (catalog.abilities.card_engine_report) in the reader's language."""
    from .abilities import card_engine_report
    from .labels import COVERAGE_LABELS

    report = card_engine_report(card)
    for a in report["abilities"]:
        a["label"] = str(COVERAGE_LABELS.get(a["status"], a["status"]))
        a["reason"] = _(a["reason"]) if a["reason"] and a["status"] != "not_understood" else ""
    report["never_played"] = _(report["never_played"]) if report["never_played"] else ""
    return report


def card_picture_view(request: HttpRequest, game: str, code: str) -> HttpResponse:
    """The card's large picture (image over its drawn face) as an HTML fragment: the lists' previews."""
    if game not in g.GAMES:
        raise Http404(f"unknown game {game}")
    try:
        card = card_get(game=game, code=code)
    except Http404:  # a printing's own code (a parallel in a deck list)
        card = Card.objects.filter(game=game, printings__code=code).prefetch_related("printings").first()
        if card is None:
            raise
    picture = best_picture(code, [p for p in card.printings.all() if p.code == code]) or best_picture(card.code, card.printings.all())
    response = render(request, "catalog/_preview.html", {"card": card, "picture": picture})
    response["Cache-Control"] = "public, max-age=300"
    return response


def _language_name(code: str) -> str:
    from django.conf.locale import LANG_INFO

    info = LANG_INFO.get(code) or LANG_INFO.get(code.split("-")[0]) or {}
    return info.get("name_local", code)


def _text_language_context(card: Card, wanted: str = "") -> dict:
    """Which name/text the card page shows: ``?text=<language>`` when the card has it, else the user's
    language when the card has it, else the card as printed."""
    reader = get_language() or "en"
    shown = card.text_in(wanted) if wanted in (card.translations or {}) else card.text_in(reader)
    others = sorted(code for code, t in (card.translations or {}).items() if isinstance(t, dict) and code != shown["language"])
    printed = card.printed_language if not shown["language"] else ""
    return {
        "shown": shown,
        "shown_language_name": _language_name(shown["language"]) if shown["language"] else "",
        "text_languages": [(code, _language_name(code)) for code in others],
        # The card as printed: say in which language when it is not the reader's, or other versions exist.
        "printed_language": printed,
        "printed_language_name": _language_name(printed) if printed else "",
        "printed_note": not shown["language"] and (bool(others) or bool(printed and printed != reader.split("-")[0])),
    }


def game_browse_view(request: HttpRequest, game: str) -> HttpResponse:
    """A game's series (works) and its sets in release order (where known), with names and card counts."""
    if game not in g.GAMES:
        raise Http404(f"unknown game {game}")
    rows = [
        {"set_code": s.code, "name": s.name, "cards": s.cards, "series": s.series, "release_date": s.release_date,
         "url": reverse("set-detail", kwargs={"game": game, "set_code": s.code}) if s.code else None}
        for s in card_sets(game=game)
    ]
    series = [{**row, "url": reverse("series-detail", kwargs={"game": game, "series": row["name"]})}
              for row in card_series(game=game)]
    return render(request, "catalog/set_list.html", {
        "game": game, "game_name": g.GAME_NAMES[game], "sets": rows, "series": series,
        "games": _games(),
    })


def series_detail_view(request: HttpRequest, game: str, series: str) -> HttpResponse:
    """One series (work) of a game: its sets and its cards (list or picture grid, paged)."""
    if game not in g.GAMES:
        raise Http404(f"unknown game {game}")
    if "\x00" in series or len(series) > 128:
        raise Http404("no such series")
    qs = card_series_cards(game=game, series=series)
    if qs is None:
        raise Http404(f"no {game} series {series}")
    sets = [s for s in card_sets(game=game) if s.code and series in s.series]
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "grid"
    return render(request, "catalog/series_detail.html", {
        "game": game, "game_name": g.GAME_NAMES[game], "series": series, "sets": sets, "page": _page(request, qs),
        "games": _games(), "view": view, "count_cap": COUNT_CAP, "base_query": _query_without(request, "page"),
        "view_query": _query_without(request, "view", "page"),
    })


def set_detail_view(request: HttpRequest, game: str, set_code: str) -> HttpResponse:
    if game not in g.GAMES:
        raise Http404(f"unknown game {game}")
    if "\x00" in set_code or len(set_code) > 64:
        raise Http404("no such set")
    qs = Card.objects.filter(game=game, set_code=set_code).order_by("code")
    if not qs.exists():
        raise Http404(f"no {game} set {set_code}")
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "list"
    info = next((s for s in card_sets(game=game) if s.code == set_code), None)
    return render(request, "catalog/set_detail.html", {
        "game": game, "game_name": g.GAME_NAMES[game], "set_code": set_code, "page": _page(request, qs), "set": info,
        "series_links": [(name, reverse("series-detail", kwargs={"game": game, "series": name}))
                         for name in (info.series if info else [])],
        "games": _games(), "view": view, "count_cap": COUNT_CAP, "base_query": _query_without(request, "page"), "view_query": _query_without(request, "view", "page"),
    })


def search_help_view(request: HttpRequest) -> HttpResponse:
    fields = [
        {"name": f.name, "aliases": f.aliases, "kind": f.kind, "help": _field_help(f),
         "games": _games_names(f.games) if f.games else _("all games"),
         "operators": " ".join(f.operators), "values": [_value_with_words(f.name, v) for v in f.values]}
        for f in FIELDS
    ]
    return render(request, "catalog/search_help.html", {
        "fields": [f for f in fields if f["kind"] != NUMBER],
        "stats": [f for f in fields if f["kind"] == NUMBER],
        "examples": [(g.GAME_NAMES[game], game, [(q, _(d)) for q, d in EXAMPLES[game]]) for game in g.GAMES],
        "general_examples": [(q, _(d)) for q, d in GENERAL_EXAMPLES],
        "effect_kinds": _effect_kinds(),
    })


def _effect_kinds() -> list[tuple[str, str, tuple[str, ...]]]:
    """``(game name, game code, kinds)`` of every game ``effect:`` knows kinds for (the help page)."""
    from .abilities import effect_vocabulary

    return [(g.GAME_NAMES[game], game, kinds) for game in g.GAMES if (kinds := effect_vocabulary(game))]


def _value_with_words(field: str, value: str) -> str:
    """An enumerated value with the words the pages show for it in the reader's language, which the
    search accepts too: ``comeback (カムバック, 扉)``."""
    words = value_words(field, value)
    return f"{value} ({pgettext('list separator', ', ').join(words)})" if words else value


def _games_names(games: tuple[str, ...]) -> str:
    return pgettext("list separator", ", ").join(g.GAME_NAMES[x] for x in games)


def _field_help(f) -> str:
    """A field's help in the user's language (the texts are marked in catalog/search/fields.py)."""
    if f.kind == NUMBER and f.help == f"{f.name} (number)":
        return _("%(name)s (number)") % {"name": f.name}
    return _(f.help) if f.help else ""
