"""The engine contract shared by all five games.

In the spirit of OpenSpiel's ``State``: a game state exposes ``legal_actions()`` (stable order),
``apply(action)``, ``is_terminal()`` and ``result()``; a ``Pilot`` chooses among legal actions. All
randomness goes through the state's own ``random.Random`` seeded from ``(job seed, game index)`` as
the string ``f"{seed}:{index}"`` — stable across processes and machines, never the global RNG.

Aggregation (``RunStats``) only sums integer counters and histograms, so merging chunk results in
any order gives exactly the same totals as running every game in one process.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..cards import CardRecord

OUTCOMES = ("win", "loss", "draw", "capped")
DEFAULT_TURN_CAP = 40


def game_rng(seed: int | str, index: int) -> random.Random:
    """The one RNG of game ``index`` of a job with ``seed``."""
    return random.Random(f"{seed}:{index}")


@dataclass(frozen=True, slots=True)
class Action:
    """A decision. ``kind`` is a short verb (``play``, ``attack``, ``end``...); ``args`` its operands."""

    kind: str
    args: tuple = ()
    label: str = ""

    def __str__(self) -> str:
        return self.label or (f"{self.kind} {' '.join(map(str, self.args))}".strip())


def gettext_noop(message: str) -> str:
    """Mark an English message for translation and return it unchanged.

    The engines stay pure Python (no Django); the name is one that Django's ``makemessages``
    (xgettext) extracts, so end reasons, event templates and report descriptions written here land
    in the catalogs, and the presentation layer (``playtest/i18n.py``) translates them at render time.
    """
    return message


# Every event code -> its English template (``str.format`` fields named after the params). Engines
# register their tables with ``event_messages``; ``EventLog.add`` fills the English ``text`` from it.
EVENT_MESSAGES: dict[str, str] = {}


def event_messages(game: str, table: Mapping[str, str]) -> dict[str, str]:
    """Register ``{name: template}`` as event codes ``<game>.<name>``; returns the prefixed table."""
    prefixed = {f"{game}.{name}": template for name, template in table.items()}
    EVENT_MESSAGES.update(prefixed)
    return prefixed


def submessage(code: str, **params: Any) -> dict[str, Any]:
    """A phrase of its own inside an event's params (e.g. Lycee's ", paying ..."): rendered, and
    translated, like an event."""
    return {"code": code, "params": params}


def render_event(code: str, params: Mapping[str, Any]) -> str:
    """The English text of event ``code`` with ``params`` (submessages rendered first; a list of
    submessages is joined with ", ")."""
    return EVENT_MESSAGES[code].format(**{k: _render_param(v) for k, v in params.items()})


def _render_param(value: Any) -> Any:
    if isinstance(value, dict):
        return render_event(value["code"], value["params"])
    if isinstance(value, list):
        return ", ".join(str(_render_param(v)) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Event:
    turn: int
    player: str  # "me" or "opp"
    kind: str
    text: str  # English, filled from the code's template
    code: str = ""  # stable event code (``ws.draw``...); EVENT_MESSAGES holds its template
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "kind": self.kind, "text": self.text,
                "code": self.code, "params": dict(self.params)}


class EventLog:
    """A readable turn-by-turn record. Engines call ``add`` only when a log was requested.

    Each event has a stable ``code`` and its ``params`` (numbers, card names and short English terms
    such as slot names); the English ``text`` is the code's template filled with them, and the
    site renders the same code in the reader's language.
    """

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, turn: int, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``code`` (registered with ``event_messages``) with ``params``. A plain English
        line is still accepted in place of a code when no params are given (an engine without an
        event table, e.g. a test's toy game): it is logged with ``code=""`` and shown as it is."""
        if not params and code not in EVENT_MESSAGES:
            self.events.append(Event(turn, player, kind, code))
            return
        self.events.append(Event(turn, player, kind, render_event(code, params), code, params))

    def as_list(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self.events]

    def as_text(self) -> str:
        return "\n".join(f"T{e.turn:>2} {e.player:<3} {e.kind:<10} {e.text}" for e in self.events)


