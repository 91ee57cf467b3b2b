"""Playtest pages: my jobs + new job form, the report (share link /p/<slug>/), one game's replay,
cancel, and a side-by-side comparison of two jobs. Server-rendered; JavaScript only polls progress."""
from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.exceptions import Throttled

from rules import games as g
from rules.decktext import format_deck_text
from rules.engine.core import get_engine

from . import charts, reports, services
from .forms import PlaytestForm, engine_help
from .i18n import description, localize_comparison, stat_label
from .models import PlaytestJob
from .selectors import playtest_get_by_slug, playtest_is_mine, playtest_list, playtest_partial
from .stats import compare_results
from .throttles import PlaytestCreateThrottle
from .web import client_ip, session_key


def _job_or_404(slug: str) -> PlaytestJob:
    job = playtest_get_by_slug(slug)
    if job is None:
        raise Http404("no such playtest report")
    return job


def _deck_context(request: HttpRequest, form: PlaytestForm) -> dict[str, Any]:
    """What the form says about a saved/shared deck it will run (hidden fields)."""
    data = form.data if form.is_bound else form.initial
    deck_id, share = data.get("deck"), data.get("share")
    if not deck_id and not share:
        return {}
    try:
        src = services.deck_source_from_deck(user=request.user if request.user.is_authenticated else None,
                                             deck_id=int(deck_id) if deck_id else None, share=share or None,
                                             version=int(data["version"]) if data.get("version") else None)
    except (services.PlaytestError, ValueError):
        return {"deck_error": _("That deck is not available.")}
    return {"deck_source": src, "deck_game_name": g.GAME_NAMES[src["game"]]}


def playtest_list_view(request: HttpRequest) -> HttpResponse:
    jobs = playtest_list(user=request.user, session_key=session_key(request))[:100]
    form = PlaytestForm(user=request.user)
    return render(request, "playtest/playtestjob_list.html",
                  {"jobs": jobs, "form": form, "games": g.GAME_NAMES, "engines": engine_help()})


def playtest_new_view(request: HttpRequest) -> HttpResponse:
    status = 200
    errors: list[str] = []
    if request.method == "POST":
        form = PlaytestForm(request.POST, user=request.user)
        if form.is_valid():
            throttle = PlaytestCreateThrottle()
            if not throttle.allow_request(request, None):
                wait = int(throttle.wait() or 60) + 1
                exc = Throttled(wait)
                response = render(request, "playtest/playtestjob_form.html", {
                    "form": form, "errors": [_("Too many playtest jobs started recently; try again in %(s)s seconds.")
                                             % {"s": wait}], **_deck_context(request, form)}, status=exc.status_code)
                response["Retry-After"] = str(wait)
                return response
            try:
                job = services.playtest_start(
                    data=form.as_api_data(), owner=request.user if request.user.is_authenticated else None,
                    session_key=lambda: session_key(request, create=True), client_ip=client_ip(request))
            except services.PlaytestError as exc:
                errors, status = exc.messages, exc.status
            else:
                return redirect(job.get_absolute_url(), permanent=False)
        else:
            status = 400
    else:
        initial = {k: request.GET[k] for k in ("deck", "share", "version", "game", "games") if request.GET.get(k)}
        if request.GET.get("from"):
            initial.update(_initial_from_job(request.GET["from"]))
        form = PlaytestForm(initial=initial, user=request.user)
    response = render(request, "playtest/playtestjob_form.html",
                      {"form": form, "errors": errors, "engines": engine_help(), **_deck_context(request, form)},
                      status=status)
    if status == 429:
        response["Retry-After"] = "30"
    return response


def _initial_from_job(slug: str) -> dict[str, Any]:
    """Form values to run a report's deck again (same deck snapshot, settings; a new seed)."""
    job = playtest_get_by_slug(slug)
    if job is None:
        return {}
    initial: dict[str, Any] = {"games": job.games, "pilot": job.pilot, "turn_cap": job.turn_cap,
                               "name": job.name, "game": job.game}
    try:
        defaults = get_engine(job.game).default_options
    except KeyError:
        defaults = {}
    changed = {k: v for k, v in job.options.items() if k != "turn_cap" and k in defaults and defaults[k] != v}
    if changed:
        initial["options"] = "\n".join(f"{k} = {v}" for k, v in sorted(changed.items()))
    if job.source == PlaytestJob.Source.DECK and job.deck_id:
        initial.update(deck=job.deck_id, version=job.deck_version)
    elif job.source == PlaytestJob.Source.SHARE and job.deck_slug:
        initial.update(share=job.deck_slug, version=job.deck_version)
    else:
        rows = [(zone, code, n) for zone in g.ZONES for code, n in job.deck_counts().get(zone, {}).items()]
        names = {code: c.get("name", "") for code, c in job.card_data().items()}
        initial["text"] = format_deck_text(rows, names)
    return initial


