"""What a goldfish report covers: per card and per deck, which printed abilities the engine plays.

The contract between the engines and everything that reports on them (CLI, API, pages):

- a card's abilities are ``CardRecord.abilities`` (compiled at import, ``rules.abilities``), or —
  when the record carries none — compiled on the fly from its text by the game's compiler
  (``GameSpec.compile_text`` when the game has one);
- an engine may define ``classify_ability(ability, card) -> Coverage``: ``played``, ``no_effect``
  (with the rule of the goldfish definition that makes it so, e.g. "needs an opposing
  character"), ``not_understood`` (the compiler's failed phrase) or ``not_played``;
- an engine may define ``plays_card(card) -> str | None``: ``None`` when the engine can play the
  card at all, otherwise the reason it never does (e.g. "Set cards are never played"). A card the
  engine never plays is not modelled, even with no text (a deck of such cards must not claim full
  coverage).

Engines that define neither keep the old rule: a card is modelled when it has no text or its
record says ``text_modelled``. ``game_card_coverage`` / ``game_deck_coverage`` find the game's
engine (``coverage_engine``) and compiler (``GameSpec.compile_text``) themselves. An ability the
compiler could not read counts as played when the record says ``text_modelled`` (its structured
keywords and effects capture the text). A card is **fully modelled** when the engine plays it and every
one of its abilities is ``played`` or ``no_effect``; vanilla cards (no text or ``-``) and
keyword-only text count as modelled.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .abilities import NOT_PLAYED, NOT_UNDERSTOOD, PLAYED, Ability, Coverage, is_vanilla_text
from .cards import CardRecord
from .display import gettext_noop


class AnalysisSkip(Exception):  # noqa: N818 - a signal, not an error
    """An engine's analysis of an ability part: it changes nothing in a goldfish game (the reason
    says why). The engines know it as ``Skip``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AnalysisUnsupported(Exception):  # noqa: N818
    """An engine's analysis of an ability part: the engine does not execute it (the reason names
    it). The engines know it as ``Unsupported``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Classifier = Callable[[Ability, CardRecord], Coverage]
# Why an ability the compiler could not read is still played: the record says ``text_modelled``.
STRUCTURED = gettext_noop("played from the card's structured data (keywords and effects)")


@dataclass(frozen=True, slots=True)
class CardCoverage:
    """One card's coverage: each ability with its status, and why the card is never played, if so."""

    card: CardRecord
    abilities: tuple[tuple[Ability, Coverage], ...] = ()
    never_played: str | None = None

    @property
    def modelled(self) -> bool:
        return self.never_played is None and all(c.modelled for _, c in self.abilities)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.card.code,
            "name": self.card.name,
            "modelled": self.modelled,
            "never_played": self.never_played,
            "abilities": [
                {"text": a.text, "kind": a.kind, "status": c.status, "reason": c.reason,
                 **({"phrase": a.unrecognised} if a.unrecognised is not None else {})}
                for a, c in self.abilities
            ],
        }


def card_abilities(card: CardRecord, compile_text: Callable[[str, str], Sequence[Ability]] | None) -> tuple[Ability, ...]:
    """The card's compiled abilities: stored on the record, else compiled from its text."""
    stored = getattr(card, "abilities", None)
    if stored:
        return tuple(stored)
    if compile_text is None or is_vanilla_text(card.text):
        return ()
    return tuple(compile_text(card.text, card.card_type))


def memoised_classifier(analyse: Callable[[Ability, CardRecord], Any]) -> Classifier:
    """An engine's ``classify_ability`` (the contract above) from its ``analyse(ability, card)``,
    whose result has ``status`` and ``reason``: played / no effect (with the goldfish rule that
    makes it so) / not played (with what the engine does not execute). The same text compiles to
    the same ability, so the coverage is memoised by the ability's text and kind and the card's
    type (one memo per engine)."""
    memo: dict[tuple[str, str, str], Coverage] = {}

    def classify_ability(ability: Ability, card: CardRecord) -> Coverage:
        key = (ability.text, ability.kind, card.card_type)
        hit = memo.get(key)
        if hit is None:
            r = analyse(ability, card)
            hit = memo[key] = Coverage(r.status, r.reason)
        return hit

    classify_ability.__doc__ = memoised_classifier.__doc__
    return classify_ability