@dataclass(frozen=True)
class Deck:
    """A deck as the engines see it: card records, one per copy, per zone."""

    game: str
    main: tuple[CardRecord, ...]
    zones: Mapping[str, tuple[CardRecord, ...]] = field(default_factory=dict)
    partner: CardRecord | None = None

    @classmethod
    def from_counts(
        cls,
        game: str,
        counts: Mapping[str, Mapping[str, int]],
        cards: Mapping[str, CardRecord],
    ) -> Deck:
        """``counts`` is ``{zone: {code: count}}``; ``cards`` maps codes to records."""
        zones: dict[str, tuple[CardRecord, ...]] = {}
        for zone, entries in counts.items():
            zones[zone] = tuple(cards[code] for code, n in sorted(entries.items()) for _ in range(n))
        partner = None
        if zones.get("partner"):
            partner = zones["partner"][0]
        return cls(game=game, main=zones.pop("main", ()), zones=zones, partner=partner)

    def unmodelled(self) -> list[CardRecord]:
        """Distinct cards of this deck whose printed text the engine does not execute."""
        seen: dict[str, CardRecord] = {}
        for card in self.main + tuple(c for z in self.zones.values() for c in z):
            if card.unmodelled and card.code not in seen:
                seen[card.code] = card
        return sorted(seen.values(), key=lambda c: c.code)


@dataclass
class GameResult:
    """The outcome of one goldfish game."""

    index: int
    outcome: str  # one of OUTCOMES
    turn: int  # the player's own turn number on which the game ended
    reason: str = ""
    counters: dict[str, int] = field(default_factory=dict)
    # per-turn series (e.g. "life_taken": [0, 3, 5, ...]) indexed by own turn - 1
    per_turn: dict[str, list[int]] = field(default_factory=dict)
    # first own turn on which each card code could have been played (absent = never)
    first_playable: dict[str, int] = field(default_factory=dict)


class GameState(Protocol):
    rng: random.Random
    log: EventLog | None

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    def is_terminal(self) -> bool: ...

    def result(self) -> GameResult: ...


class Pilot(Protocol):
    name: str

    def choose(self, state: Any, actions: list[Action]) -> Action: ...


class ScriptedState:
    """Optional base class: a game state whose rules are one generator, ``script()``.

    The script runs the game as straight-line rulebook code and ``yield``s the *kind* of decision
    it needs (``"mulligan"``, ``"main"``...) whenever the turn player has a real choice; it receives
    the chosen option (a tuple) back from ``yield``. ``options_<kind>()`` lists the legal options
    for a kind in a stable order and ``label(kind, option)`` describes one for people. Everything
    else in the contract follows:

    - ``legal_actions()`` wraps the pending kind's options in ``Action(kind, option, label)``;
    - ``apply(action)`` checks the action is one of them and resumes the script;
    - ``is_terminal()`` is true once the script has returned;
    - ``play_out(pilot)`` is the fast path used by ``play_game`` when the pilot has ``decide``:
      it sends ``pilot.decide(state, kind)`` straight into the script without building actions.
      Both paths give the same game for the same pilot (a test proves it per game).
    """

    rng: random.Random
    log: EventLog | None
    pending: str | None = None

    def start(self, script: Generator[str, tuple, None] | None = None) -> None:
        """Call at the end of ``__init__``: runs the script up to its first decision.

        Scenario tests pass another generator (e.g. one turn of a state they set up by hand) and
        then drive it through ``legal_actions``/``apply`` like a whole game."""
        self._script = self.script() if script is None else script
        self._resume(None)

    def script(self) -> Generator[str, tuple, None]:  # pragma: no cover - abstract
        raise NotImplementedError

    def options(self, kind: str) -> list[tuple]:
        return getattr(self, f"options_{kind}")()

    def label(self, kind: str, option: tuple) -> str:
        return f"{kind} {' '.join(map(str, option))}".strip()

    def _resume(self, value: tuple | None) -> None:
        try:
            self.pending = self._script.send(value)
        except StopIteration:
            self.pending = None

    def legal_actions(self) -> list[Action]:
        kind = self.pending
        if kind is None:
            return []
        return [Action(kind, opt, self.label(kind, opt)) for opt in self.options(kind)]

    def apply(self, action: Action) -> None:
        kind = self.pending
        if kind is None:
            raise ValueError("the game is over; no action can be applied")
        if action.kind != kind or tuple(action.args) not in self.options(kind):
            raise ValueError(f"illegal action {action} at a {kind!r} decision")
        self._resume(tuple(action.args))

    def is_terminal(self) -> bool:
        return self.pending is None

    def play_out(self, pilot: Any) -> None:
        """Play to the end, asking ``pilot.decide(state, kind)`` at every decision.

        A pilot may also offer ``dispatch``, a mapping ``kind -> function(pilot, state)`` that
        ``decide`` would call; the loop then calls it directly (one call less per decision)."""
        send = self._script.send
        kind = self.pending
        dispatch = getattr(pilot, "dispatch", None)
        try:
            if dispatch is not None:
                while kind is not None:
                    self.pending = kind
                    kind = send(dispatch[kind](pilot, self))
            else:
                decide = pilot.decide
                while kind is not None:
                    self.pending = kind
                    kind = send(decide(self, kind))
        except StopIteration:
            pass
        self.pending = None


