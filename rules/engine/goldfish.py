"""What every goldfish game does the same way, written once: ``GoldfishState``.

A game's state subclasses it and writes only its rules:

- ``_new_game(deck, options)``: its zones (``options`` = the game's ``DEFAULT_OPTIONS`` and the
  caller's);
- ``_setup()``: shuffle, opening hand, mulligan (a generator when it yields decisions, or a plain
  method returning ``None``);
- ``_my_turn()``: one own turn (a generator), starting with ``self._new_turn()``;
- ``_opp_turn(first)``: the dummy's turn (``first``: its first turn when it goes first); no-op here;
  it may return a generator when the dummy's turn asks the player decisions;
- ``options_<kind>()`` and ``label()`` for its decisions, ``card_zones()`` for its cards.

This class holds the rest: the common options (``turn_cap``, ``first``), who goes first, the turn
loop and the turn cap, the end of a game (``_end`` raises ``GameOver``, which ends the script),
the event log helper ``say``, the mulligan and hand-limit helpers, the per-turn series, the
counters and ``result()``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping
from operator import itemgetter, sub
from typing import Any, ClassVar

from ..cards import CardRecord
from ._zones import distinct_codes, take
from .core import (
    DEFAULT_TURN_CAP,
    Deck,
    EventLog,
    GameEngine,
    GameResult,
    Pilot,
    ScriptedState,
    event_messages,
    gettext_noop,
    register,
    who_goes_first,
)

TURN_CAP = gettext_noop("turn cap")
# The last event of every game (``<GAME>.result``), logged by ``GoldfishState._end``.
RESULT_EVENT = gettext_noop("{outcome}: {reason}")


class GameOver(Exception):
    """Raised by ``GoldfishState._end``: the game is decided; the script stops there."""


class GoldfishState(ScriptedState):
    """One game of a deck against a dummy opponent (see the module docstring).

    Class attributes a game sets:

    - ``GAME``: the game code (event codes are ``<GAME>.<name>``);
    - ``DEFAULT_OPTIONS``: the game's options and their defaults (``first`` included);
    - ``COUNTERS``: every counter, in the order a replay shows them (they start at 0);
    - ``PER_TURN``: ``{series: counter}``, each series recording how much the counter grew during
      each own turn;
    - ``DECK_ZONES``: the ``Deck.zones`` sections the game plays besides the main deck (with
      ``card_zones()``, what the contract tests count: no card is created or lost);
    - ``RESULT_KIND`` / ``RESULT_UPPER``: how the final event is logged (kind, outcome in capitals);
    - ``RESULT_MIN_TURN``: the turn a game decided during setup reports.
    """

    GAME: ClassVar[str] = ""
    DEFAULT_OPTIONS: ClassVar[Mapping[str, Any]] = {"first": "random"}
    COUNTERS: ClassVar[tuple[str, ...]] = ()
    PER_TURN: ClassVar[Mapping[str, str]] = {}
    DECK_ZONES: ClassVar[tuple[str, ...]] = ()
    RESULT_KIND: ClassVar[str] = "result"
    RESULT_UPPER: ClassVar[bool] = False
    RESULT_MIN_TURN: ClassVar[int] = 1
    _series_start: ClassVar[Callable[[Mapping[str, int]], Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.GAME:  # the game's end event
            event_messages(cls.GAME, {"result": RESULT_EVENT})
        # the per-turn series' counters, read at the start of each own turn (one C call)
        cls._series_start = itemgetter(*cls.PER_TURN.values()) if cls.PER_TURN else None

    def __init__(self, deck: Deck, rng: random.Random, index: int = 0, options: Mapping[str, Any] | None = None,
                 log: EventLog | None = None, setup: bool = True) -> None:
        """Game ``index`` of ``deck`` with its own ``rng``; ``setup=False`` leaves every zone as
        ``_new_game`` built it and the script unstarted (scenario tests set a state up by hand and
        ``start`` one turn or step)."""
        options = {**self.DEFAULT_OPTIONS, **(options or {})}
        self.rng = rng
        self.log = log
        self.index = index
        self.turn_cap = int(options.get("turn_cap") or DEFAULT_TURN_CAP)
        self.first_option = str(options.get("first", "random"))
        self.went_first = True
        self.turn = 0  # the player's own turn number
        self.outcome = "capped"
        self.reason = TURN_CAP
        self.counters: dict[str, int] = dict.fromkeys(self.COUNTERS, 0)
        self.first_playable: dict[str, int] = {}
        # the per-turn series' counters at the start of each own turn
        self._turn_starts: list[Any] = []
        # the zones every game has: the deck (its top at the end), the hand, cards in transit
        self.deck: list[CardRecord] = list(deck.main)
        self.hand: list[CardRecord] = []
        self.resolving: list[CardRecord] = []
        self._aside: list[CardRecord] = []  # set aside by a mulligan (``_set_aside``)
        self._new_game(deck, options)
        if setup:
            self.start()

    def _new_game(self, deck: Deck, options: Mapping[str, Any]) -> None:  # pragma: no cover - abstract
        """Build the game's other zones from ``deck`` (and check ``options``)."""
        raise NotImplementedError

    # -- the game ------------------------------------------------------------------------------
    def script(self) -> Generator[str, tuple, None]:
        """Who goes first, the setup, then own turns and the dummy's turns up to the turn cap."""
        try:
            self.went_first = who_goes_first(self.first_option, self.rng, self.index)
            self.counters["went_first"] = int(self.went_first)
            setup = self._setup()
            if setup is not None:
                yield from setup
            # (a game without a dummy turn skips the call; one call less per turn)
            opp_turn = self._opp_turn if type(self)._opp_turn is not GoldfishState._opp_turn else None
            if opp_turn is not None and not self.went_first:
                steps = opp_turn(True)
                if steps is not None:  # a dummy turn that asks decisions (WS pressure) is a generator
                    yield from steps
            my_turn = self._my_turn
            cap = self.turn_cap
            while self.turn < cap:
                yield from my_turn()
                if opp_turn is not None:
                    steps = opp_turn(False)
                    if steps is not None:
                        yield from steps
            self.outcome, self.reason = "capped", TURN_CAP
        except GameOver:
            pass

    def scenario(self, steps: Generator[str, tuple, None]) -> Generator[str, tuple, None]:
        """Run ``steps`` (one turn or one step of a hand-built state, as scenario tests do) until
        it finishes or the game ends."""
        try:
            yield from steps
        except GameOver:
            pass

    def _setup(self) -> Generator[str, tuple, None] | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _my_turn(self) -> Generator[str, tuple, None]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _opp_turn(self, first: bool = False) -> Generator[str, tuple, None] | None:
        """The dummy's turn (none by default): a plain method, or a generator when it asks the
        player decisions (the WS dummy's attacks)."""

    def _new_turn(self) -> int:
        """Start the player's next own turn: its number (the per-turn series start counting)."""
        self.turn += 1
        if self._series_start is not None:
            self._turn_starts.append(self._series_start(self.counters))
        return self.turn

    def _top(self) -> CardRecord:
        """Take the top card of the player's deck (its end). The moment the deck is empty it is
        refilled (``_refill``: WS refresh, PC rebuild) while that card is held in ``resolving``."""
        card = self.deck.pop()
        if not self.deck:
            self.resolving.append(card)
            self._refill()
            self.resolving.pop()
        return card

    def _refill(self) -> None:  # pragma: no cover - for games whose empty deck is refilled
        """Refill the player's empty deck (or end the game)."""
        raise NotImplementedError

    def _end(self, outcome: str, reason: str) -> None:
        """The game is decided: record it, log it and stop the script."""
        self.outcome = outcome
        self.reason = reason
        if self.log is not None:
            self.say("me", self.RESULT_KIND, "result", outcome=outcome.upper() if self.RESULT_UPPER else outcome,
                     reason=reason)
        raise GameOver

    # -- the event log -------------------------------------------------------------------------
    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``<GAME>.<code>`` (callers on hot paths check ``self.log is not None`` first)."""
        if self.log is not None:
            self.log.add(self.turn, player, kind, f"{self.GAME}.{code}", **params)

    def card_label(self, card: CardRecord) -> str:
        """How the event log names a card."""
        return card.name

    # -- the hand: mulligan and hand limit ------------------------------------------------------
    def _set_aside(self) -> Generator[str, tuple, None]:
        """A mulligan made card by card (WS, PC): the player sets hand cards aside one at a time
        (decision ``mulligan``: ``(verb, code)``) until ``("keep",)``; they wait in ``_aside``, in
        the order chosen."""
        hand = self.hand
        while hand:
            choice = yield "mulligan"
            if choice[0] == "keep":
                break
            self._aside.append(take(hand, choice[1]))

    def _discard(self, code: str, pile: list[CardRecord]) -> None:
        """The end-of-turn hand limit's discard (decision ``discard``): the card ``code`` from the
        hand onto ``pile``. Each game's turn asks while the hand is over its limit (a plain loop:
        no generator on this frequent path)."""
        card = take(self.hand, code)
        pile.append(card)
        if self.log is not None:
            self.say("me", "discard", "hand_limit", card=self.card_label(card))

    def options_discard(self) -> list[tuple]:
        return [("discard", code) for code in distinct_codes(self.hand)]

    # -- cards and result ----------------------------------------------------------------------
    def card_zones(self) -> dict[str, list[CardRecord]]:  # pragma: no cover - abstract
        """Every zone holding the player's cards, by name (cards under others and in transit included)."""
        raise NotImplementedError

    def per_turn(self) -> dict[str, list[int]]:
        """Each series: how much its counter grew during each own turn played (the last one too)."""
        if self._series_start is None:
            return {}
        starts = self._turn_starts
        ends = starts[1:]
        ends.append(self._series_start(self.counters))
        if len(self.PER_TURN) == 1:  # one counter: the starts are numbers
            (name,) = self.PER_TURN
            return {name: list(map(sub, ends, starts))}
        growth = [list(map(sub, end, start)) for start, end in zip(starts, ends, strict=False)]
        return {name: [g[i] for g in growth] for i, name in enumerate(self.PER_TURN)}

    def result(self) -> GameResult:
        c = self.counters
        c["games"] = 1
        first = self.went_first
        if self.outcome == "win":
            c["first_wins" if first else "second_wins"] = 1
            c["first_win_turns" if first else "second_win_turns"] = self.turn
        c["first_games" if first else "second_games"] = 1
        counters = {}  # those that are not 0 (a loop: no comprehension frame)
        for k, v in c.items():
            if v:
                counters[k] = v
        return GameResult(
            index=self.index, outcome=self.outcome, turn=max(self.turn, self.RESULT_MIN_TURN), reason=self.reason,
            counters=counters,
            per_turn=self.per_turn(),
            first_playable=dict(self.first_playable),
        )


class CodeNames:
    """The conventions of the WS and PC engines (mixed in before ``GoldfishState``): the log names
    a card "CODE name" (``names``: name by code), the final event has kind ``game`` and the outcome
    in capitals, and a game decided during setup reports turn 0."""

    RESULT_KIND: ClassVar[str] = "game"
    RESULT_UPPER: ClassVar[bool] = True
    RESULT_MIN_TURN: ClassVar[int] = 0
    names: dict[str, str]

    def name(self, code: str) -> str:
        return f"{code} {self.names.get(code, '')}".strip()

    def card_label(self, card: CardRecord) -> str:
        return self.name(card.code)


def register_goldfish(state: type[GoldfishState], pilots: Mapping[str, Callable[[], Pilot]],
                      **engine: Any) -> GameEngine:
    """Register the engine of a ``GoldfishState`` game: its code and default options come from
    the state class, ``pilots`` (the first is the default) and the rest as in ``GameEngine``."""
    return register(GameEngine(game=state.GAME, new_state=state, pilots=pilots,
                               default_options=state.DEFAULT_OPTIONS, **engine))
