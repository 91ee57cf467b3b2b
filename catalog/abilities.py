"""Compiled abilities in the catalog: ``Card``'s derived columns and the ``compile_abilities`` run.

Three columns follow a card's printed text (``catalog.models.DERIVED_FIELDS``):

- ``abilities``: the text compiled by the game's compiler (``GameSpec.compile_text``; ``[]`` for a
  game without one or a vanilla card), as ``rules.abilities`` JSON;
- ``effect_kinds``: every kind the compiled abilities use (triggers, conditions, costs, effects,
  those of granted abilities too) and the kinds of the card's structured ``effects``; mirrored into
  ``CardFacet`` rows (facet ``effect_kinds``), so the search's ``effect:burn`` is an indexed lookup;
- ``modelled``: the game's goldfish engine fully models the card (``rules.coverage``: the engine
  plays it and every ability is played or has no effect in a goldfish game), for ``modelled:``.

They are written at import (``catalog.services``: each distinct text compiled once, the compilers
memoise), on ``Card.save()`` and by ``manage.py compile_abilities`` (``catalog_compile``), which
recompiles a whole game idempotently — run it after a compiler or engine change.
"""
from __future__ import annotations

import importlib
import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from rules import games as g
from rules.abilities import (
    COVERAGE_STATUSES,
    NOT_UNDERSTOOD,
    Ability,
    abilities_to_json,
    is_vanilla_text,
)
from rules.cards import CARD_FIELDS, CardRecord
from rules.coverage import CardCoverage, card_coverage, coverage_engine
from rules.registry import get_spec

if TYPE_CHECKING:
    from .models import Card

EFFECT_FACET = "effect_kinds"


def _engine(game: str) -> Any:
    # looked up each time (a dict lookup): tests and tools may register another engine for a game
    return coverage_engine(game)


