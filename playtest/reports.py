"""What a report shows, computed from a job's stored snapshot and result (no engine run), plus the
on-demand replay of one game from its seed."""
from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from catalog.labels import COVERAGE_LABELS
from rules import games as g
from rules import odds
from rules.engine.core import RunStats, coverage_report, play_game

from . import conf
from .i18n import description, localize_events, outcome_label, reason_label, stat_label
from .models import PlaytestJob
from .runner import deck_from_snapshot

OPENING_COUNTER = re.compile(r"^(?:opening|opening_hand)[:_](?P<code>.+)$")


def _pct(num: float, den: float) -> float | None:
    return num / den if den else None


def deck_rows(job: PlaytestJob) -> list[dict[str, Any]]:
    cards = job.card_data()
    rows = []
    for zone in g.ZONES:
        for code, count in job.deck_counts().get(zone, {}).items():
            c = cards.get(code, {})
            rows.append({"zone": zone, "code": code, "count": count, "name": c.get("name", ""),
                         "card_type": c.get("card_type", "")})
    return rows


def coverage(job: PlaytestJob) -> dict[str, Any]:
    """What the engine models of the job's deck (``rules.engine.core.coverage_report``): stored in the
    summary when the job finished, else computed from the snapshot (a running job, or one finished
    before reports stored it)."""
    stored = (job.summary or {}).get("coverage")
    if stored is not None:
        return stored
    return coverage_report(deck_from_snapshot(job.game, job.snapshot))


def coverage_block(job: PlaytestJob) -> dict[str, Any]:
    """The coverage block as the report page shows it, in the active language: the share, then each
    card not fully modelled with its copies and, per ability not modelled, the status and why."""
    cov = coverage(job)
    rows = []
    for c in cov["not_modelled"]:
        abilities = [
            {"status": a["status"], "label": coverage_status_label(a["status"]), "text": a["text"],
             "phrase": a.get("phrase") or "", "reason": description(a["reason"]) if a["status"] != "not_understood" else ""}
            for a in c["abilities"] if a["status"] not in ("played", "no_effect")
        ]
        rows.append({"code": c["code"], "name": c["name"], "copies": c["copies"],
                     "never_played": description(c["never_played"]) if c["never_played"] else "", "abilities": abilities})
    return {**cov, "copies_share": cov["copies_share"], "rows": rows, "all_modelled": not rows}


def coverage_status_label(status: str) -> str:
    """An ability's coverage status in the active language."""
    return str(COVERAGE_LABELS.get(status, status))


def opening_odds(job: PlaytestJob) -> list[dict[str, Any]]:
    """Exact chance each main-deck card is in the opening hand, beside the engine's frequency when
    the engine counts it (counter ``opening:<code>``: games whose opening hand held a copy)."""
    main = job.deck_counts().get("main", {})
    size = sum(main.values())
    hand = g.CONSTANTS[job.game].opening_hand
    counters = (job.result or {}).get("counters", {})
    games = (job.result or {}).get("games", 0)
    simulated: dict[str, int] = {}
    for key, value in counters.items():
        m = OPENING_COUNTER.match(key)
        if m:
            simulated[m.group("code")] = value
    sample = (job.summary or {}).get("opening_hands")
    if not simulated and sample:
        simulated, games = dict(sample["holding"]), sample["games"]
    if simulated:
        for code in main:
            simulated.setdefault(code, 0)
    cards = job.card_data()
    rows = []
    for code, copies in sorted(main.items(), key=lambda kv: (-kv[1], kv[0])):
        exact = odds.p_at_least(size, copies, hand)
        by_t1 = odds.p_by_turn(job.game, size, copies, 1)
        sim = _pct(simulated[code], games) if code in simulated and games else None
        rows.append({"code": code, "name": cards.get(code, {}).get("name", ""), "copies": copies, "exact": exact,
                     "exact_turn1": by_t1, "simulated": sim, "sample": games if sim is not None else 0,
                     "difference": None if sim is None else sim - exact})
    return rows


def extras(job: PlaytestJob) -> dict[str, Any]:
    """Per-game extras from the engine's counters: totals and means per game, the engine's declared
    ratios (e.g. WS damage per attack, cancel rate) and per-turn series (mean per game reaching that turn)."""
    result = job.result or {}
    ex = (job.summary or {}).get("extras")
    if ex is None and result:
        ex = RunStats.from_dict(result).extras()
    ex = ex or {}
    help_ = ex.get("descriptions", {})
    counters = [
        {"name": stat_label(k), "key": k, "total": v["total"], "per_game": v["per_game"],
         "help": description(help_.get(k, ""))}
        for k, v in ex.get("counters", {}).items() if not OPENING_COUNTER.match(k) and k != "games"
    ]
    # One row per statistic (issue 18): two keys that read the same (e.g. a per-side counter kept under
    # an old and a new key) show once; "games" is the run's size, shown in the summary.
    seen: set[str] = set()
    counters = [c for c in counters if not (str(c["name"]) in seen or seen.add(str(c["name"])))]
    ratios = [
        {"name": stat_label(k), "key": k, "value": v.get("value"), "n": v.get("n"), "d": v.get("d"),
         "help": description(help_.get(k, ""))}
        for k, v in ex.get("ratios", {}).items()
    ]
    series = [
        {"name": stat_label(k), "key": k, "help": description(help_.get(k, "")),
         "values": [{"turn": int(t), "mean": m} for t, m in sorted(v.items(), key=lambda kv: int(kv[0]))]}
        for k, v in ex.get("per_turn", {}).items()
    ]
    return {"counters": counters, "ratios": ratios, "series": series}


