"""A data audit of the catalog: suspicious card records, by kind (``manage.py audit_cards``).

Each kind is one check over every card of a game; a finding names the card code, the field and what
looks wrong. The kinds the importers fix (names with English or the card number glued on, printing
markers in names, names cut short in one source, climax bonuses that disagree with their text,
basic abilities lost to unbalanced brackets...) are zero on the real data after an import; the
others list what a curator has to look at (trigger icons a climax's own reminder text contradicts,
traits outside the trait table). A kind that cannot run yet says why (``available``).

Read-only: the audit writes nothing.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist

from rules import games as g
from rules.ws.identity import PRINTING_MARKER

from .importers import normalize as n
from .importers.merge import repair_names
from .importers.ws_hotc import split_name
from .importers.ws_jsonl import load_trait_names
from .models import Card

# The fields the checks read (one query per game).
FIELDS = ("code", "name", "card_type", "number", "set_code", "level", "cost", "power", "soul", "colors",
          "triggers", "traits", "text", "effects", "keywords", "translations")

# The trait table of a game, relative to SHARED_DIR (the source's own table, read where it lies).
TRAIT_TABLES: dict[str, tuple[str, ...]] = {
    g.WS: ("carddata", "weiss_schwarz", "alphac2_jp", "traits_en_jp.csv"),
}


@dataclass(frozen=True)
class Finding:
    kind: str
    code: str
    field: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}


@dataclass
class Context:
    """What a check sees: the game, its cards (dicts of ``FIELDS``) and the options."""

    game: str
    cards: list[dict[str, Any]]
    trait_table: Path | None = None
    _traits: set[str] | None = field(default=None, repr=False)

    def traits(self) -> set[str] | None:
        if self._traits is None and self.trait_table is not None and self.trait_table.is_file():
            self._traits = set(load_trait_names(self.trait_table).values())
        return self._traits


@dataclass(frozen=True)
class Kind:
    name: str
    description: str
    games: frozenset[str]  # empty: every game
    check: Callable[[Context], Iterator[Finding]]
    # why the kind cannot run for this context, or None when it can
    unavailable: Callable[[Context], str | None] = lambda ctx: None


KINDS: dict[str, Kind] = {}


def kind(name: str, description: str, games: Iterable[str] = (),
         unavailable: Callable[[Context], str | None] | None = None) -> Callable:
    def register(check: Callable[[Context], Iterator[Finding]]) -> Callable[[Context], Iterator[Finding]]:
        KINDS[name] = Kind(name, description, frozenset(games), check, unavailable or (lambda ctx: None))
        return check
    return register


# -- names --------------------------------------------------------------------------------------

@kind("name_script_mix", "a Japanese name with a name in Latin letters glued on (the English name)", [g.WS])
def _script_mix(ctx: Context) -> Iterator[Finding]:
    # A one-word Latin end is glued English only on a card of a bilingual source (it has an English
    # part): a Japanese-only source prints such names as they are (``“私たち、輝きたい!”Aqours``).
    for c in ctx.cards:
        name = c["name"]
        if not any(ord(ch) > 0x2FFF for ch in name):
            continue
        jp, en = split_name(name)
        if en and jp != en and (c["translations"] or " " in en):
            yield Finding("name_script_mix", c["code"], "name", f"{name!r} reads as {jp!r} + {en!r}")


_GLUED_NUMBER = re.compile(r"(?<=[^\d\s(])(?:[A-Z]\d{2,3}|\d{3})$")


@kind("name_number", "the card number glued on the name (PT/W07-096 as '44オートマグ096')", [g.WS])
def _name_number(ctx: Context) -> Iterator[Finding]:
    own: dict[str, int] = Counter()
    glued: list[tuple[dict[str, Any], str]] = []
    for c in ctx.cards:
        number, name = c["number"] or "", c["name"]
        if len(number) >= 2 and name.endswith(number) and len(name) > len(number) and not name[-len(number) - 1].isdigit():
            own[c["set_code"]] += 1
            glued.append((c, number))
        elif m := _GLUED_NUMBER.search(name):
            glued.append((c, m.group(0)))
    for c, number in glued:
        # another number than the card's own counts where the set glues numbers on names
        if number == c["number"] or own[c["set_code"]] >= 2:
            yield Finding("name_number", c["code"], "name", f"{c['name']!r} ends with the number {number!r}")


@kind("name_marker", "a printing marker such as (ホロ) or (エラッタ前) in the name (it belongs on the printing)", [g.WS])
def _name_marker(ctx: Context) -> Iterator[Finding]:
    for c in ctx.cards:
        m = PRINTING_MARKER.search(c["name"])
        if m and m.start() > 0:
            yield Finding("name_marker", c["code"], "name", f"{c['name']!r} carries the marker {m['marker']!r}")


@kind("name_printings_differ",
      "printings of one card (same text and stats) whose names differ: cut short or spaced differently", [g.WS])
def _printings_differ(ctx: Context) -> Iterator[Finding]:
    for r in repair_names(ctx.cards):
        yield Finding("name_printings_differ", r.code, "name", r.message)


# -- Weiß Schwarz climaxes and traits -----------------------------------------------------------

@kind("trigger_reminder", "climax trigger icons that contradict the climax's own reminder text", [g.WS])
def _trigger_reminder(ctx: Context) -> Iterator[Finding]:
    for c in ctx.cards:
        icon = n.ws_reminder_conflict(c["card_type"], list(c["triggers"] or []), c["text"] or "")
        if icon:
            yield Finding("trigger_reminder", c["code"], "triggers",
                          f"icons {c['triggers']} but the reminder text describes {icon!r}")


_BONUS_POWER = re.compile(r"パワーを\+(\d+)")
_BONUS_SOUL = re.compile(r"ソウルを\+(\d+)")


@kind("climax_bonus", "a climax whose structured +power/+soul bonus disagrees with its text", [g.WS])
def _climax_bonus(ctx: Context) -> Iterator[Finding]:
    for c in ctx.cards:
        if c["card_type"] != "climax":
            continue
        text = n.nfkc(c["text"] or "")
        first = text.split("。")[0].split("(")[0]
        bonus = [e for e in c["effects"] or [] if isinstance(e, dict) and e.get("kind") == "climax_bonus"]
        if not re.match(r"^【永】\s*あなたのキャラすべてに、", text):
            if bonus:
                yield Finding("climax_bonus", c["code"], "effects", f"a climax bonus {bonus[0]} but the text gives none")
            continue
        power = int(m.group(1)) if (m := _BONUS_POWER.search(first)) else 0
        soul = int(m.group(1)) if (m := _BONUS_SOUL.search(first)) else 0
        if not (power or soul):
            continue
        got = (bonus[0].get("power", 0), bonus[0].get("soul", 0)) if bonus else None
        if got != (power, soul):
            yield Finding("climax_bonus", c["code"], "effects",
                          f"text gives +{power} power, +{soul} soul; stored {got if got else 'no bonus'}")


def _no_trait_table(ctx: Context) -> str | None:
    if ctx.traits() is None:
        where = ctx.trait_table or "(none for this game)"
        return f"no trait table at {where}; pass --trait-table FILE"
    return None


@kind("trait_unknown", "traits outside the game's trait table", [g.WS], unavailable=_no_trait_table)
def _trait_unknown(ctx: Context) -> Iterator[Finding]:
    table = ctx.traits() or set()
    for c in ctx.cards:
        for trait in c["traits"] or []:
            if trait not in table:
                yield Finding("trait_unknown", c["code"], "traits", f"trait {trait!r} is not in the trait table")


@kind("text_only_translated", "a card with a translated text but no printed text", [g.WS])
def _text_only_translated(ctx: Context) -> Iterator[Finding]:
    for c in ctx.cards:
        other = [lang for lang, t in (c["translations"] or {}).items() if isinstance(t, dict) and t.get("text")]
        if other and not (c["text"] or "").strip():
            yield Finding("text_only_translated", c["code"], "text", f"no printed text; a text in {', '.join(other)}")


# -- Lycee --------------------------------------------------------------------------------------

@kind("lycee_basic_unread", "Lycee basic abilities printed on the first text line but not read", [g.LYCEE])
def _lycee_basic_unread(ctx: Context) -> Iterator[Finding]:
    for c in ctx.cards:
        if c["card_type"] != "character" or not c["text"]:
            continue
        first = n.nfkc(c["text"]).split("\n")[0]
        tokens = n._split_tokens(first) or n._repair_tokens(first) or []
        printed = {n.LYCEE_KEYWORD_NAMES[t.partition(":")[0].strip()] for t in tokens
                   if t.partition(":")[0].strip() in n.LYCEE_KEYWORD_NAMES}
        have = {k if isinstance(k, str) else k.get("name") for k in c["keywords"] or []}
        missing = sorted(printed - have)
        if missing:
            yield Finding("lycee_basic_unread", c["code"], "keywords",
                          f"{first[:60]!r} prints {', '.join(missing)}; keywords are {sorted(map(str, have))}")


# -- abilities ----------------------------------------------------------------------------------

def _abilities_field() -> str | None:
    try:
        Card._meta.get_field("abilities")
    except FieldDoesNotExist:
        return "not available yet: cards carry no compiled abilities (Card has no 'abilities' field)"
    return None


@kind("text_no_abilities", "a card with text but no compiled abilities", unavailable=lambda ctx: _abilities_field())
def _text_no_abilities(ctx: Context) -> Iterator[Finding]:
    codes = [c["code"] for c in ctx.cards if (c["text"] or "").strip()]
    compiled = set(Card.objects.filter(game=ctx.game, code__in=codes).exclude(abilities__in=([], None, {}))
                   .values_list("code", flat=True)) if codes else set()
    for code in codes:
        if code not in compiled:
            yield Finding("text_no_abilities", code, "abilities", "text but no compiled abilities")


# -- running ------------------------------------------------------------------------------------

@dataclass
class KindResult:
    kind: Kind
    available: bool
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)

    def as_dict(self, limit: int | None = None) -> dict[str, Any]:
        shown = self.findings if limit is None else self.findings[:limit]
        return {"description": self.kind.description, "available": self.available, "reason": self.reason,
                "count": len(self.findings), "findings": [f.as_dict() for f in shown]}


@dataclass
class AuditReport:
    game: str
    cards: int
    results: dict[str, KindResult]

    @property
    def total(self) -> int:
        return sum(len(r.findings) for r in self.results.values())

    def counts(self) -> dict[str, int | None]:
        return {name: (len(r.findings) if r.available else None) for name, r in self.results.items()}

    def as_dict(self, limit: int | None = None) -> dict[str, Any]:
        return {"game": self.game, "cards": self.cards, "total": self.total,
                "kinds": {name: r.as_dict(limit) for name, r in self.results.items()}}


def default_trait_table(game: str) -> Path | None:
    parts = TRAIT_TABLES.get(game)
    return Path(settings.SHARED_DIR).joinpath(*parts) if parts else None


def kinds_for(game: str) -> list[Kind]:
    return [k for k in KINDS.values() if not k.games or game in k.games]


def audit_cards(*, game: str, kinds: Iterable[str] | None = None, trait_table: Path | None = None) -> AuditReport:
    """Run the audit kinds of ``game`` (all of them, or ``kinds``) over its cards."""
    if game not in g.GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
    chosen = kinds_for(game)
    if kinds is not None:
        wanted = list(kinds)
        unknown = sorted(set(wanted) - {k.name for k in chosen})
        if unknown:
            raise ValueError(f"no audit kind {', '.join(unknown)} for {game}; kinds: {', '.join(k.name for k in chosen)}")
        chosen = [k for k in chosen if k.name in wanted]
    cards = [dict(zip(FIELDS, row, strict=True)) for row in Card.objects.filter(game=game).order_by("code").values_list(*FIELDS)]
    ctx = Context(game, cards, trait_table if trait_table is not None else default_trait_table(game))
    results: dict[str, KindResult] = {}
    for k in chosen:
        reason = k.unavailable(ctx)
        if reason:
            results[k.name] = KindResult(k, False, reason)
            continue
        findings = sorted(k.check(ctx), key=lambda f: (f.code, f.field, f.message))
        results[k.name] = KindResult(k, True, "", findings)
    return AuditReport(game, len(cards), results)

