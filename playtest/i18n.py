"""Goldfish reports and replays in the user's language.

The engines (``rules/engine``) are pure Python and write English; what they give the site is
structured: every logged event has a stable ``code`` (``ws.draw``...) and ``params`` (numbers, card
names, and a few short English terms such as slot names or "first"), end reasons and descriptions
are fixed English sentences marked with ``gettext_noop`` (so ``makemessages`` extracts them), and
counters, ratios and per-turn series have stable names. Here each of them becomes text in the active
language; in English the result is exactly the engine's own text. Codes, params, reasons and
counter names stay as they are in the API — translated ``message``/label fields are added beside them.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from catalog.labels import ATTRIBUTE_LABELS, TRIGGER_LABELS
from rules.engine.core import EVENT_MESSAGES

OUTCOME_LABELS: dict[str, Promise] = {
    "win": gettext_lazy("win"), "loss": gettext_lazy("loss"), "draw": gettext_lazy("draw"),
    "capped": gettext_lazy("capped"),
}

# The kind column of a replay (the engines' short verbs).
KIND_LABELS: dict[str, Promise] = {
    "ability": pgettext_lazy("goldfish event", "ability"),
    "area": pgettext_lazy("goldfish event", "area"),
    "attack": pgettext_lazy("goldfish event", "attack"),
    "attack draw": pgettext_lazy("goldfish event", "attack draw"),
    "battle": pgettext_lazy("goldfish event", "battle"),
    "block": pgettext_lazy("goldfish event", "block"),
    "cancel": pgettext_lazy("goldfish event", "cancel"),
    "climax": pgettext_lazy("goldfish event", "climax"),
    "clock": pgettext_lazy("goldfish event", "clock"),
    "connect": pgettext_lazy("goldfish event", "connect"),
    "convert": pgettext_lazy("goldfish event", "convert"),
    "damage": pgettext_lazy("goldfish event", "damage"),
    "defeat": pgettext_lazy("goldfish event", "defeat"),
    "deploy": pgettext_lazy("goldfish event", "deploy"),
    "discard": pgettext_lazy("goldfish event", "discard"),
    "draw": pgettext_lazy("goldfish event", "draw"),
    "effect": pgettext_lazy("goldfish event", "effect"),
    "encore": pgettext_lazy("goldfish event", "encore"),
    "end": pgettext_lazy("goldfish event", "end"),
    "engage": pgettext_lazy("goldfish event", "engage"),
    "event": pgettext_lazy("goldfish event", "event"),
    "ex": pgettext_lazy("goldfish event", "EX skill"),
    "extra": pgettext_lazy("goldfish event", "EXTRA"),
    "game": pgettext_lazy("goldfish event", "result"),
    "gauge": pgettext_lazy("goldfish event", "gauge"),
    "hand": pgettext_lazy("goldfish event", "hand"),
    "heal": pgettext_lazy("goldfish event", "heal"),
    "item": pgettext_lazy("goldfish event", "item"),
    "leave": pgettext_lazy("goldfish event", "leave"),
    "level up": pgettext_lazy("goldfish event", "level up"),
    "levelup": pgettext_lazy("goldfish event", "level up"),
    "maintain": pgettext_lazy("goldfish event", "maintain"),
    "mill": pgettext_lazy("goldfish event", "mill"),
    "move": pgettext_lazy("goldfish event", "move"),
    "mulligan": pgettext_lazy("goldfish event", "mulligan"),
    "opening hand": pgettext_lazy("goldfish event", "opening hand"),
    "partner": pgettext_lazy("goldfish event", "partner"),
    "pay": pgettext_lazy("goldfish event", "pay"),
    "play": pgettext_lazy("goldfish event", "play"),
    "rebuild": pgettext_lazy("goldfish event", "rebuild"),
    "recover": pgettext_lazy("goldfish event", "recover"),
    "redraw": pgettext_lazy("goldfish event", "redraw"),
    "refresh": pgettext_lazy("goldfish event", "refresh"),
    "result": pgettext_lazy("goldfish event", "result"),
    "retreat": pgettext_lazy("goldfish event", "retreat"),
    "set": pgettext_lazy("goldfish event", "Set card"),
    "return": pgettext_lazy("goldfish event", "return"),
    "search": pgettext_lazy("goldfish event", "search"),
    "setup": pgettext_lazy("goldfish event", "setup"),
    "shift": pgettext_lazy("goldfish event", "shift"),
    "summon": pgettext_lazy("goldfish event", "summon"),
    "support": pgettext_lazy("goldfish event", "support"),
    "tax": pgettext_lazy("goldfish event", "tax"),
    "trigger": pgettext_lazy("goldfish event", "trigger"),
    "turn": pgettext_lazy("goldfish event", "turn"),
    "waiting": pgettext_lazy("goldfish event", "waiting room"),
}

_SLOTS: dict[str, Promise] = {
    "front-left": pgettext_lazy("goldfish slot", "front-left"),
    "front-center": pgettext_lazy("goldfish slot", "front-center"),
    "front-right": pgettext_lazy("goldfish slot", "front-right"),
    "back-left": pgettext_lazy("goldfish slot", "back-left"),
    "back-right": pgettext_lazy("goldfish slot", "back-right"),
    "partner": pgettext_lazy("goldfish slot", "partner"),
}
# WS and PC write their end event's outcome in capitals (English keeps them as written)
_OUTCOMES: dict[str, Promise] = {**OUTCOME_LABELS, "WIN": pgettext_lazy("goldfish outcome", "WIN"),
                                 "LOSS": pgettext_lazy("goldfish outcome", "LOSS")}
_RESULTS: dict[str, Promise] = {
    "downed": pgettext_lazy("goldfish", "downed"), "survives": pgettext_lazy("goldfish", "survives"),
}

# param name -> {English value the engines write: label}; any other value (card names, numbers,
# printed marks such as RANK+1 or AF-L) is shown as it is.
TERMS: dict[str, Mapping[str, Promise]] = {
    "order": {"first": pgettext_lazy("goldfish", "first"), "second": pgettext_lazy("goldfish", "second")},
    "outcome": _OUTCOMES,
    "why": {
        "draw": pgettext_lazy("goldfish", "draw"), "opening hand": pgettext_lazy("goldfish", "opening hand"),
        "mulligan": pgettext_lazy("goldfish", "mulligan"), "clock draw": pgettext_lazy("goldfish", "clock draw"),
        "draw trigger": pgettext_lazy("goldfish", "draw trigger"),
        "DRAW bonus mark": pgettext_lazy("goldfish", "DRAW bonus mark"),
        "redraw": pgettext_lazy("goldfish", "redraw"), "attack draw": pgettext_lazy("goldfish", "attack draw"),
        "replaced": pgettext_lazy("goldfish", "replaced"), "reversed": pgettext_lazy("goldfish", "reversed"),
        "effect": pgettext_lazy("goldfish", "by an effect"), "cost": pgettext_lazy("goldfish", "as a cost"),
        "tax trash not paid": pgettext_lazy("goldfish", "tax trash not paid"),
        "downed": pgettext_lazy("goldfish", "downed"),
        "escape": pgettext_lazy("goldfish", "escape"), "engage": pgettext_lazy("goldfish", "engaged onto"),
        "converted": pgettext_lazy("goldfish", "converted"), "ability": pgettext_lazy("goldfish", "by an ability"),
        "ability cost": pgettext_lazy("goldfish", "as an ability's cost"),
    },
    "to": {"hand": pgettext_lazy("goldfish", "hand"), "deck": pgettext_lazy("goldfish", "the bottom of the deck"),
           "removed": pgettext_lazy("goldfish", "removed from the game"),
           "dust": pgettext_lazy("goldfish", "dust box")},
    "slot": _SLOTS,
    "slot2": _SLOTS,
    "dest": {"hand": pgettext_lazy("goldfish", "hand"), "stock": pgettext_lazy("goldfish", "stock"),
             "memory": pgettext_lazy("goldfish", "memory"), "waiting room": pgettext_lazy("goldfish", "waiting room"),
             "clock": pgettext_lazy("goldfish", "clock"), "deck top": pgettext_lazy("goldfish", "the top of the deck"),
             "deck bottom": pgettext_lazy("goldfish", "the bottom of the deck"),
             "deck": pgettext_lazy("goldfish", "the deck")},
    "what": {"damage": pgettext_lazy("goldfish", "damage"), "shot": pgettext_lazy("goldfish", "shot damage"),
             "burn": pgettext_lazy("goldfish", "ability damage"), "attack": pgettext_lazy("goldfish", "attack"),
             "effect": pgettext_lazy("goldfish", "effect damage")},
    "where": {"front": pgettext_lazy("goldfish", "front line"), "back": pgettext_lazy("goldfish", "back area")},
    "target": {"the dummy ACE": pgettext_lazy("goldfish", "the dummy ACE")},
    "paid": {"nothing": pgettext_lazy("goldfish", "nothing")},
    "attr": ATTRIBUTE_LABELS,
    "attr2": ATTRIBUTE_LABELS,
    "tax": {"tax_trash": pgettext_lazy("goldfish", "tax trash"), "tax_wakeup": pgettext_lazy("goldfish", "tax wakeup")},
    "keyword": {
        "step": pgettext_lazy("lycee keyword", "step"), "sidestep": pgettext_lazy("lycee keyword", "sidestep"),
        "orderstep": pgettext_lazy("lycee keyword", "orderstep"), "jump": pgettext_lazy("lycee keyword", "jump"),
    },
    "when": {
        "play": pgettext_lazy("goldfish", "on play"), "penalty": pgettext_lazy("goldfish", "penalty"),
        "deck_bonus": pgettext_lazy("goldfish", "deck bonus"),
    },
    "result": _RESULTS,
    "result2": _RESULTS,
}
_NO_ICON = pgettext_lazy("goldfish", "no icon")

# Counters, ratios and per-turn series of the reports (stable names from the engines).
STAT_LABELS: dict[str, Promise] = {
    "abilities": pgettext_lazy("goldfish stat", "abilities resolved"),
    "abilities_per_game": pgettext_lazy("goldfish stat", "abilities resolved per game"),
    "activations": pgettext_lazy("goldfish stat", "【起】 abilities used"),
    "areas": pgettext_lazy("goldfish stat", "areas"),
    "attack_draws": pgettext_lazy("goldfish stat", "attack draws"),
    "attack_draws_per_game": pgettext_lazy("goldfish stat", "attack draws per game"),
    "attack_soul": pgettext_lazy("goldfish stat", "attack soul"),
    "attacks": pgettext_lazy("goldfish stat", "attacks"),
    "back_rule": pgettext_lazy("goldfish stat", "back-area deploys (no character meets its cost)"),
    "battles": pgettext_lazy("goldfish stat", "battles"),
    "blocked": pgettext_lazy("goldfish stat", "blocked"),
    "bonus_draw": pgettext_lazy("goldfish stat", "DRAW bonus marks"),
    "bonus_draw_per_game": pgettext_lazy("goldfish stat", "DRAW bonus marks per game"),
    "bonus_life": pgettext_lazy("goldfish stat", "LIFE+1 bonus marks"),
    "bonus_life_per_game": pgettext_lazy("goldfish stat", "LIFE+1 bonus marks per game"),
    "bonus_marks": pgettext_lazy("goldfish stat", "bonus marks"),
    "bonus_marks_per_revealed_card": pgettext_lazy("goldfish stat", "bonus marks per revealed card"),
    "bonus_rank": pgettext_lazy("goldfish stat", "RANK+1 bonus marks"),
    "bonus_rank_per_game": pgettext_lazy("goldfish stat", "RANK+1 bonus marks per game"),
    "brainstorms": pgettext_lazy("goldfish stat", "brainstorms (集中)"),
    "burn_cancels": pgettext_lazy("goldfish stat", "ability damage cancelled"),
    "burn_damage": pgettext_lazy("goldfish stat", "ability damage dealt"),
    "burn_damage_per_game": pgettext_lazy("goldfish stat", "ability damage per game"),
    "burns": pgettext_lazy("goldfish stat", "ability damage events"),
    "cancel_rate": pgettext_lazy("goldfish stat", "cancel rate"),
    "cancel_rate_taken": pgettext_lazy("goldfish stat", "cancel rate of the goldfish's attacks"),
    "cancels": pgettext_lazy("goldfish stat", "cancels"),
    "characters_played": pgettext_lazy("goldfish stat", "characters played"),
    "climaxes_placed": pgettext_lazy("goldfish stat", "climaxes placed"),
    "clocked": pgettext_lazy("goldfish stat", "cards clocked"),
    "connect_attack_share": pgettext_lazy("goldfish stat", "share of connect attacks"),
    "connect_attacks": pgettext_lazy("goldfish stat", "connect attacks"),
    "connect_mark_cards": pgettext_lazy("goldfish stat", "cards put in by connect marks"),
    "connect_mark_fizzled": pgettext_lazy("goldfish stat", "connect marks without a card"),
    "damage": pgettext_lazy("goldfish stat", "damage"),
    "damage_by_ap": pgettext_lazy("goldfish stat", "attacks dealing printed AP (no DMG)"),
    "damage_by_dmg": pgettext_lazy("goldfish stat", "attacks dealing DMG"),
    "damage_dealt": pgettext_lazy("goldfish stat", "damage dealt"),
    "damage_events": pgettext_lazy("goldfish stat", "damage events"),
    "damage_per_attack": pgettext_lazy("goldfish stat", "damage per attack"),
    "damage_per_battle": pgettext_lazy("goldfish stat", "damage per battle"),
    "damage_stopped": pgettext_lazy("goldfish stat", "stopped deck damage"),
    "damage_taken": pgettext_lazy("goldfish stat", "damage taken"),
    "damage_taken_cancels": pgettext_lazy("goldfish stat", "goldfish attacks cancelled"),
    "damage_taken_events": pgettext_lazy("goldfish stat", "damage events taken"),
    "damage_taken_per_battle": pgettext_lazy("goldfish stat", "damage taken per battle"),
    "damage_taken_per_goldfish_attack": pgettext_lazy("goldfish stat", "damage taken per goldfish attack"),
    "deck_damage": pgettext_lazy("goldfish stat", "deck damage"),
    "deck_damage_per_attack": pgettext_lazy("goldfish stat", "deck damage per attack"),
    "defended": pgettext_lazy("goldfish stat", "defended attacks"),
    "deployed": pgettext_lazy("goldfish stat", "deployed"),
    "deploys": pgettext_lazy("goldfish stat", "deploys"),
    "downed_opp": pgettext_lazy("goldfish stat", "dummy characters downed"),
    "downed_own": pgettext_lazy("goldfish stat", "own characters downed"),
    "dummy_partner_levelups_per_game": pgettext_lazy("goldfish stat", "dummy partner level ups per game"),
    "effect_draws": pgettext_lazy("goldfish stat", "cards drawn by effects"),
    "encores": pgettext_lazy("goldfish stat", "encores"),
    "engaged": pgettext_lazy("goldfish stat", "engages"),
    "escapes": pgettext_lazy("goldfish stat", "escapes"),
    "events": pgettext_lazy("goldfish stat", "events"),
    "events_per_game": pgettext_lazy("goldfish stat", "events played per game"),
    "events_played": pgettext_lazy("goldfish stat", "events played"),
    "ex_skill_used": pgettext_lazy("goldfish stat", "EX skills used"),
    "extra_levelups": pgettext_lazy("goldfish stat", "EXTRA level ups"),
    "extras": pgettext_lazy("goldfish stat", "EXTRA cards played"),
    "first_games": pgettext_lazy("goldfish stat", "games going first"),
    "first_win_turns": pgettext_lazy("goldfish stat", "win turns going first (sum)"),
    "first_wins": pgettext_lazy("goldfish stat", "wins going first"),
    "games": pgettext_lazy("goldfish stat", "games"),
    "gauge_consumed": pgettext_lazy("goldfish stat", "gauge cards consumed"),
    "gauge_facedown_revealed": pgettext_lazy("goldfish stat", "face-down gauge cards revealed"),
    "goldfish_refreshes_per_game": pgettext_lazy("goldfish stat", "goldfish refreshes per game"),
    "healed": pgettext_lazy("goldfish stat", "clock cards healed"),
    "items": pgettext_lazy("goldfish stat", "items"),
    "level_ups": pgettext_lazy("goldfish stat", "level ups"),
    "life_per_attack": pgettext_lazy("goldfish stat", "life per attack"),
    "life_taken": pgettext_lazy("goldfish stat", "life taken"),
    "maintain_paid": pgettext_lazy("goldfish stat", "maintain paid"),
    "maintain_skipped": pgettext_lazy("goldfish stat", "maintain skipped"),
    "mana_used": pgettext_lazy("goldfish stat", "mana abilities used for payments"),
    "mean_win_turn_going_first": pgettext_lazy("goldfish stat", "mean win turn going first"),
    "mean_win_turn_going_second": pgettext_lazy("goldfish stat", "mean win turn going second"),
    "milled": pgettext_lazy("goldfish stat", "cards milled"),
    "milled_per_attack": pgettext_lazy("goldfish stat", "cards milled per attack"),
    "moves": pgettext_lazy("goldfish stat", "moves"),
    "mulligan_cards": pgettext_lazy("goldfish stat", "cards mulliganed"),
    "mulligans": pgettext_lazy("goldfish stat", "mulligans"),
    "opp_attacks": pgettext_lazy("goldfish stat", "goldfish attacks"),
    "opp_partner_levelups": pgettext_lazy("goldfish stat", "dummy partner level ups"),
    "opp_refresh_damage": pgettext_lazy("goldfish stat", "goldfish refresh damage"),
    "opp_refreshes": pgettext_lazy("goldfish stat", "goldfish refreshes"),
    "own_defeated": pgettext_lazy("goldfish stat", "own characters defeated"),
    "own_defeated_per_game": pgettext_lazy("goldfish stat", "own characters defeated per game"),
    "partner_level": pgettext_lazy("goldfish stat", "partner level"),
    "partner_levelups": pgettext_lazy("goldfish stat", "partner level ups"),
    "partner_levelups_per_game": pgettext_lazy("goldfish stat", "partner level ups per game"),
    "rebuilds": pgettext_lazy("goldfish stat", "deck rebuilds"),
    "rebuilds_per_game": pgettext_lazy("goldfish stat", "deck rebuilds per game"),
    "recovered": pgettext_lazy("goldfish stat", "cards recovered to the deck"),
    "redraws": pgettext_lazy("goldfish stat", "redraws"),
    "refresh_damage": pgettext_lazy("goldfish stat", "refresh damage"),
    "refreshes": pgettext_lazy("goldfish stat", "refreshes"),
    "refreshes_per_game": pgettext_lazy("goldfish stat", "refreshes per game"),
    "returns": pgettext_lazy("goldfish stat", "returns to the front line"),
    "scenes_played": pgettext_lazy("goldfish stat", "scenes played"),
    "searched": pgettext_lazy("goldfish stat", "cards searched"),
    "second_games": pgettext_lazy("goldfish stat", "games going second"),
    "second_win_turns": pgettext_lazy("goldfish stat", "win turns going second (sum)"),
    "second_wins": pgettext_lazy("goldfish stat", "wins going second"),
    "sets_equipped": pgettext_lazy("goldfish stat", "Set cards equipped"),
    "sets_per_game": pgettext_lazy("goldfish stat", "Set cards equipped per game"),
    "shifts": pgettext_lazy("goldfish stat", "shifts (シフト)"),
    "shot_damage": pgettext_lazy("goldfish stat", "shot damage"),
    "shots": pgettext_lazy("goldfish stat", "shot triggers resolved"),
    "soul_per_attack": pgettext_lazy("goldfish stat", "soul per attack"),
    "stopped_attacks_share": pgettext_lazy("goldfish stat", "share of attacks stopped"),
    "summons": pgettext_lazy("goldfish stat", "summons"),
    "supports": pgettext_lazy("goldfish stat", "supports"),
    "taxes_paid": pgettext_lazy("goldfish stat", "taxes paid"),
    "trigger_choice": pgettext_lazy("goldfish stat", "choice triggers"),
    "trigger_comeback": pgettext_lazy("goldfish stat", "comeback triggers"),
    "trigger_draw": pgettext_lazy("goldfish stat", "draw triggers"),
    "trigger_gate": pgettext_lazy("goldfish stat", "gate triggers"),
    "trigger_pool": pgettext_lazy("goldfish stat", "pool triggers"),
    "trigger_return": pgettext_lazy("goldfish stat", "return triggers"),
    "trigger_shot": pgettext_lazy("goldfish stat", "shot triggers"),
    "trigger_soul": pgettext_lazy("goldfish stat", "soul triggers"),
    "trigger_standby": pgettext_lazy("goldfish stat", "standby triggers"),
    "trigger_treasure": pgettext_lazy("goldfish stat", "treasure triggers"),
    "wasted_mana": pgettext_lazy("goldfish stat", "wasted EX"),
    "wasted_mana_per_game": pgettext_lazy("goldfish stat", "wasted EX per game"),
    "went_first": pgettext_lazy("goldfish stat", "games going first"),
    "win_rate_going_first": pgettext_lazy("goldfish stat", "win rate going first"),
    "win_rate_going_second": pgettext_lazy("goldfish stat", "win rate going second"),
}


def term(name: str, value: Any) -> Any:
    """A param's value for display: a known English term in the active language, else unchanged."""
    if not isinstance(value, str):
        return value
    if name == "icons":  # WS trigger icons joined with "+", or "no icon"
        if value == "no icon":
            return str(_NO_ICON)
        return "+".join(str(TRIGGER_LABELS.get(v, v)) for v in value.split("+"))
    if name == "reason":
        return reason_label(value)
    label = TERMS.get(name, {}).get(value)
    return value if label is None else str(label)