def first_playable(job: PlaytestJob) -> list[dict[str, Any]]:
    summary = job.summary or {}
    games = summary.get("games", 0)
    cards = job.card_data()
    rows = []
    found = summary.get("first_playable", {})
    for code, row in found.items():
        rows.append({"code": code, "name": cards.get(code, {}).get("name", ""), "share": _pct(row["games"], games),
                     "mean_turn": row["mean_turn"], "earliest": row["earliest"], "playable": True})
    # Every card of the main deck keeps its row (issue 18): one never playable says so instead of vanishing.
    if found or games:
        for code in (job.deck_counts().get("main") or {}):
            if code not in found:
                rows.append({"code": code, "name": cards.get(code, {}).get("name", ""), "share": 0.0,
                             "mean_turn": None, "earliest": None, "playable": False})
    return rows


def histogram_rows(job: PlaytestJob) -> list[dict[str, Any]]:
    summary = job.summary or {}
    games = summary.get("games", 0)
    wins = {int(k): v for k, v in summary.get("win_histogram", {}).items()}
    losses = {int(k): v for k, v in summary.get("loss_histogram", {}).items()}
    cum = {int(k): v for k, v in summary.get("cumulative_win_probability", {}).items()}
    last = max([*wins, *losses, *cum, 0])
    ex = summary.get("examples", {})
    win_ex, loss_ex = ex.get("win", {}), ex.get("loss", {})
    return [{"turn": t, "wins": wins.get(t, 0), "share": _pct(wins.get(t, 0), games), "losses": losses.get(t, 0),
             "cumulative": cum.get(t, cum.get(t - 1) if t > 1 else 0),
             "win_example": win_ex.get(str(t)), "loss_example": loss_ex.get(str(t))} for t in range(1, last + 1)]


def end_reasons(job: PlaytestJob) -> list[dict[str, Any]]:
    """How the games ended: the engine's reason (the stable key), its label and count."""
    reasons = (job.summary or {}).get("reasons") or {}
    return [{"reason": r, "label": reason_label(r), "games": n} for r, n in reasons.items()]


def example_games(job: PlaytestJob) -> list[dict[str, Any]]:
    """One game to replay per (outcome, turn): the earliest and latest win, a loss, a capped game..."""
    ex = (job.summary or {}).get("examples", {})
    out = []
    wins = sorted(((int(t), i) for t, i in ex.get("win", {}).items()))
    if wins:
        out.append({"label": _("fastest win"), "turn": wins[0][0], "index": wins[0][1]})
        if len(wins) > 1:
            out.append({"label": _("slowest win"), "turn": wins[-1][0], "index": wins[-1][1]})
    for outcome, label in (("loss", _("a loss")), ("draw", _("a draw")), ("capped", _("a game that hit the turn cap"))):
        games = sorted(((int(t), i) for t, i in ex.get(outcome, {}).items()))
        if games:
            out.append({"label": label, "turn": games[0][0], "index": games[0][1]})
    return out


def run_stats(job: PlaytestJob) -> RunStats | None:
    return RunStats.from_dict(job.result) if job.result else None


def game_replay(job: PlaytestJob, index: int) -> dict[str, Any]:
    """Re-run game ``index`` from the job's seed with a full event log (nothing is stored)."""
    if not 0 <= index < job.games:
        raise IndexError(f"this job has games 0 to {job.games - 1}")
    deck = deck_from_snapshot(job.game, job.snapshot)
    result, log = play_game(deck, job.seed, index, options=job.options, pilot=job.pilot, log=True)
    events = localize_events(log.as_list()) if log else []
    limit = int(conf.get("PLAYTEST_MAX_LOG_EVENTS"))
    turns: list[dict[str, Any]] = []
    for e in events[:limit]:
        key = (e["turn"], e["player"])
        if not turns or (turns[-1]["turn"], turns[-1]["player"]) != key:
            turns.append({"turn": e["turn"], "player": e["player"], "events": []})
        turns[-1]["events"].append(e)
    return {
        "index": index,
        "seed": job.seed,
        "outcome": result.outcome,
        "outcome_label": outcome_label(result.outcome),
        "turn": result.turn,
        "reason": result.reason,
        "reason_label": reason_label(result.reason),
        "counters": result.counters,
        "events": events[:limit],
        "truncated": len(events) > limit,
        "turns": turns,
        "text": log.as_text() if log else "",
    }