class ScriptedPilot:
    """Base class for pilots of ``ScriptedState`` games: one method ``d_<kind>(self, state)`` per
    decision kind, returning the chosen option (or override ``decide(state, kind)``).

    The ``d_<kind>`` methods (inherited ones too) form ``dispatch``, the table ``play_out`` calls
    directly; ``choose`` (the generic contract) maps the decided option onto the offered actions, so
    a pilot behaves identically on the fast path and through ``legal_actions``/``apply``.
    """

    name = "scripted"
    dispatch: Mapping[str, Callable[[Any, Any], tuple]] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = {name[2:]: fn for klass in reversed(cls.__mro__) for name, fn in vars(klass).items()
                 if name.startswith("d_") and callable(fn)}
        if table:
            cls.dispatch = table

    def decide(self, state: Any, kind: str) -> tuple:
        if self.dispatch is None:  # pragma: no cover - a pilot without d_ methods overrides decide
            raise NotImplementedError(f"pilot {self.name} has no d_ methods and no decide()")
        return self.dispatch[kind](self, state)

    def choose(self, state: Any, actions: list[Action]) -> Action:
        option = self.decide(state, actions[0].kind)
        for action in actions:
            if action.args == option:
                return action
        raise ValueError(f"pilot {self.name} chose {option!r}, which is not a legal {actions[0].kind!r} action")


class RandomPilot:
    """Chooses uniformly among the legal actions with the game's own RNG (property tests, fuzzing)."""

    name = "random"

    def choose(self, state: Any, actions: list[Action]) -> Action:
        return actions[state.rng.randrange(len(actions))]


def who_goes_first(option: str, rng: random.Random, index: int) -> bool:
    """Resolve the ``first`` option: ``True`` when the deck's player goes first.

    ``random`` (the default everywhere) flips the game's own RNG, like a real coin toss;
    ``alternate`` goes first in even-numbered games, second in odd ones (exactly half each);
    ``me`` / ``opp`` (also ``first`` / ``second``) fix it.
    """
    if option in ("me", "first"):
        return True
    if option in ("opp", "second"):
        return False
    if option == "alternate":
        return index % 2 == 0
    if option == "random":
        return rng.random() < 0.5
    raise ValueError(f"unknown 'first' option {option!r}; expected random, alternate, me or opp")


COMMON_OPTIONS: dict[str, str] = {
    "first": gettext_noop("who goes first: random (a coin flip with the game's RNG, default), alternate "
             "(first in even-numbered games), me, opp"),
    "turn_cap": gettext_noop("stop a game after this many of the player's own turns (counted as capped)"),
}
# Every report splits by who went first (counters ``first_games``/``second_games``,
# ``first_wins``/``second_wins``, ``first_win_turns``/``second_win_turns``, kept by every engine).
COMMON_RATIOS: dict[str, tuple[str, str]] = {
    "win_rate_going_first": ("first_wins", "first_games"),
    "win_rate_going_second": ("second_wins", "second_games"),
}
# The mean turn of a win by who went first (the engines that report it list these in ``ratios``).
WIN_TURN_RATIOS: dict[str, tuple[str, str]] = {
    "mean_win_turn_going_first": ("first_win_turns", "first_wins"),
    "mean_win_turn_going_second": ("second_win_turns", "second_wins"),
}


