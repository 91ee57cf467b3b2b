"""Deck pages: list, create/import, deck page (list by type, validation, charts, odds), builder,
history with diffs, share links, forks, export. All work without JavaScript (sign-up: accounts/)."""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from rules import games as g
from rules.cards import CardRecord

from .drafts import draft_unsaved
from .forms import DeckForm, ShareForm
from .models import Deck, DeckVersion, Visibility
from .selectors import (
    cards_resolve,
    deck_can_edit,
    deck_diff,
    deck_export_text,
    deck_get,
    deck_get_by_slug,
    deck_list,
    deck_snapshot,
    deck_validate_records,
    deck_version_list,
    zones_to_text,
)
from .services import (
    DeckConflict,
    DeckInputError,
    DeckPermissionDenied,
    DeckQuotaExceeded,
    DeckRateLimited,
    deck_create,
    deck_delete,
    deck_fork,
    deck_legality_store,
    deck_restore,
    deck_update,
    share_link_create,
)
from .stats import deck_charts, odds_groups, odds_selection, odds_table, stat_line

TYPE_PLURALS = {"character": gettext_lazy("Characters"), "climax": gettext_lazy("Climaxes"), "ex_skill": gettext_lazy("EX skills"),
                "extra": gettext_lazy("EXTRA cards"), "event": gettext_lazy("Events"), "scene": gettext_lazy("Scenes"), "battle": gettext_lazy("Battle cards"),
                "item": gettext_lazy("Items"), "area": gettext_lazy("Areas"), "set": gettext_lazy("Sets")}
ZONE_TITLES = {"main": gettext_lazy("Main deck"), "extra": gettext_lazy("Extra deck"), "ace": gettext_lazy("ACE"), "ex": gettext_lazy("EX skills"),
               "partner": gettext_lazy("Partner")}


# -- helpers -------------------------------------------------------------------------------------
def _deck_or_404(request: HttpRequest, pk: int) -> Deck:
    deck = deck_get(deck_id=pk, user=request.user)
    if deck is None:
        raise Http404(_("No such deck (or it is not shared with you)."))
    return deck


def _own_deck_or_404(request: HttpRequest, pk: int) -> Deck:
    deck = _deck_or_404(request, pk)
    if not deck_can_edit(deck=deck, user=request.user):
        raise Http404(_("Only the owner can change this deck."))
    return deck


def _names(cards: Mapping[str, CardRecord]) -> dict[str, str]:
    return {code: rec.name for code, rec in cards.items()}


def card_stats(card: Any) -> str:
    return stat_line(card)


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", text))


def _sort_key(rec: CardRecord | None, code: str) -> tuple:
    if rec is None:
        return (99, 99, (), _natural(code))
    return (rec.level if rec.level is not None else 99, rec.cost if rec.cost is not None else 99,
            _natural(rec.name), _natural(code))