def _legacy(card: CardRecord) -> tuple[tuple[Ability, Coverage], ...]:
    if is_vanilla_text(card.text):
        return ()
    status = PLAYED if card.text_modelled else NOT_PLAYED
    reason = "" if card.text_modelled else gettext_noop("the engine does not execute this card's text")
    return ((Ability(kind="text", text=card.text), Coverage(status, reason)),)


def card_coverage(card: CardRecord, engine: Any, compile_text: Callable[[str, str], Sequence[Ability]] | None = None
                  ) -> CardCoverage:
    """How ``engine`` treats ``card`` (see the module docstring for the rules)."""
    plays = getattr(engine, "plays_card", None)
    never = plays(card) if plays is not None else None
    classify: Classifier | None = getattr(engine, "classify_ability", None)
    if classify is None:
        return CardCoverage(card, _legacy(card), never)
    pairs = []
    for ability in card_abilities(card, compile_text):
        if not ability.compiled and card.text_modelled:
            # the card's structured data (keywords, effects) captures its text: the engine plays that
            pairs.append((ability, Coverage(PLAYED, STRUCTURED)))
        elif not ability.compiled:
            pairs.append((ability, Coverage(NOT_UNDERSTOOD, ability.unrecognised or "")))
        else:
            pairs.append((ability, classify(ability, card)))
    return CardCoverage(card, tuple(pairs), never)


def deck_coverage(cards: Iterable[CardRecord], engine: Any,
                  compile_text: Callable[[str, str], Sequence[Ability]] | None = None) -> dict[str, Any]:
    """The report's coverage block: ``N of M cards fully modelled (x% of copies)`` and the cards
    that are not, most copies first, each with its abilities' statuses."""
    copies = Counter()
    records: dict[str, CardRecord] = {}
    for card in cards:
        copies[card.code] += 1
        records.setdefault(card.code, card)
    per_card = {code: card_coverage(rec, engine, compile_text) for code, rec in records.items()}
    modelled = [c for c in per_card.values() if c.modelled]
    total_copies = sum(copies.values())
    modelled_copies = sum(copies[c.card.code] for c in modelled)
    missing = sorted((c for c in per_card.values() if not c.modelled),
                     key=lambda c: (-copies[c.card.code], c.card.code))
    return {
        "cards": len(per_card),
        "cards_modelled": len(modelled),
        "copies": total_copies,
        "copies_modelled": modelled_copies,
        "copies_share": round(modelled_copies / total_copies, 4) if total_copies else 1.0,
        "not_modelled": [{**c.as_dict(), "copies": copies[c.card.code]} for c in missing],
    }


def coverage_engine(game: str) -> Any:
    """What classifies ``game``'s abilities: its registered goldfish engine, or the engine package
    ``rules.<game>.engine`` when the functions live there; ``None`` for a game without an engine
    (the old rule then applies)."""
    import importlib

    from .engine.core import get_engine

    try:
        engine = get_engine(game)
    except KeyError:
        return None
    if any(hasattr(engine, name) for name in ("classify_ability", "plays_card")):
        return engine
    module = importlib.import_module(f"rules.{game}.engine")
    if any(hasattr(module, name) for name in ("classify_ability", "plays_card")):
        return module
    return engine


def game_card_coverage(card: CardRecord) -> CardCoverage:
    """``card_coverage`` with the card's game's engine and compiler."""
    from .registry import get_spec

    return card_coverage(card, coverage_engine(card.game), get_spec(card.game).compile_text)


def game_deck_coverage(game: str, cards: Iterable[CardRecord]) -> dict[str, Any]:
    """``deck_coverage`` with ``game``'s engine and compiler: every report's coverage block."""
    from .registry import get_spec

    return deck_coverage(cards, coverage_engine(game), get_spec(game).compile_text)
