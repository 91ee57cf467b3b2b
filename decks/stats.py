"""Deck statistics for the deck page: curves, color/attribute split, types and per-game extras,
plus exact draw odds (``rules.odds``). Pure functions over ``CardRecord``s and counts."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from catalog.labels import color_label, trigger_label, type_label
from rules import games as g
from rules.cards import CardRecord
from rules.odds import cards_seen, p_at_least

from .charts import bar_chart


def _main(zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord], game: str):
    for code, n in (zones.get("main") or {}).items():
        rec = cards.get(code)
        if rec is not None and rec.game == game:
            yield rec, n


def stat_line(card: Any) -> str:
    """The stats a player reads first, per game, as one short line (Card or CardRecord)."""
    if card is None:
        return ""
    parts: list[str] = []

    def add(fmt: str, value: Any) -> None:
        if value not in (None, "", [], ()):
            parts.append(fmt.format(value))

    game = card.game
    if game == g.WS:
        if card.card_type != "climax":
            add(_("Lv {}"), card.level)
            add(_("Cost {}"), card.cost)
        add(_("{} power"), card.power)
        add(_("Soul {}"), card.soul)
        add(_("trigger {}"), "/".join(trigger_label(t) for t in card.triggers or ()))
    elif game == g.PC:
        add(_("Cost {}"), card.cost)
        add("CP {}", card.cp)
        add(_("RANK {}"), card.rank)
        add("{}", card.bonus_mark)
    elif game == g.PHANTASMA:
        add(_("Cost {}"), card.cost)
        add("MHP {}", card.mhp)
        if card.mhp is not None:
            parts.append(" ".join(str(getattr(card, a)) if getattr(card, a) is not None else "–"
                                  for a in g.PHANTASMA_ATTRIBUTES))
        if card.attack_attribute:
            parts.append(f"{color_label(card.attack_attribute)} → {color_label(card.defense_attribute or '')}")
        add(_("EX condition {}"), card.ex_condition)
    elif game == g.CHAOS:
        add("ATK {}", card.atk)
        add("DEF {}", card.defense)
        if card.partner_atk is not None or card.partner_def is not None:
            parts.append(_("partner +{}/+{}").format(card.partner_atk or 0, card.partner_def or 0))
        add("{}", card.timing)
    elif game == g.LYCEE:
        add("EX {}", card.ex)
        add(_("Cost {}"), card.cost)
        add("AP {}", card.ap)
        add("DP {}", card.dp)
        add("SP {}", card.sp)
    colors = [*(card.colors or ()), *(card.attributes or ())]
    if colors:
        parts.insert(0, "/".join(color_label(c) for c in colors))
    return " · ".join(parts)


def deck_charts(game: str, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord]) -> list[dict[str, Any]]:
    """``[{"key", "title", "svg"}]`` for the deck page."""
    main = list(_main(zones, cards, game))
    charts: list[dict[str, Any]] = []

    def add(key: str, title: str, counter: Mapping[Any, float], order: list | tuple | None = None, **kw: Any) -> None:
        keys = list(order) if order is not None else sorted(counter, key=lambda k: (str(type(k)), k))
        bars = [(str(k), counter.get(k, 0)) for k in keys]
        if any(v for _, v in bars):
            charts.append({"key": key, "title": title, "svg": bar_chart(title, bars, **kw)})

    # curve
    if game == g.WS:
        lv = Counter()
        for rec, n in main:
            lv["CX" if rec.card_type == "climax" else f"L{rec.level}"] += n
        add("curve", _("Level curve"), lv, ["L0", "L1", "L2", "L3", "CX"])
        cost = Counter()
        for rec, n in main:
            if rec.cost is not None:
                cost[rec.cost] += n
        add("cost", _("Cost curve"), cost, list(range(0, max(cost, default=0) + 1)))
    elif game != g.CHAOS:
        cost = Counter()
        for rec, n in main:
            if rec.cost is not None:
                cost[rec.cost] += n
        add("curve", _("Cost curve"), cost, list(range(0, max(cost, default=0) + 1)))
    # colors / attributes
    split = Counter()
    if game in g.COLORS:
        for rec, n in main:
            for c in rec.colors or ("none",):
                split[c] += n
        add("colors", _("Color split"), split, [*g.COLORS[game], *(["none"] if split.get("none") else [])], colored=True,
            label_of=color_label)
    else:
        for rec, n in main:
            for a in rec.attributes or ("none",):
                split[a] += n
        attrs = list(g.ATTRIBUTES[game])
        add("attributes", _("Attribute split"), split, attrs + [a for a in split if a not in attrs], colored=True,
            label_of=color_label)
    # types
    types = Counter()
    for rec, n in main:
        types[rec.card_type] += n
    add("types", _("Card types"), types, list(g.CARD_TYPES[game]), label_of=type_label)

    # per game extras
    if game == g.WS:
        trig = Counter()
        for rec, n in main:
            for t in rec.triggers:
                trig[t] += n
        add("triggers", _("Trigger icons"), trig, [t for t in g.WS_TRIGGERS if trig.get(t)], unit=_("icons"),
            label_of=trigger_label)
    elif game == g.PC:
        marks = Counter()
        for rec, n in main:
            marks[rec.bonus_mark or "none"] += n
        add("bonus", _("Bonus marks"), marks, ["RANK+1", "LIFE+1", "DRAW", "none"],
            label_of=lambda k: pgettext("bonus mark", "none") if k == "none" else k)
    elif game == g.LYCEE:
        ex = Counter()
        for rec, n in main:
            for a in rec.attributes or ("star",):
                ex[a] += (rec.ex or 0) * n
        add("ex", _("EX total per attribute"), ex, list(g.LYCEE_ATTRIBUTES), unit="EX", colored=True,
            label_of=color_label)
    elif game == g.PHANTASMA:
        spread = Counter()
        chars = 0
        for rec, n in main:
            if rec.card_type == "character":
                chars += n
                for a in g.PHANTASMA_ATTRIBUTES:
                    spread[a] += (getattr(rec, a) or 0) * n
        if chars:
            avg = {a: round(spread[a] / chars) for a in g.PHANTASMA_ATTRIBUTES}
            add("spread", _("Average ability value per attribute (characters)"), avg, list(g.PHANTASMA_ATTRIBUTES),
                unit=_("points"), colored=True, label_of=color_label)
    elif game == g.CHAOS:
        atk, dfn = Counter(), Counter()
        for rec, n in main:
            if rec.card_type == "character":
                atk[rec.atk or 0] += n
                dfn[rec.defense or 0] += n
        top = max([*atk, *dfn], default=0)
        add("atk", _("ATK spread (characters)"), atk, list(range(0, top + 1)))
        add("def", _("DEF spread (characters)"), dfn, list(range(0, top + 1)))
    return charts


def odds_groups(game: str, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord]) -> list[dict[str, Any]]:
    """Choices for the odds panel: every main-deck card, every type, color/attribute and (WS) trigger.
    Each is ``{"key", "label", "copies", "codes"}``."""
    main = list(_main(zones, cards, game))
    groups: dict[str, dict[str, Any]] = {}

    def put(key: str, label: str, code: str, n: int) -> None:
        grp = groups.setdefault(key, {"key": key, "label": label, "copies": 0, "codes": set()})
        grp["copies"] += n
        grp["codes"].add(code)

    for rec, n in main:
        put(f"type:{rec.card_type}", _("any %(type)s") % {"type": type_label(rec.card_type)}, rec.code, n)
        for c in rec.colors:
            put(f"color:{c}", _("any %(color)s card") % {"color": color_label(c)}, rec.code, n)
        for a in rec.attributes:
            put(f"attr:{a}", _("any %(color)s card") % {"color": color_label(a)}, rec.code, n)
        for t in set(rec.triggers):
            put(f"trigger:{t}", _("any card with a %(trigger)s trigger") % {"trigger": trigger_label(t)}, rec.code, n)
    cards_list = [{"key": f"card:{rec.code}", "label": f"{rec.name} ({rec.code})", "copies": n, "codes": {rec.code}}
                  for rec, n in sorted(main, key=lambda x: x[0].name)]
    return cards_list + sorted(groups.values(), key=lambda x: x["key"])


def odds_selection(groups: list[dict[str, Any]], keys: list[str], zones: Mapping[str, Mapping[str, int]]
                   ) -> dict[str, Any] | None:
    """The union of the chosen groups (a card counted once even if two chosen groups hold it)."""
    chosen = [grp for grp in groups if grp["key"] in set(keys)]
    if not chosen:
        return None
    codes = set().union(*(grp["codes"] for grp in chosen))
    main = zones.get("main") or {}
    return {"keys": [grp["key"] for grp in chosen], "label": _(" or ").join(grp["label"] for grp in chosen),
            "copies": sum(main.get(c, 0) for c in codes)}


def odds_table(game: str, deck_size: int, copies: int, turns: int = 5, at_least: int = 1) -> list[dict[str, Any]]:
    """P(at least ``at_least`` of ``copies``) in the opening hand (turn 0) and by own turns 1..``turns``,
    going first and going second, with each game's hand size and draws (WS counts the clock's 2 draws)."""
    rows: list[dict[str, Any]] = []
    for turn in range(0, turns + 1):
        first = cards_seen(game, turn, first_player=True)
        second = cards_seen(game, turn, first_player=False)
        rows.append({
            "turn": turn,
            "seen_first": min(first, deck_size), "seen_second": min(second, deck_size),
            "first": p_at_least(deck_size, copies, first, at_least) if deck_size else 0.0,
            "second": p_at_least(deck_size, copies, second, at_least) if deck_size else 0.0,
        })
        rows[-1]["first_pct"] = _pct(rows[-1]["first"])
        rows[-1]["second_pct"] = _pct(rows[-1]["second"])
    return rows


def _pct(p: float) -> str:
    if p >= 1.0:
        return "100%"
    if p > 0.999:
        return ">99.9%"
    if 0 < p < 0.001:
        return "<0.1%"
    return f"{p * 100:.1f}%"