def _nested_kinds(value: Any, out: set[str]) -> None:
    """Kinds of the abilities granted inside an effect's params (``grant_ability``: whole abilities)."""
    if isinstance(value, Mapping):
        if "text" in value and "kind" in value:  # an ability's JSON
            ability_kinds(Ability.from_dict(value), out)
            return
        for v in value.values():
            _nested_kinds(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _nested_kinds(v, out)


def ability_kinds(ability: Ability, out: set[str] | None = None) -> set[str]:
    """Every kind ``ability`` uses (``Ability.effect_kinds``) and those of the abilities it grants."""
    out = set() if out is None else out
    out |= ability.effect_kinds()
    for effect in (*ability.conditions, *ability.cost, *ability.effects):
        if effect.params:
            _nested_kinds(effect.params, out)
    return out


@dataclass(frozen=True, slots=True)
class Compiled:
    """One text compiled: its abilities, their JSON and every kind they use."""

    abilities: tuple[Ability, ...]
    json: list[dict[str, Any]]
    kinds: frozenset[str]
    # the JSON as the write paths store it on SQLite (json.dumps with and without ensure_ascii):
    # a recompile compares the stored text without decoding it
    stored_forms: tuple[str, ...] = ("[]",)


_NOTHING = Compiled((), [], frozenset())


@lru_cache(maxsize=65536)
def compile_cached(game: str, text: str, card_type: str) -> Compiled:
    """``text`` compiled by ``game``'s compiler (``GameSpec.compile_text``), once per distinct
    (game, text, card type) in a process: reprints and shared texts cost one compile."""
    compile_text = get_spec(game).compile_text
    if compile_text is None or is_vanilla_text(text):
        return _NOTHING
    abilities = tuple(compile_text(text, card_type))
    kinds: set[str] = set()
    for ability in abilities:
        ability_kinds(ability, kinds)
    # as stored: tuples in params become lists, so a recompile compares equal to the stored column
    text_form = json.dumps(abilities_to_json(abilities), ensure_ascii=False)
    stored = json.loads(text_form)
    return Compiled(abilities, stored, frozenset(kinds), (json.dumps(stored), text_form))


def clear_caches() -> None:
    """Forget the compiled texts (a compiler changed)."""
    compile_cached.cache_clear()
    effect_vocabulary.cache_clear()


def compile_record(card: CardRecord) -> tuple[CardRecord, CardCoverage]:
    """``card`` with its text compiled by its game's compiler, and its coverage by the game's engine."""
    compiled = compile_cached(card.game, card.text, card.card_type)
    if compiled.abilities != card.abilities:
        card = replace(card, abilities=compiled.abilities)
    return card, card_coverage(card, _engine(card.game), get_spec(card.game).compile_text)


def derived_values(data: Mapping[str, Any]) -> tuple[CardRecord, CardCoverage, tuple[list[Any], list[str], bool]]:
    """From a card's JSON dict (``CARD_FIELDS``): its record with the compiled abilities, its
    coverage, and the derived columns' values ``(abilities, effect_kinds, modelled)``."""
    record, coverage, compiled, kinds = _derived(data)
    return record, coverage, (compiled.json, kinds, coverage.modelled)


def _derived(data: Mapping[str, Any]) -> tuple[CardRecord, CardCoverage, Compiled, list[str]]:
    game, text, card_type = data["game"], data.get("text") or "", data.get("card_type") or ""
    compiled = compile_cached(game, text, card_type)
    record = CardRecord.from_dict({**data, "abilities": compiled.abilities})
    coverage = card_coverage(record, _engine(game), get_spec(game).compile_text)
    kinds = compiled.kinds
    if record.effects:
        kinds = kinds | {str(e.get("kind")) for e in record.effects if e.get("kind")}
    return record, coverage, compiled, sorted(k.lower() for k in kinds)


def card_derive(card: Card) -> bool:
    """Set ``card``'s derived columns from its data; True when any of them changed."""
    _, _, values = derived_values({name: getattr(card, name) for name in CARD_FIELDS})
    if values == (card.abilities or [], card.effect_kinds or [], card.modelled):
        return False
    card.abilities, card.effect_kinds, card.modelled = values
    return True


def card_engine_report(card: Card) -> dict[str, Any]:
    """What the card page says about the engine: ``modelled``, ``never_played`` (the engine's reason,
    English) and per ability its ``text``, ``kind``, the kinds it uses, and how the game's goldfish
    engine treats it (``status``: played / no_effect / not_understood / not_played; ``reason``; the
    ``phrase`` not understood) — classified now, from the stored abilities."""
    coverage = card_coverage_of(card)
    return {
        "modelled": coverage.modelled,
        "never_played": coverage.never_played or "",
        "abilities": [{"text": a.text, "kind": a.kind, "status": c.status, "reason": c.reason,
                       "phrase": a.unrecognised or "", "kinds": sorted(ability_kinds(a))}
                      for a, c in coverage.abilities],
    }


def card_coverage_of(card: Card) -> CardCoverage:
    """How the game's goldfish engine treats ``card`` now (``rules.coverage.card_coverage``)."""
    return card_coverage(card.to_record(), _engine(card.game), get_spec(card.game).compile_text)


# -- the effect: vocabulary ------------------------------------------------------------------------
def _names(items: Iterable[Any]) -> Iterator[str]:
    for item in items:
        if isinstance(item, str):
            yield item
        elif isinstance(item, tuple) and item and isinstance(item[0], str):
            yield item[0]
        elif isinstance(getattr(item, "name", None), str):
            yield item.name


@cache
def effect_vocabulary(game: str) -> tuple[str, ...]:
    """The kinds ``effect:`` knows for ``game``: its compiler's triggers, conditions, costs and
    effects (the vocabulary modules) and its structured effect kinds, sorted."""
    kinds = set(g.EFFECT_KINDS.get(game, ()))
    if get_spec(game).compile_text is not None:
        for name in (f"rules.{game}.abilities.vocabulary", f"rules.{game}.abilities"):
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            for attr in ("EFFECT_KINDS", "TRIGGER_KINDS", "CONDITION_KINDS", "COST_KINDS"):
                kinds |= set(_names(getattr(module, attr, ())))
            break
    return tuple(sorted(k.lower() for k in kinds))


def all_effect_kinds() -> frozenset[str]:
    """Every game's ``effect:`` vocabulary."""
    return frozenset(k for game in g.GAMES for k in effect_vocabulary(game))


# -- compile a whole game --------------------------------------------------------------------------
@dataclass
class CompileReport:
    """What ``catalog_compile`` did and the coverage it measured (``as_dict``: the ``--report`` JSON)."""

    game: str
    cards: int = 0
    changed: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time (the machine may be shared)
    compiler: bool = False
    cards_with_text: int = 0
    cards_fully_compiled: int = 0  # cards with text whose every ability compiled
    cards_modelled: int = 0  # every card fully modelled by the engine (vanilla included)
    cards_with_text_modelled: int = 0
    never_played: int = 0
    instances: int = 0  # ability instances (one per ability of each card)
    compiled: int = 0
    statuses: Counter = field(default_factory=Counter)  # per ability instance: played, no_effect...
    by_type: dict[str, dict[str, int]] = field(default_factory=dict)  # card type -> instances, compiled
    unrecognised: Counter = field(default_factory=Counter)  # phrase -> instances
    reasons: Counter = field(default_factory=Counter)  # not modelled: reason -> cards

    @property
    def cards_per_second(self) -> float:
        return self.cards / self.seconds if self.seconds else 0.0

    @property
    def cards_per_cpu_second(self) -> float:
        return self.cards / self.cpu_seconds if self.cpu_seconds else 0.0

    def add(self, card: CardRecord, coverage: CardCoverage) -> None:
        self.cards += 1
        has_text = not is_vanilla_text(card.text)
        self.cards_with_text += has_text
        self.cards_modelled += coverage.modelled
        self.cards_with_text_modelled += has_text and coverage.modelled
        if coverage.never_played is not None:
            self.never_played += 1
            self.reasons[coverage.never_played] += 1
        if not self.compiler:
            for _, c in coverage.abilities:
                self.statuses[c.status] += 1
            return
        row = self.by_type.setdefault(card.card_type, {"instances": 0, "compiled": 0})
        for ability in card.abilities:
            self.instances += 1
            row["instances"] += 1
            if ability.compiled:
                self.compiled += 1
                row["compiled"] += 1
            else:
                self.unrecognised[ability.unrecognised or ""] += 1
        self.cards_fully_compiled += has_text and all(a.compiled for a in card.abilities)
        for _, c in coverage.abilities:
            self.statuses[c.status] += 1
            if c.status != NOT_UNDERSTOOD and not c.modelled and c.reason:
                self.reasons[c.reason] += 1

    def as_dict(self, top: int = 30) -> dict[str, Any]:
        def share(n: int, d: int) -> float | None:
            return round(n / d, 4) if d else None

        return {
            "game": self.game, "compiler": self.compiler, "cards": self.cards, "changed": self.changed,
            "seconds": round(self.seconds, 3), "cards_per_second": round(self.cards_per_second),
            "cpu_seconds": round(self.cpu_seconds, 3), "cards_per_cpu_second": round(self.cards_per_cpu_second),
            "instances": self.instances, "compiled": self.compiled, "compiled_share": share(self.compiled, self.instances),
            "cards_with_text": self.cards_with_text, "cards_fully_compiled": self.cards_fully_compiled,
            "cards_fully_compiled_share": share(self.cards_fully_compiled, self.cards_with_text),
            "cards_modelled": self.cards_modelled, "cards_modelled_share": share(self.cards_modelled, self.cards),
            "cards_with_text_modelled": self.cards_with_text_modelled,
            "cards_with_text_modelled_share": share(self.cards_with_text_modelled, self.cards_with_text),
            "never_played": self.never_played,
            "statuses": {s: self.statuses.get(s, 0) for s in COVERAGE_STATUSES},
            "by_type": {t: {**row, "share": share(row["compiled"], row["instances"])}
                        for t, row in sorted(self.by_type.items())},
            "unrecognised": [{"phrase": p, "instances": n} for p, n in self.unrecognised.most_common(top)],
            "not_modelled_reasons": [{"reason": r, "count": n} for r, n in self.reasons.most_common(top)],
        }

    def text(self, top: int = 15) -> str:
        def pct(n: int, d: int) -> str:
            return f"{n / d:.1%}" if d else "-"

        lines = [f"{g.GAME_NAMES[self.game]}: {self.cards:,} cards in {self.seconds:.2f}s "
                 f"({self.cards_per_second:,.0f} cards/s; CPU {self.cpu_seconds:.2f}s, "
                 f"{self.cards_per_cpu_second:,.0f} cards/s), {self.changed:,} changed"]
        if self.compiler:
            lines.append(f"ability instances compiled: {self.compiled:,} of {self.instances:,} "
                         f"({pct(self.compiled, self.instances)})")
            lines.append(f"cards fully compiled: {self.cards_fully_compiled:,} of {self.cards_with_text:,} cards with text "
                         f"({pct(self.cards_fully_compiled, self.cards_with_text)})")
            for ctype, row in sorted(self.by_type.items()):
                if not row["instances"]:
                    continue
                lines.append(f"  {ctype:<12} {row['compiled']:,} of {row['instances']:,} instances "
                             f"({pct(row['compiled'], row['instances'])})")
        else:
            lines.append("no ability compiler for this game: effect kinds and coverage from the structured data")
        lines.append(f"cards fully modelled by the goldfish engine: {self.cards_modelled:,} of {self.cards:,} "
                     f"({pct(self.cards_modelled, self.cards)}); of the cards with text "
                     f"{self.cards_with_text_modelled:,} of {self.cards_with_text:,} "
                     f"({pct(self.cards_with_text_modelled, self.cards_with_text)})")
        if self.statuses:
            lines.append("abilities: " + ", ".join(f"{s} {self.statuses.get(s, 0):,}" for s in COVERAGE_STATUSES))
        if self.never_played:
            lines.append(f"cards the engine never plays: {self.never_played:,}")
        if self.unrecognised:
            lines.append(f"top unrecognised phrases ({len(self.unrecognised):,} different):")
            lines += [f"  {n:>6,}  {phrase[:100]}" for phrase, n in self.unrecognised.most_common(top)]
        if self.reasons:
            lines.append("top reasons a card is not modelled (besides text not understood):")
            lines += [f"  {n:>6,}  {reason[:100]}" for reason, n in self.reasons.most_common(top)]
        return "\n".join(lines)


def catalog_compile(*, game: str, batch_size: int = 2000) -> CompileReport:
    """Recompile every ``game`` card's derived columns; write only the rows that changed (batched
    ``UPDATE … FROM (VALUES …)``, the ``effect_kinds`` facets of those cards rebuilt). Idempotent:
    a second run changes nothing."""
    from django.db import transaction
    from django.db.models import TextField
    from django.db.models.functions import Cast

    from .models import Card
    from .services import catalog_analyze

    if game not in g.GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
    started, cpu = time.perf_counter(), time.process_time()
    report = CompileReport(game=game, compiler=get_spec(game).compile_text is not None)
    ids = list(Card.objects.filter(game=game).order_by("pk").values_list("pk", flat=True))
    names = sorted(CARD_FIELDS)
    # the stored abilities as text: compared with the compiled JSON's stored forms, decoded only
    # when they differ (PostgreSQL's jsonb text, a real change)
    columns = ("pk", *names, "effect_kinds", "modelled", "abilities_text")
    for start in range(0, len(ids), batch_size):
        rows = (Card.objects.filter(pk__in=ids[start:start + batch_size])
                .annotate(abilities_text=Cast("abilities", TextField())).values_list(*columns))
        changed: list[Derived] = []
        for row in rows:
            record, coverage, compiled, kinds = _derived(dict(zip(names, row[1:-3], strict=True)))
            report.add(record, coverage)
            stored_kinds, stored_modelled, stored_text = row[-3] or [], row[-2], row[-1] or "[]"
            same_abilities = stored_text in compiled.stored_forms or json.loads(stored_text) == compiled.json
            if not (same_abilities and kinds == stored_kinds and coverage.modelled == stored_modelled):
                changed.append(Derived(row[0], compiled.stored_forms[-1], kinds, coverage.modelled,
                                       kinds != stored_kinds))
        if changed:
            with transaction.atomic():
                derived_write(changed)
        report.changed += len(changed)
    report.seconds, report.cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    if report.changed:
        catalog_analyze(changed=report.changed)
    return report


@dataclass(frozen=True, slots=True)
class Derived:
    """A card's new derived columns (``abilities`` as JSON text)."""

    pk: int
    abilities: str
    effect_kinds: list[str]
    modelled: bool
    kinds_changed: bool


def derived_write(rows: list[Derived]) -> None:
    """Write the derived columns of ``rows`` and rebuild the ``effect_kinds`` facets of those whose
    kinds changed (in the caller's transaction): one prepared UPDATE and one INSERT run over all
    rows (``executemany``), no model instances."""
    from django.db import connection

    from .models import Card, CardFacet
    from .services import _chunks

    qn = connection.ops.quote_name
    card, facet = qn(Card._meta.db_table), qn(CardFacet._meta.db_table)
    json_cell = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {card} SET {qn('abilities')} = {json_cell}, {qn('effect_kinds')} = {json_cell}, "
            f"{qn('modelled')} = %s WHERE {qn(Card._meta.pk.column)} = %s",
            [(r.abilities, json.dumps(r.effect_kinds, ensure_ascii=False), r.modelled, r.pk) for r in rows])
        kinds = [r for r in rows if r.kinds_changed]
        for chunk in _chunks([r.pk for r in kinds]):
            CardFacet.objects.filter(card_id__in=chunk, facet=EFFECT_FACET).delete()
        facets = [(r.pk, EFFECT_FACET, k[:128]) for r in kinds for k in dict.fromkeys(r.effect_kinds)]
        if facets:
            cursor.executemany(f"INSERT INTO {facet} ({qn(CardFacet._meta.get_field('card').column)}, "
                               f"{qn('facet')}, {qn('value')}) "
                               "VALUES (%s, %s, %s)", facets)