def render_message(code: str, params: Mapping[str, Any]) -> str:
    """Event (or submessage) ``code`` in the active language; raises KeyError/ValueError when broken."""
    template = gettext(EVENT_MESSAGES[code])
    return template.format(**{k: _param(k, v) for k, v in params.items()})


def _param(name: str, value: Any) -> Any:
    if isinstance(value, dict):  # a submessage
        return render_message(value["code"], value["params"])
    if isinstance(value, list):  # a list of submessages
        return pgettext("list separator", ", ").join(str(_param(name, v)) for v in value)
    return term(name, value)


def event_message(event: Mapping[str, Any]) -> str:
    """One replay event (``EventLog.as_list`` item) in the active language; its English ``text``
    when the code is unknown (older logs) or a translation is broken."""
    try:
        return render_message(str(event.get("code", "")), event.get("params") or {})
    except (KeyError, IndexError, ValueError, TypeError):
        return str(event.get("text", ""))


def kind_label(kind: str) -> str:
    label = KIND_LABELS.get(kind)
    return kind if label is None else str(label)


def reason_label(reason: str) -> str:
    """An engine's end reason (a fixed English sentence, also the key of ``summary.reasons``)."""
    return gettext(reason) if reason else ""


def outcome_label(outcome: str) -> str:
    label = OUTCOME_LABELS.get(outcome)
    return outcome if label is None else str(label)