@dataclass(frozen=True)
class GameEngine:
    """A game's registration: how to start a game and which pilots it offers."""

    game: str
    new_state: Callable[..., GameState]  # (deck, rng, index, options, log) -> GameState
    pilots: Mapping[str, Callable[[], Pilot]]
    default_options: Mapping[str, Any] = field(default_factory=dict)
    describe_options: Mapping[str, str] = field(default_factory=dict)
    # Options derived from the whole catalog of the game (e.g. Phantasmagoria's median dummy ACE):
    # callers that have a catalog (goldfish command, playtest jobs) call it with every card record
    # of the game and pass the result as options; explicit user options override it.
    catalog_options: Callable[[Iterable[CardRecord]], dict[str, Any]] | None = None
    # Report extras computed from counters: ``{name: (numerator counter, denominator counter)}``
    # (e.g. WS ``"cancel_rate": ("cancels", "damage_events")``) and a description per counter,
    # ratio or per-turn series for reports. ``RunStats.summary()`` reads them by game code.
    ratios: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    describe_extras: Mapping[str, str] = field(default_factory=dict)
    # The coverage contract (``rules.coverage``): how the engine treats one compiled ability of a
    # card (played / no effect in goldfish / not played, with why), and why it never plays a card
    # (``None``: it plays it). Engines without them keep the ``text_modelled`` rule.
    classify_ability: Callable[[Any, CardRecord], Any] | None = None
    plays_card: Callable[[CardRecord], str | None] | None = None

    def __post_init__(self) -> None:
        # Options every engine understands and the ratios every report has are declared once,
        # here; a game may refine them.
        object.__setattr__(self, "describe_options", {**COMMON_OPTIONS, **self.describe_options})
        object.__setattr__(self, "ratios", {**COMMON_RATIOS, **self.ratios})

    @property
    def default_pilot(self) -> str:
        return next(iter(self.pilots))


_REGISTRY: dict[str, GameEngine] = {}


def register(engine: GameEngine) -> GameEngine:
    _REGISTRY[engine.game] = engine
    return engine


def get_engine(game: str) -> GameEngine:
    """The engine of ``game``: its package ``rules.<game>.engine`` registers it on first import."""
    if game not in _REGISTRY:
        import importlib

        module = f"rules.{game}.engine"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name not in (module, f"rules.{game}"):
                raise  # the engine exists but one of its imports is missing: a real error
            raise KeyError(f"no goldfish engine for game {game!r}") from exc
        if game not in _REGISTRY:
            raise KeyError(f"no goldfish engine for game {game!r}")
    return _REGISTRY[game]


def all_engines() -> list[GameEngine]:
    """The engine of every game that has one, in ``rules.games.GAMES`` order (a new game package
    with an ``engine`` subpackage is found here with no other change)."""
    from ..games import GAMES

    out = []
    for game in GAMES:
        try:
            out.append(get_engine(game))
        except KeyError:
            continue
    return out


def play_game(
    deck: Deck,
    seed: int | str,
    index: int,
    options: Mapping[str, Any] | None = None,
    pilot: str | None = None,
    log: bool = False,
) -> tuple[GameResult, EventLog | None]:
    """Play game ``index`` of a job with ``seed``; the same arguments always give the same game."""
    return _Run(deck, options, pilot).play(seed, index, log)


class _Run:
    """What every game of a run shares, looked up once: the engine, the options (engine defaults
    and the turn cap filled in) and the pilot's factory (each game gets a new pilot)."""

    __slots__ = ("deck", "new_pilot", "new_state", "opts")

    def __init__(self, deck: Deck, options: Mapping[str, Any] | None, pilot: str | None) -> None:
        engine = get_engine(deck.game)
        opts = {**engine.default_options, **(options or {})}
        opts.setdefault("turn_cap", DEFAULT_TURN_CAP)
        self.deck = deck
        self.opts = opts
        self.new_state = engine.new_state
        self.new_pilot = engine.pilots[pilot or engine.default_pilot]

    def play(self, seed: int | str, index: int, log: bool = False) -> tuple[GameResult, EventLog | None]:
        the_pilot = self.new_pilot()
        event_log = EventLog() if log else None
        state = self.new_state(self.deck, game_rng(seed, index), index, self.opts, event_log)
        if hasattr(state, "play_out") and hasattr(the_pilot, "decide"):
            state.play_out(the_pilot)  # the fast path of ScriptedState (same game, no Action objects)
        else:
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply(actions[0] if len(actions) == 1 else the_pilot.choose(state, actions))
        return state.result(), event_log