def deck_view_context(request: HttpRequest, deck: Deck, zones: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """Everything the deck page shows for ``zones`` of ``deck``: grouped list, validation, charts, odds."""
    game = deck.game
    cards = cards_resolve(game=game, codes={c for z in zones.values() for c in z})
    report = deck_validate_records(game=game, zones=zones, cards=cards, fmt=deck.format)
    problem_cards = {c for e in report["errors"] for c in e["cards"]}
    sections = []
    for zone in g.ZONES:
        entries = zones.get(zone) or {}
        if not entries:
            continue
        rows = []
        for code, n in entries.items():
            rec = cards.get(code)
            rows.append({"code": code, "count": n, "card": rec, "problem": code in problem_cards, "stats": card_stats(rec),
                         "other_game": rec is not None and rec.game != game})
        rows.sort(key=lambda r: _sort_key(r["card"], r["code"]))
        groups: dict[str, list] = {}
        for r in rows:
            rec = r["card"]
            label = str(_("Unknown cards") if rec is None else (_("Other games' cards") if r["other_game"] else
                                                               TYPE_PLURALS.get(rec.card_type, rec.card_type)))
            groups.setdefault(label, []).append(r)
        order = [str(TYPE_PLURALS.get(t, t)) for t in g.CARD_TYPES[game]]
        grouped = sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
        sections.append({
            "zone": zone, "title": str(ZONE_TITLES[zone]), "total": sum(entries.values()),
            "groups": [{"label": label, "rows": rs, "total": sum(r["count"] for r in rs)} for label, rs in grouped],
        })
    # odds
    groups_list = odds_groups(game, zones, cards)
    main_total = sum((zones.get("main") or {}).values())
    wanted = [k for k in request.GET.getlist("odds") if k][:20] or ([groups_list[0]["key"]] if groups_list else [])
    chosen = odds_selection(groups_list, wanted, zones) or (
        odds_selection(groups_list, [groups_list[0]["key"]], zones) if groups_list else None)
    turns = _int(request.GET.get("turns"), 5, 0, 20)
    at_least = _int(request.GET.get("k"), 1, 1, 4)
    odds = None
    if chosen and main_total:
        odds = {"group": chosen, "rows": odds_table(game, main_total, min(chosen["copies"], main_total), turns, at_least),
                "k": at_least, "turns": turns, "deck_size": main_total}
    return {
        "deck": deck, "game_name": g.GAME_NAMES[game], "sections": sections, "report": report,
        "charts": deck_charts(game, zones, cards), "odds": odds, "odds_groups": groups_list,
        "constants": g.CONSTANTS[game], "can_edit": deck_can_edit(deck=deck, user=request.user),
        "zones_json": json.dumps(zones),
    }


def _int(raw: str | None, default: int, lo: int, hi: int) -> int:
    try:
        return max(lo, min(hi, int(raw))) if raw not in (None, "") else default
    except ValueError:
        return default


def _pinned_links(deck: Deck) -> list[Any]:
    """The share section's links besides the deck's own (which follows the latest version): one per
    pinned version, newest version first (an unpinned link shows the same as the deck's own link)."""
    seen: dict[int, Any] = {}
    for link in deck.share_links.exclude(version=None).order_by("-version", "created"):
        seen.setdefault(link.version, link)
    return list(seen.values())


def _form_field(form: Any, field: str) -> str:
    """The form field a service's input error names (``format`` is the form's ``deck_format``)."""
    field = "deck_format" if field == "format" else field
    return field if field in form.fields else "text"


# -- list / create -------------------------------------------------------------------------------
def _with_validity(decks: list[Deck]) -> list[Deck]:
    """Each deck's ``legal`` / ``problems`` as stored when it was saved (issue 19: validating every
    listed deck let one account's huge decks slow the public list for everyone); a deck saved before
    legality was stored is checked once here and stored (``deck_legality_store``)."""
    for d in decks:
        if d.legal is None:
            deck_legality_store(deck=d)
    return decks


def deck_list_view(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") if request.GET.get("game") in g.GAMES else ""
    q = request.GET.get("q", "")[:100]
    mine = (_with_validity(list(deck_list(user=request.user, filters={"mine": 1, "game": game, "q": q})[:200]))
            if request.user.is_authenticated else None)
    public = _with_validity(list(deck_list(user=None, filters={"game": game, "q": q})[:100]))
    return render(request, "decks/deck_list.html", {
        "mine": mine, "public": public, "game": game, "games": [(c, g.GAME_NAMES[c]) for c in g.GAMES],
        "q": request.GET.get("q", ""),
    })


@login_required
def deck_create_view(request: HttpRequest) -> HttpResponse:
    initial = {"game": request.GET.get("game") if request.GET.get("game") in g.GAMES else g.WS}
    form = DeckForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            deck = deck_create(owner=request.user, game=d["game"], name=d["name"], zones=d["zones"],
                               description=d["description"], visibility=d["visibility"],
                               note="created" if d["format"] == "deck text" else f"imported ({d['format']})",
                               format_code=d.get("deck_format") or None)
        except DeckInputError as exc:
            form.add_error(_form_field(form, exc.field), exc.message)
        except (DeckQuotaExceeded, DeckRateLimited) as exc:  # decks per account, creations per hour
            form.add_error(None, exc.message)
            response = render(request, "decks/deck_form.html", {"form": form, "creating": True}, status=exc.status)
            for header, value in exc.headers.items():
                response[header] = value
            return response
        else:
            messages.success(request, _("Deck created."))
            return redirect("deck-detail", pk=deck.pk)
    return render(request, "decks/deck_form.html", {"form": form, "creating": True},
                  status=400 if form.errors else 200)


# -- the deck page -------------------------------------------------------------------------------
def deck_detail_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck_or_404(request, pk)
    ctx = deck_view_context(request, deck, deck.zones or {})
    ctx.update({"shown_version": deck.version, "share_links": _pinned_links(deck) if ctx["can_edit"] else [],
                "unsaved_draft": ctx["can_edit"] and draft_unsaved(deck=deck)})
    return render(request, "decks/deck_detail.html", ctx)


def deck_shared_view(request: HttpRequest, slug: str) -> HttpResponse:
    deck = deck_get_by_slug(slug, user=request.user)
    if deck is None:
        raise Http404(_("No deck behind this link."))
    snap = deck_snapshot(deck=deck, version=deck.shared_version)
    ctx = deck_view_context(request, deck, snap["zones"])
    ctx.update({"shown_version": snap["version"], "shown_name": snap["name"], "via_link": True, "slug": slug,
                "pinned": deck.shared_version is not None,
                "share_links": _pinned_links(deck) if ctx["can_edit"] else []})
    return render(request, "decks/deck_detail.html", ctx)


# -- edit --------------------------------------------------------------------------------------
@login_required
def deck_edit_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _own_deck_or_404(request, pk)
    conflict = None
    if request.method == "POST":
        form = DeckForm(request.POST, request.FILES, editing=True, initial={"game": deck.game})
        if form.is_valid():
            d = form.cleaned_data
            try:
                deck = deck_update(deck=deck, user=request.user, base_version=d["base_version"], name=d["name"],
                                   description=d["description"], visibility=d["visibility"], zones=d["zones"],
                                   note=d.get("note", ""), publish_history=bool(d.get("publish_history")),
                                   format_code=d.get("deck_format") or "")
            except DeckConflict as exc:
                conflict = exc
                data = request.POST.copy()
                data["base_version"] = str(exc.current_version)
                form = DeckForm(data, editing=True, initial={"game": deck.game})
                form.is_valid()
            except DeckInputError as exc:
                form.add_error(_form_field(form, exc.field), exc.message)
            else:
                messages.success(request, _("Saved as version %(version)s.") % {"version": deck.version})
                return redirect("deck-detail", pk=deck.pk)
    else:
        cards = cards_resolve(game=deck.game, codes={c for z in (deck.zones or {}).values() for c in z})
        form = DeckForm(editing=True, initial={
            "name": deck.name, "game": deck.game, "visibility": deck.visibility, "description": deck.description,
            "text": zones_to_text(deck.zones or {}, _names(cards)), "base_version": deck.version,
            "deck_format": deck.format.code if deck.format_id else "",
        })
    status = 409 if conflict else (400 if form.errors else 200)
    return render(request, "decks/deck_form.html", {"form": form, "deck": deck, "conflict": conflict}, status=status)


# -- history -----------------------------------------------------------------------------------
def deck_history_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck_or_404(request, pk)
    versions = list(deck_version_list(deck=deck))
    first = getattr(deck, "visible_from", 1)  # a public deck's versions from when it was made public
    a = _int(request.GET.get("from"), max(first, deck.version - 1), first, deck.version)
    b = _int(request.GET.get("to"), deck.version, first, deck.version)
    diff = None
    try:
        diff = deck_diff(deck=deck, from_version=a, to_version=b)
    except DeckVersion.DoesNotExist as exc:
        messages.error(request, str(exc))
    codes = {c for zone in (diff or {}).get("zones", {}).values() for part in zone.values() for c in part}
    cards = cards_resolve(game=deck.game, codes=codes)
    rows = []
    for zone, change in (diff or {}).get("zones", {}).items():
        for kind in ("added", "removed"):
            for code, n in change[kind].items():
                rows.append({"zone": str(ZONE_TITLES[zone]), "kind": kind, "code": code, "count": n, "card": cards.get(code)})
    return render(request, "decks/deck_history.html", {
        "deck": deck, "versions": versions, "diff": diff, "rows": rows, "a": a, "b": b,
        "can_edit": deck_can_edit(deck=deck, user=request.user),
    })


@login_required
@require_POST
def deck_restore_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _own_deck_or_404(request, pk)
    version = _int(request.POST.get("version"), 0, 0, 10**9)
    base = _int(request.POST.get("base_version"), 0, 0, 10**9) or None
    try:
        deck = deck_restore(deck=deck, user=request.user, version=version, base_version=base)
    except DeckInputError as exc:
        messages.error(request, exc.message)
        return redirect("deck-history", pk=pk)
    except DeckConflict as exc:
        messages.error(request, _("The deck changed meanwhile (now version %(version)s); nothing was restored. "
                                  "Look at the history again and retry.") % {"version": exc.current_version})
        return redirect("deck-history", pk=pk)
    messages.success(request, _("Version %(old)s restored as version %(new)s.") % {"old": version, "new": deck.version})
    return redirect("deck-detail", pk=pk)


# -- fork / share / delete / export ------------------------------------------------------------
@login_required
@require_POST
def deck_fork_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck_or_404(request, pk)
    try:
        fork = deck_fork(deck=deck, user=request.user)
    except (DeckQuotaExceeded, DeckRateLimited) as exc:
        messages.error(request, exc.message)
        return redirect("deck-detail", pk=deck.pk)
    messages.success(request, _("Forked “%(name)s” into your decks.") % {"name": deck.name})
    return redirect("deck-detail", pk=fork.pk)


@login_required
@require_POST
def deck_shared_fork_view(request: HttpRequest, slug: str) -> HttpResponse:
    deck = deck_get_by_slug(slug, user=request.user)
    if deck is None:
        raise Http404(_("No deck behind this link."))
    try:
        fork = deck_fork(deck=deck, user=request.user, version=deck.shared_version, via_link=True)
    except (DeckInputError, DeckPermissionDenied) as exc:
        raise Http404(exc.message) from None
    except (DeckQuotaExceeded, DeckRateLimited) as exc:
        messages.error(request, exc.message)
        return redirect("deck-shared", slug=slug)
    messages.success(request, _("Forked “%(name)s” into your decks.") % {"name": deck.name})
    return redirect("deck-detail", pk=fork.pk)


@login_required
@require_POST
def deck_share_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _own_deck_or_404(request, pk)
    form = ShareForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Bad share request: ") + "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return redirect("deck-detail", pk=deck.pk)
    version = (form.cleaned_data.get("version") or deck.version) if form.cleaned_data["pin"] else None
    was_private = deck.visibility == Visibility.PRIVATE
    try:
        link = share_link_create(deck=deck, user=request.user, version=version)
    except DeckInputError as exc:
        messages.error(request, exc.message)
        return redirect("deck-detail", pk=deck.pk)
    note = (" " + _("The deck was private and is now unlisted (reachable only by link).")) if was_private else ""
    messages.success(request, _("Share link created: %(url)s") % {"url": request.build_absolute_uri(reverse("deck-shared", args=[link.slug]))} + note)
    return redirect("deck-detail", pk=deck.pk)


@login_required
def deck_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _own_deck_or_404(request, pk)
    if request.method == "POST":
        deck_delete(deck=deck, user=request.user)
        messages.success(request, _("Deleted “%(name)s”.") % {"name": deck.name})
        return redirect("deck-list")
    return render(request, "decks/deck_confirm_delete.html", {"deck": deck})


def _export_snapshot(request: HttpRequest, pk: int | None = None, slug: str | None = None
                     ) -> tuple[Deck, dict[str, Any]]:
    if slug is not None:
        found = deck_get_by_slug(slug, user=request.user)
        if found is None:
            raise Http404(_("No deck behind this link."))
        deck = found
        # a link shows exactly one version: the pinned one, or the latest
        version = deck.shared_version or deck.version
    else:
        deck = _deck_or_404(request, pk)
        version = _int(request.GET.get("version"), deck.version, 1, 10**9)
    try:
        return deck, deck_snapshot(deck=deck, version=version)
    except DeckVersion.DoesNotExist:
        raise Http404(_("Deck has no version %(version)s.") % {"version": version}) from None


def deck_export_text_view(request: HttpRequest, pk: int | None = None, slug: str | None = None) -> HttpResponse:
    deck, snap = _export_snapshot(request, pk, slug)
    resp = HttpResponse(deck_export_text(deck=deck, snapshot=snap), content_type="text/plain; charset=utf-8")
    resp["Content-Disposition"] = f'inline; filename="deck-{deck.pk}-v{snap["version"]}.txt"'
    return resp


def deck_export_json_view(request: HttpRequest, pk: int | None = None, slug: str | None = None) -> HttpResponse:
    deck, snap = _export_snapshot(request, pk, slug)
    resp = JsonResponse({"id": deck.pk, "owner": deck.owner.username, **snap}, json_dumps_params={"ensure_ascii": False})
    resp["Content-Disposition"] = f'inline; filename="deck-{deck.pk}-v{snap["version"]}.json"'
    return resp


def deck_shared_export_text_view(request: HttpRequest, slug: str) -> HttpResponse:
    return deck_export_text_view(request, slug=slug)


def deck_shared_export_json_view(request: HttpRequest, slug: str) -> HttpResponse:
    return deck_export_json_view(request, slug=slug)