def stat_label(name: str) -> str:
    """A counter, ratio or per-turn series name; unknown names as words (``a_b`` -> ``a b``)."""
    label = STAT_LABELS.get(name)
    return name.replace("_", " ") if label is None else str(label)


def description(text: str) -> str:
    """An engine's description of an option or report figure (English, marked with gettext_noop)."""
    return gettext(text) if text else ""


def localize_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the events with ``message`` (the text) and ``kind_label`` in the active language."""
    return [{**e, "message": event_message(e), "kind_label": kind_label(str(e.get("kind", "")))} for e in events]


STATUS_LABELS: dict[str, Promise] = {
    "queued": pgettext_lazy("playtest status", "queued"), "running": pgettext_lazy("playtest status", "running"),
    "done": pgettext_lazy("playtest status", "done"), "failed": pgettext_lazy("playtest status", "failed"),
    "cancelled": pgettext_lazy("playtest status", "cancelled"),
}


def status_label(status: str) -> str:
    label = STATUS_LABELS.get(status)
    return status if label is None else str(label)


_JOB_ERRORS: tuple[tuple[re.Pattern[str], Promise], ...] = (
    (re.compile(r"^cancelled by its owner$"), gettext_lazy("cancelled by its owner")),
    (re.compile(r"^no progress for over (?P<n>\d+) seconds: the worker running it was probably lost\. "
                r"Start the job again\.$"),
     gettext_lazy("no progress for over %(n)s seconds: the worker running it was probably lost. Start the job again.")),
    (re.compile(r"^not started within (?P<n>\d+) seconds: no worker picked it up\. Start the job again\.$"),
     gettext_lazy("not started within %(n)s seconds: no worker picked it up. Start the job again.")),
    (re.compile(r"^the job queue \(Celery broker\) could not be reached(?P<rest>: .*)$", re.S),
     gettext_lazy("the job queue (Celery broker) could not be reached%(rest)s")),
    (re.compile(r"^the engine failed on games (?P<a>\d+)-(?P<b>\d+)(?P<rest>: .*)$", re.S),
     gettext_lazy("the engine failed on games %(a)s-%(b)s%(rest)s")),
    (re.compile(r"^chunks (?P<chunks>[\d, ]+) were lost (?P<n>\d+) times \(a worker stopped or the queue was "
                r"emptied, e\.g\. Redis restarted without its data\)\. Start the job again\.$"),
     gettext_lazy("chunks %(chunks)s were lost %(n)s times (a worker stopped or the queue was emptied, e.g. "
                  "Redis restarted without its data). Start the job again.")),
)


def note_message(note: Mapping[str, Any]) -> str:
    """One of a job's ``notes`` (``runner.playtest_recover_stale``) as a sentence in the active language."""
    params = note.get("params") or {}
    chunks = ", ".join(str(c) for c in params.get("chunks") or [])
    if note.get("code") == "requeued":
        return gettext("%(at)s: no chunk started or finished for %(seconds)s seconds; chunks %(chunks)s had been "
                       "lost (a worker stopped or the queue was emptied) and were queued again (attempt "
                       "%(attempt)s).") % {"at": note.get("at", ""), "seconds": params.get("seconds", "?"),
                                            "chunks": chunks, "attempt": params.get("attempt", 1)}
    return gettext("%(at)s: the job was stopped (%(code)s).") % {"at": note.get("at", ""), "code": note.get("code", "")}


def job_error(error: str) -> str:
    """A failed or cancelled job's stored English error, translated when the site wrote it (the
    exception text inside stays as it is)."""
    for rx, template in _JOB_ERRORS:
        m = rx.match(error or "")
        if m:
            return str(template) % m.groupdict()
    return error


def localize_comparison(cmp: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``playtest.stats.compare_results(...)`` whose verdicts and "not available" reasons
    are in the active language (``verdict_codes`` and the tests' fields unchanged)."""
    from .stats import VERDICTS

    out = dict(cmp)
    out["verdicts"] = [gettext(VERDICTS[c["code"]]) % c["params"] for c in cmp.get("verdict_codes", ())]
    for key in ("win_rate", "turn_of_win_welch", "turn_of_win_mann_whitney"):
        test = cmp.get(key)
        if isinstance(test, Mapping) and test.get("reason"):
            out[key] = {**test, "reason": gettext(test["reason"])}
    return out