def _charts(job: PlaytestJob) -> dict[str, Any]:
    s = job.summary or {}
    wins = {int(k): v for k, v in s.get("win_histogram", {}).items()}
    cum = {int(k): v for k, v in s.get("cumulative_win_probability", {}).items()}
    name = job.name or _("this deck")
    return {
        "histogram": charts.bar_chart(
            [(_("wins"), wins)], title=_("Turn of win: %(name)s") % {"name": name},
            desc=_("Bar chart of how many of %(n)s games were won on each of the player's own turns; "
                   "the same numbers are in the table below.") % {"n": job.games}),
        "cumulative": charts.line_chart(
            [(_("won by turn"), cum)], title=_("Cumulative win probability: %(name)s") % {"name": name},
            desc=_("Line chart of the share of games won by the end of each own turn; the same numbers are in "
                   "the table below.")),
    }


def playtest_report_view(request: HttpRequest, slug: str) -> HttpResponse:
    job = _job_or_404(slug)
    if job.is_active:
        services.playtest_resume_orphans()
    ctx: dict[str, Any] = {
        "job": job, "mine": playtest_is_mine(job, user=request.user, session_key=session_key(request)),
        "share_url": request.build_absolute_uri(job.get_absolute_url()),
        "game_name": g.GAME_NAMES.get(job.game, job.game), "deck_rows": reports.deck_rows(job),
        "coverage": reports.coverage_block(job),
        "api_url": reverse("api-playtest-detail", kwargs={"key": job.share_slug}),
        "options_described": _options_described(job), "partial": playtest_partial(job),
    }
    if job.status == PlaytestJob.Status.DONE:
        s = job.summary or {}
        ctx.update(_charts(job))
        ctx.update({
            "s": s, "rows": reports.histogram_rows(job), "extras": reports.extras(job),
            "odds": reports.opening_odds(job), "first_playable": reports.first_playable(job),
            "replay_links": list(range(min(job.games, 10))), "examples": reports.example_games(job),
            "reasons": reports.end_reasons(job),
            "games_per_second": (job.games / job.compute_seconds) if job.compute_seconds else None,
            "recent": [j for j in playtest_list(user=request.user, session_key=session_key(request))
                       .filter(status="done").exclude(pk=job.pk)[:20]],
            "same_deck": [j for j in playtest_list(user=request.user, session_key=session_key(request))
                          .filter(status="done", deck_id=job.deck_id).exclude(pk=job.pk)[:5]] if job.deck_id else [],
        })
    return render(request, "playtest/playtestjob_detail.html", ctx)


def _options_described(job: PlaytestJob) -> list[dict[str, Any]]:
    try:
        describe = get_engine(job.game).describe_options
    except KeyError:
        describe = {}
    return [{"name": k, "value": v, "help": description(describe.get(k, ""))}
            for k, v in sorted((job.options or {}).items())]


@require_POST
def playtest_cancel_view(request: HttpRequest, slug: str) -> HttpResponse:
    job = _job_or_404(slug)
    if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
        return render(request, "playtest/playtestjob_detail.html",
                      {"job": job, "errors": [_("Only the job's owner can cancel it.")]}, status=403)
    services.playtest_cancel(job=job)
    return redirect(job.get_absolute_url())


@require_POST
def playtest_delete_view(request: HttpRequest, slug: str) -> HttpResponse:
    job = _job_or_404(slug)
    if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
        return render(request, "playtest/playtestjob_detail.html",
                      {"job": job, "errors": [_("Only the job's owner can delete it.")]}, status=403)
    try:
        services.playtest_delete(job=job)
    except services.PlaytestError as exc:
        return render(request, "playtest/playtestjob_detail.html", {"job": job, "errors": exc.messages}, status=exc.status)
    return redirect("playtest-list")


