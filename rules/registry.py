"""The game registry: one ``GameSpec`` per game, defined in that game's package ``rules/<game>/``.

The Django apps and the shared rule modules ask the spec (``get_spec(game)``) instead of branching
on the game. A game's package is ``rules.<code>`` for every code of ``games.GAMES``; the packages
are imported on the first ``get_spec``/``all_specs`` call, so a game package may import the shared
modules (``rules.cards``, ``rules.construction``, ``rules.display``) without an import cycle.

The enumerations and constants stay in ``rules.games`` (the table everything else imports); the
spec reads them by its game code.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import games as g

if TYPE_CHECKING:
    from .abilities import Ability
    from .cards import CardInput, CardRecord
    from .construction import DeckState
    from .display import ChartData, Face

Problem = tuple[str, str]
# A game's ability compiler: ``compile_text(text, card_type) -> abilities`` (rules.abilities).
TextCompiler = Callable[[str, str], "Sequence[Ability]"]
CardCheck = Callable[["CardInput"], list[Problem]]
DeckCheck = Callable[["DeckState"], list[dict[str, Any]]]


def standard_copy_limit(card: CardRecord) -> int:
    """The game's copy limit from ``games.CONSTANTS``."""
    return g.CONSTANTS[card.game].copy_limit


def no_summary(deck: DeckState) -> dict[str, Any]:
    """No game-specific entries in the deck summary."""
    return {}


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared code needs to know about one game."""

    game: str
    # Stats (CardRecord fields) that belong to this game: validation, query language, card page.
    stats: tuple[str, ...]
    # Card checks after the shared ones, in order; each returns ``(field, message)`` problems.
    card_checks: Sequence[CardCheck]
    # Deck-construction rules; each returns problem dicts (see rules.construction.deck_rule).
    deck_checks: Sequence[DeckCheck]
    # The key under which copies are counted, and how the copy-limit message words it.
    identity: Callable[[CardRecord], str]
    identity_words: str
    # The stat line pages show: ``stat_line(card, labels, deck=False)``.
    stat_line: Callable[..., str]
    # Deck-page chart data for the main deck's ``[(record, count)]``.
    deck_charts: Callable[[Sequence[tuple[CardRecord, int]]], list[ChartData]]
    # The generated card face (``face(card, labels)``): the picture when a printing has no image.
    face: Callable[..., Face] | None = None
    # Where the deck page's picture view puts a card: ``("level", n)`` or ``("type", card_type)``.
    picture_group: Callable[[Any], tuple[str, Any]] | None = None
    # The series (work) of a set or card from its set code and work: ``series_of(set_code, work)``.
    series_of: Callable[[str, str], str] | None = None
    copy_limit: Callable[[CardRecord], int] = standard_copy_limit
    # The zones whose copies the copy limit counts (``identity.COPY_ZONES``); None: every card zone.
    copy_zones: tuple[str, ...] | None = None
    # Game-specific entries appended to ``validate_deck``'s summary.
    deck_summary: Callable[[DeckState], dict[str, Any]] = no_summary
    # Number of cost symbols in a structured ``cost_detail``; None when the game has none.
    cost_total: Callable[[Mapping[str, Any]], int] | None = None
    # Cards seen per own turn besides the normal draws (WS: the clock's 2 draws).
    clock_draws: int = 0
    # Other names accepted by the query language's ``game:`` field.
    aliases: tuple[str, ...] = ()
    # ``(query, description)`` examples for the search help page.
    search_examples: tuple[tuple[str, str], ...] = ()
    # The game's ability compiler (printed text -> ``rules.abilities.Ability``), memoised; None when
    # the game has none. Set in the game's package with ``lazy_compiler("rules.<game>.abilities")``.
    compile_text: TextCompiler | None = None

    @property
    def name(self) -> str:
        return g.GAME_NAMES[self.game]

    @property
    def constants(self) -> g.GameConstants:
        return g.CONSTANTS[self.game]

    @property
    def zones(self) -> tuple[str, ...]:
        return g.GAME_ZONES[self.game]

    @property
    def card_types(self) -> tuple[str, ...]:
        return g.CARD_TYPES[self.game]

    @property
    def colors(self) -> tuple[str, ...]:
        return g.COLORS.get(self.game, ())

    @property
    def attributes(self) -> tuple[str, ...]:
        return g.ATTRIBUTES.get(self.game, ())

    @property
    def keywords(self) -> tuple[str, ...]:
        return g.KEYWORDS[self.game]

    @property
    def effect_kinds(self) -> tuple[str, ...]:
        return g.EFFECT_KINDS[self.game]


def spec_from_modules(game: str, cards: ModuleType, construction: ModuleType, identity: ModuleType,
                      display: ModuleType, **fields: Any) -> GameSpec:
    """A game's spec from its package's modules, by the names every game uses: ``cards.CHECKS``
    (``cards.cost_total``), ``construction.CHECKS`` (``construction.summary``),
    ``identity.card_identity``, ``identity.IDENTITY_WORDS`` (``identity.copy_limit``, ``identity.COPY_ZONES``),
    ``display.stat_line``, ``display.deck_charts``, ``display.face`` (``display.picture_group``,
    ``display.series_of``: else by card type and by work); the names in brackets only when the game has them.
    ``fields`` give the rest (``stats``, ``aliases``, ...)."""
    optional = {"cost_total": getattr(cards, "cost_total", None),
                "deck_summary": getattr(construction, "summary", None),
                "copy_limit": getattr(identity, "copy_limit", None),
                "copy_zones": getattr(identity, "COPY_ZONES", None)}
    from .display import picture_group_by_type, series_of

    shown = {"face": display.face, "picture_group": getattr(display, "picture_group", picture_group_by_type),
             "series_of": getattr(display, "series_of", series_of)}
    return GameSpec(
        game=game, card_checks=cards.CHECKS, deck_checks=construction.CHECKS, identity=identity.card_identity,
        identity_words=identity.IDENTITY_WORDS, stat_line=display.stat_line, deck_charts=display.deck_charts,
        **{name: value for name, value in optional.items() if value is not None}, **shown, **fields,
    )


def lazy_compiler(module: str) -> TextCompiler:
    """``module.compile_text_cached``, imported on the first call: a compiler builds its grammar when
    imported, which only the processes that compile text should pay for."""
    compiled: list[TextCompiler] = []

    def compile_text(text: str, card_type: str = "character") -> Sequence[Ability]:
        if not compiled:
            compiled.append(importlib.import_module(module).compile_text_cached)
        return compiled[0](text, card_type)

    compile_text.__qualname__ = compile_text.__name__ = f"compile_text[{module}]"
    return compile_text


_SPECS: dict[str, GameSpec] = {}


def _load() -> dict[str, GameSpec]:
    if not _SPECS:
        specs = {}
        for code in g.GAMES:
            spec = importlib.import_module(f"{__package__}.{code}").SPEC
            if spec.game != code:
                raise RuntimeError(f"rules.{code} defines the spec of {spec.game!r}")
            specs[code] = spec
        _SPECS.update(specs)
    return _SPECS


def get_spec(game: str) -> GameSpec:
    """The spec of ``game``; ``KeyError`` for an unknown game code."""
    return _load()[game]


def all_specs() -> tuple[GameSpec, ...]:
    """Every game's spec, in ``games.GAMES`` order."""
    return tuple(_load().values())
