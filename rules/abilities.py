"""Compiled abilities: the typed effect structure every game's ability compiler produces.

A card's printed text compiles into a tuple of :class:`Ability`; each holds its kind (``auto``,
``continuous``, ``activated``, ``counter``, ``event``, ``keyword``...), the trigger, conditions,
cost and effects, each an :class:`Effect` with a ``kind`` from the game's vocabulary (documented
in ``docs/abilities.md``) and JSON-able params. Text a compiler does not understand is kept as an
ability with ``unrecognised`` set to the first phrase that failed, so nothing is lost and the
coverage can be counted.

Compiled abilities are stored on the card as JSON (:func:`abilities_to_json` /
:func:`abilities_from_json`). How a goldfish engine treats each ability is a :class:`Coverage`:
``played``, ``no_effect`` (with the rule of the goldfish definition that makes it so) or
``not_understood`` (with the phrase).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

PLAYED = "played"
NO_EFFECT = "no_effect"
NOT_UNDERSTOOD = "not_understood"
NOT_PLAYED = "not_played"
COVERAGE_STATUSES: tuple[str, ...] = (PLAYED, NO_EFFECT, NOT_UNDERSTOOD, NOT_PLAYED)


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect phrase: ``kind`` from the game's vocabulary, ``params`` JSON-able values."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **({"params": dict(self.params)} if self.params else {})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        return cls(kind=str(data["kind"]), params=dict(data.get("params") or {}))


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card, compiled from ``text``.

    ``kind``: ``auto`` (【自】), ``continuous`` (【永】), ``activated`` (【起】), ``counter``
    (【カウンター】), ``event`` (an event card's text), ``climax`` (a climax's text), ``keyword``
    (keyword-only text), or the game's own kinds. ``trigger`` and each condition are effects
    (``kind`` + params), ``cost`` and ``effects`` lists of effects. ``unrecognised`` is the first
    phrase the compiler could not read (``None`` when the whole text compiled).
    """

    kind: str
    text: str
    trigger: Effect | None = None
    conditions: tuple[Effect, ...] = ()
    cost: tuple[Effect, ...] = ()
    effects: tuple[Effect, ...] = ()
    keywords: tuple[str, ...] = ()
    once_per_turn: bool = False
    unrecognised: str | None = None

    @property
    def compiled(self) -> bool:
        return self.unrecognised is None

    def effect_kinds(self) -> set[str]:
        """Every effect kind this ability uses (trigger, conditions, cost and effects)."""
        kinds = {e.kind for e in (*self.conditions, *self.cost, *self.effects)}
        if self.trigger is not None:
            kinds.add(self.trigger.kind)
        return kinds

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.trigger is not None:
            out["trigger"] = self.trigger.to_dict()
        for name in ("conditions", "cost", "effects"):
            value = getattr(self, name)
            if value:
                out[name] = [e.to_dict() for e in value]
        if self.keywords:
            out["keywords"] = list(self.keywords)
        if self.once_per_turn:
            out["once_per_turn"] = True
        if self.unrecognised is not None:
            out["unrecognised"] = self.unrecognised
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ability:
        trigger = data.get("trigger")
        return cls(
            kind=str(data["kind"]),
            text=str(data.get("text", "")),
            trigger=Effect.from_dict(trigger) if trigger else None,
            conditions=tuple(Effect.from_dict(e) for e in data.get("conditions") or ()),
            cost=tuple(Effect.from_dict(e) for e in data.get("cost") or ()),
            effects=tuple(Effect.from_dict(e) for e in data.get("effects") or ()),
            keywords=tuple(data.get("keywords") or ()),
            once_per_turn=bool(data.get("once_per_turn", False)),
            unrecognised=data.get("unrecognised"),
        )


@dataclass(frozen=True, slots=True)
class Coverage:
    """How a goldfish engine treats one ability: a status from ``COVERAGE_STATUSES`` and why."""

    status: str
    reason: str = ""

    @property
    def modelled(self) -> bool:
        """Played, or shown to change nothing in a goldfish game."""
        return self.status in (PLAYED, NO_EFFECT)


def abilities_to_json(abilities: Iterable[Ability]) -> list[dict[str, Any]]:
    return [a.to_dict() for a in abilities]


def abilities_from_json(data: Iterable[Mapping[str, Any]] | None) -> tuple[Ability, ...]:
    return tuple(Ability.from_dict(d) for d in data or ())


def is_vanilla_text(text: str | None) -> bool:
    """No printed text: empty, or the sources' ``-`` placeholder."""
    return not text or text.strip() in ("", "-", "－", "ー")