def playtest_game_view(request: HttpRequest, slug: str, index: int | None = None) -> HttpResponse:
    job = _job_or_404(slug)
    if index is None:
        raw = request.GET.get("index", "").strip()
        if not raw.isascii() or not raw.isdigit() or int(raw) >= job.games:  # "-1" was a 500 (no such URL)
            error = (_("Enter a game number.") if not raw else
                     _("index: the game number must be a whole number from 0 to %(last)s, got %(value)s")
                     % {"last": job.games - 1, "value": repr(raw[:20])})
            return render(request, "playtest/playtestjob_game.html", {"job": job, "error": error}, status=400)
        return redirect("playtest-game", slug=slug, index=int(raw))
    try:
        replay = reports.game_replay(job, index)
    except IndexError as exc:
        return render(request, "playtest/playtestjob_game.html", {"job": job, "error": str(exc)}, status=404)
    return render(request, "playtest/playtestjob_game.html", {
        "job": job, "replay": replay, "game_name": g.GAME_NAMES.get(job.game, job.game),
        "counter_rows": [{"key": k, "name": stat_label(k), "value": v} for k, v in replay["counters"].items()
                         if not reports.OPENING_COUNTER.match(k)],
        "prev": index - 1 if index > 0 else None, "next": index + 1 if index + 1 < job.games else None,
        "api_url": reverse("api-playtest-game-log", kwargs={"key": job.share_slug, "index": index}),
    })


def _slug_from(value: str) -> str:
    value = (value or "").strip().rstrip("/")
    return value.rsplit("/", 1)[-1] if "/" in value else value


def playtest_compare_view(request: HttpRequest) -> HttpResponse:
    a_key, b_key = _slug_from(request.GET.get("a", "")), _slug_from(request.GET.get("b", ""))
    mine = [j for j in playtest_list(user=request.user, session_key=session_key(request)).filter(status="done")[:50]]
    ctx: dict[str, Any] = {"a_key": a_key, "b_key": b_key, "mine": mine}
    if not a_key or not b_key:
        return render(request, "playtest/playtestjob_compare.html", ctx)
    jobs = [playtest_get_by_slug(a_key), playtest_get_by_slug(b_key)]
    errors = []
    for label, job, key in (("A", jobs[0], a_key), ("B", jobs[1], b_key)):
        if job is None:
            errors.append(_("%(label)s: no playtest report %(key)s.") % {"label": label, "key": key})
        elif job.status != PlaytestJob.Status.DONE:
            errors.append(_("%(label)s: the job is %(status)s, not done.") % {"label": label, "status": job.status})
    if errors:
        ctx["errors"] = errors
        return render(request, "playtest/playtestjob_compare.html", ctx, status=400)
    a, b = jobs
    cmp = localize_comparison(compare_results(a.result, b.result))
    label_a, label_b = f"A: {a.name or a.share_slug}", f"B: {b.name or b.share_slug}"

    def share(job: PlaytestJob) -> dict[int, float]:
        return {int(t): n / job.games for t, n in (job.summary or {}).get("win_histogram", {}).items()}

    def cum(job: PlaytestJob) -> dict[int, float]:
        return {int(t): v for t, v in (job.summary or {}).get("cumulative_win_probability", {}).items()}

    turns = sorted(set(share(a)) | set(share(b)))
    ctx.update({
        "a": a, "b": b, "cmp": cmp, "deck_diff": _zones_diff(a.deck_counts(), b.deck_counts()),
        "same_deck": a.deck_id is not None and a.deck_id == b.deck_id,
        "histogram": charts.bar_chart([(label_a, share(a)), (label_b, share(b))], percent=True, y_title=_("share of games"),
                                      title=_("Turn of win, A and B"),
                                      desc=_("Grouped bars: share of games won on each own turn for A and B.")),
        "cumulative": charts.line_chart([(label_a, cum(a)), (label_b, cum(b))], title=_("Won by turn, A and B"),
                                        desc=_("Two lines: share of games won by each own turn for A and B.")),
        "rows": [{"turn": t, "a": share(a).get(t, 0), "b": share(b).get(t, 0),
                  "cum_a": _cum_at(cum(a), t), "cum_b": _cum_at(cum(b), t)} for t in range(1, (turns[-1] if turns else 0) + 1)],
    })
    return render(request, "playtest/playtestjob_compare.html", ctx)


def _cum_at(cum: dict[int, float], t: int) -> float:
    known = [k for k in cum if k <= t]
    return cum[max(known)] if known else 0.0


def _zones_diff(old: dict, new: dict) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for zone in g.ZONES:
        a, b = old.get(zone) or {}, new.get(zone) or {}
        added = {c: b.get(c, 0) - a.get(c, 0) for c in sorted(set(a) | set(b)) if b.get(c, 0) > a.get(c, 0)}
        removed = {c: a.get(c, 0) - b.get(c, 0) for c in sorted(set(a) | set(b)) if a.get(c, 0) > b.get(c, 0)}
        if added or removed:
            out[zone] = {"added": added, "removed": removed}
    return out