@dataclass
class RunStats:
    """Integer totals over many games; ``merge`` is exact and order-independent."""

    game: str
    games: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    win_turns: dict[int, int] = field(default_factory=dict)  # turn -> wins on that turn
    loss_turns: dict[int, int] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    per_turn: dict[str, dict[int, int]] = field(default_factory=dict)  # series -> turn -> total
    first_playable: dict[str, dict[int, int]] = field(default_factory=dict)  # code -> turn -> games
    reasons: dict[str, int] = field(default_factory=dict)
    # own turn -> games that played it (denominator of the per-turn means; added later, so
    # ``from_dict`` accepts dicts without it)
    turns_reached: dict[int, int] = field(default_factory=dict)

    def add(self, r: GameResult) -> None:
        # (each total is added to where it exists, and created the first time: ``KeyError`` then,
        # once per name or turn of a run; the same totals as ``d[k] = d.get(k, 0) + v``, faster)
        self.games += 1
        reached = self.turns_reached
        for t in range(1, r.turn + 1):
            try:
                reached[t] += 1
            except KeyError:
                reached[t] = 1
        self.outcomes[r.outcome] = self.outcomes.get(r.outcome, 0) + 1
        if r.outcome == "win":
            self.win_turns[r.turn] = self.win_turns.get(r.turn, 0) + 1
        elif r.outcome == "loss":
            self.loss_turns[r.turn] = self.loss_turns.get(r.turn, 0) + 1
        if r.reason:
            self.reasons[r.reason] = self.reasons.get(r.reason, 0) + 1
        counters = self.counters
        for k, v in r.counters.items():
            try:
                counters[k] += v
            except KeyError:
                counters[k] = v
        for series, values in r.per_turn.items():
            bucket = self.per_turn.setdefault(series, {})
            for i, v in enumerate(values, start=1):
                bucket[i] = bucket.get(i, 0) + v
        first_playable = self.first_playable
        for code, turn in r.first_playable.items():
            try:
                bucket = first_playable[code]
            except KeyError:
                bucket = first_playable[code] = {}
            try:
                bucket[turn] += 1
            except KeyError:
                bucket[turn] = 1

    def merge(self, other: RunStats) -> RunStats:
        def add_into(dst: dict, src: dict) -> None:
            for k, v in src.items():
                if isinstance(v, dict):
                    add_into(dst.setdefault(k, {}), v)
                else:
                    dst[k] = dst.get(k, 0) + v

        self.games += other.games
        for name in (
            "outcomes", "win_turns", "loss_turns", "counters", "per_turn", "first_playable", "reasons",
            "turns_reached",
        ):
            add_into(getattr(self, name), getattr(other, name))
        return self

    # -- serialisation (JSON keys are strings) -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def keys_to_str(d: dict) -> dict:
            return {str(k): keys_to_str(v) if isinstance(v, dict) else v for k, v in sorted(d.items(), key=lambda kv: str(kv[0]))}

        return {
            "game": self.game,
            "games": self.games,
            "outcomes": dict(self.outcomes),
            "win_turns": keys_to_str(self.win_turns),
            "loss_turns": keys_to_str(self.loss_turns),
            "counters": dict(sorted(self.counters.items())),
            "per_turn": keys_to_str(self.per_turn),
            "first_playable": keys_to_str(self.first_playable),
            "reasons": dict(sorted(self.reasons.items())),
            "turns_reached": keys_to_str(self.turns_reached),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RunStats:
        def int_keys(x: Mapping) -> dict[int, int]:
            return {int(k): v for k, v in x.items()}

        return cls(
            game=d["game"],
            games=d["games"],
            outcomes=dict(d["outcomes"]),
            win_turns=int_keys(d["win_turns"]),
            loss_turns=int_keys(d["loss_turns"]),
            counters=dict(d["counters"]),
            per_turn={k: int_keys(v) for k, v in d["per_turn"].items()},
            first_playable={k: int_keys(v) for k, v in d["first_playable"].items()},
            reasons=dict(d.get("reasons", {})),
            turns_reached=int_keys(d.get("turns_reached", {})),
        )

    # -- summary -------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """Human-facing statistics: win-turn distribution, cumulative win curve, rates."""
        wins = self.outcomes.get("win", 0)
        turns = sorted(self.win_turns)
        values: list[int] = []
        for t in turns:
            values.extend([t] * self.win_turns[t])
        out: dict[str, Any] = {
            "games": self.games,
            "wins": wins,
            "losses": self.outcomes.get("loss", 0),
            "draws": self.outcomes.get("draw", 0),
            "capped": self.outcomes.get("capped", 0),
            "win_rate": wins / self.games if self.games else 0.0,
            "turn_of_win": None,
            "win_histogram": {str(t): self.win_turns[t] for t in turns},
            "loss_histogram": {str(t): self.loss_turns[t] for t in sorted(self.loss_turns)},
            "cumulative_win_probability": {},
            "reasons": dict(sorted(self.reasons.items())),
        }
        if values:
            n = len(values)
            mean = sum(values) / n
            var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
            half = 1.96 * math.sqrt(var / n) if n > 1 else 0.0
            out["turn_of_win"] = {
                "mean": mean,
                "median": _quantile(values, 0.5),
                "p10": _quantile(values, 0.1),
                "p90": _quantile(values, 0.9),
                "stdev": math.sqrt(var),
                "ci95": [mean - half, mean + half],
            }
            acc = 0
            for t in range(1, max(turns) + 1):
                acc += self.win_turns.get(t, 0)
                out["cumulative_win_probability"][str(t)] = acc / self.games
        out["first_playable"] = {
            code: {
                "games": sum(hist.values()),
                "share": sum(hist.values()) / self.games if self.games else 0.0,
                "mean_turn": sum(t * c for t, c in hist.items()) / sum(hist.values()),
                "median_turn": _hist_quantile(hist, 0.5),
                "earliest": min(hist),
                "histogram": {str(t): hist[t] for t in sorted(hist)},
            }
            for code, hist in sorted(self.first_playable.items())
        }
        out["extras"] = self.extras()
        return out

    def extras(self) -> dict[str, Any]:
        """The per-game extras, generically from counters and per-turn series.

        - ``counters``: every counter's total and mean per game;
        - ``ratios``: the engine's declared ratios (``GameEngine.ratios``), numerator over
          denominator (``None`` when the denominator is 0);
        - ``per_turn``: every series' mean per game *that played that own turn*;
        - ``descriptions``: what each name means (``GameEngine.describe_extras``).
        """
        engine = _REGISTRY.get(self.game)
        if engine is None:
            try:
                engine = get_engine(self.game)
            except KeyError:
                engine = None
        games = self.games or 1
        counters = {
            k: {"total": v, "per_game": v / games} for k, v in sorted(self.counters.items())
        }
        ratios: dict[str, Any] = {}
        for name, (num, den) in sorted((engine.ratios if engine else {}).items()):
            n, d = self.counters.get(num, 0), self.counters.get(den, 0)
            ratios[name] = {"value": n / d if d else None, "numerator": num, "denominator": den,
                            "n": n, "d": d}
        per_turn: dict[str, dict[str, float]] = {}
        for series, bucket in sorted(self.per_turn.items()):
            per_turn[series] = {
                str(t): bucket.get(t, 0) / (self.turns_reached.get(t) or games)
                for t in sorted(set(bucket) | set(self.turns_reached))
            }
        return {
            "counters": counters,
            "ratios": ratios,
            "per_turn": per_turn,
            "turns_reached": {str(t): n for t, n in sorted(self.turns_reached.items())},
            "descriptions": dict(engine.describe_extras) if engine else {},
        }


def _hist_quantile(hist: Mapping[int, int], q: float) -> float:
    values: list[int] = []
    for t in sorted(hist):
        values.extend([t] * hist[t])
    return _quantile(values, q)


def _quantile(sorted_values: list[int], q: float) -> float:
    """Linear-interpolated quantile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def run_games(
    deck: Deck,
    seed: int | str,
    indices: Iterable[int],
    options: Mapping[str, Any] | None = None,
    pilot: str | None = None,
) -> RunStats:
    """Play the games with the given indices and total their statistics."""
    stats = RunStats(game=deck.game)
    play = _Run(deck, options, pilot).play
    add = stats.add
    for i in indices:
        add(play(seed, i)[0])
    return stats


def coverage_report(deck: Deck) -> dict[str, Any]:
    """What the engine models of the deck, for every report: ``rules.coverage.game_deck_coverage``
    over every copy of every zone (``N of M cards fully modelled (x% of copies)`` and the cards that
    are not, each with its copies and its abilities' statuses)."""
    from ..coverage import game_deck_coverage

    return game_deck_coverage(deck.game, deck.main + tuple(c for z in deck.zones.values() for c in z))


def run_report(deck: Deck, stats: RunStats, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``stats.summary()`` plus what every goldfish report must say: what the engine models of the
    deck (``coverage``) and the options the games ran with (engine defaults filled in)."""
    engine = get_engine(deck.game)
    opts = {**engine.default_options, **(options or {})}
    opts.setdefault("turn_cap", DEFAULT_TURN_CAP)
    out = stats.summary()
    out["game"] = deck.game
    out["options"] = {k: v for k, v in sorted(opts.items()) if isinstance(v, (str, int, float, bool, type(None)))}
    out["coverage"] = coverage_report(deck)
    return out
