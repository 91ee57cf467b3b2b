"""A tiny real goldfish engine for the playtest tests ("race to 20"), registered for game ``chaos``.

It follows the engine contract (legal actions, apply, terminal, result, a pilot, the game's own RNG,
an event log) so the playtest jobs run it exactly as they run the real engines. ``install`` puts it
in the registry; ``uninstall`` restores what was there. Celery workers started by the tests import
this module (``-I tests.test_playtest_toy``) and install it when ``PLAYTEST_TOY_ENGINE=1``.
"""
from __future__ import annotations

import os

from rules.engine import core
from rules.engine.core import Action, GameEngine, GameResult

GAME = "chaos"
TARGET = 20


class ToyState:
    def __init__(self, deck, rng, index, options, log):
        self.rng, self.log, self.index = rng, log, index
        self.cap = options["turn_cap"]
        self.target = options.get("target", TARGET)
        self.library = list(deck.main)
        rng.shuffle(self.library)
        self.hand = [self.library.pop() for _ in range(min(5, len(self.library)))]
        self.field = []
        self.turn = 1
        self.played = False
        self.damage = 0
        self.outcome = None
        self.counters = {"attacks": 0, "damage": 0}
        self.per_turn = {"damage": []}
        self.first_playable = {}
        for code in {c.code for c in self.hand}:
            self.counters[f"opening:{code}"] = 1
        self._note_playable()
        if log is not None:
            log.add(1, "me", "draw", "opening hand: " + ", ".join(c.code for c in self.hand))

    def _note_playable(self):
        for c in self.hand:
            self.first_playable.setdefault(c.code, self.turn)

    def legal_actions(self):
        if self.outcome:
            return []
        acts = []
        if not self.played:
            seen = set()
            for c in self.hand:
                if c.code not in seen:
                    seen.add(c.code)
                    acts.append(Action("play", (c.code,), f"play {c.code}"))
        acts.append(Action("end", (), "attack and end turn"))
        return acts

    def apply(self, action):
        if action.kind == "play":
            card = next(c for c in self.hand if c.code == action.args[0])
            self.hand.remove(card)
            self.field.append(card)
            self.played = True
            if self.log is not None:
                self.log.add(self.turn, "me", "play", f"{card.code} {card.name} (ATK {card.atk})")
            return
        dealt = sum(c.atk or 0 for c in self.field)
        if self.field:
            self.counters["attacks"] += len(self.field)
        self.counters["damage"] += dealt
        self.per_turn["damage"].append(dealt)
        self.damage += dealt
        if self.log is not None:
            self.log.add(self.turn, "me", "attack", f"{len(self.field)} attacker(s) deal {dealt}; total {self.damage}")
        if self.damage >= self.target:
            self.outcome, self.reason = "win", f"dealt {self.target}"
            return
        if self.turn >= self.cap:
            self.outcome, self.reason = "capped", "turn cap"
            return
        self.turn += 1
        self.played = False
        if not self.library:
            self.outcome, self.reason = "loss", "decked out"
            return
        card = self.library.pop()
        self.hand.append(card)
        self._note_playable()
        if self.log is not None:
            self.log.add(self.turn, "me", "draw", f"draw {card.code}")

    def is_terminal(self):
        return self.outcome is not None

    def result(self):
        return GameResult(self.index, self.outcome, self.turn, self.reason, dict(self.counters),
                          {k: list(v) for k, v in self.per_turn.items()}, dict(self.first_playable))


class GreedyPilot:
    name = "greedy"

    def choose(self, state, actions):
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[-1]
        atk = {c.code: c.atk or 0 for c in state.hand}
        return max(plays, key=lambda a: (atk[a.args[0]], a.args[0]))


class PatientPilot:
    """Plays the weakest card: a worse pilot, for comparisons."""

    name = "patient"

    def choose(self, state, actions):
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[-1]
        atk = {c.code: c.atk or 0 for c in state.hand}
        return min(plays, key=lambda a: (atk[a.args[0]], a.args[0]))


ENGINE = GameEngine(
    game=GAME, new_state=ToyState, pilots={"greedy": GreedyPilot, "patient": PatientPilot},
    default_options={"target": TARGET}, describe_options={"target": "damage needed to win"},
)
_saved: list = []


def install() -> None:
    _saved.append(core._REGISTRY.get(GAME))
    core.register(ENGINE)


def uninstall() -> None:
    prev = _saved.pop() if _saved else None
    if prev is None:
        core._REGISTRY.pop(GAME, None)
    else:
        core._REGISTRY[GAME] = prev


if os.environ.get("PLAYTEST_TOY_ENGINE") == "1":
    core.register(ENGINE)


# -- fixtures shared by the playtest tests (imported by tests/test_playtest_*.py) --------------------
import pytest  # noqa: E402

TOY_CARDS = [
    # code, name, atk, text (free text = unmodelled)
    (f"TOY-{i:03d}", f"Toy Fighter {i}", 1 + i % 5, "When this attacks, draw a card." if i in (3, 7) else "")
    for i in range(1, 14)
]


def toy_zones() -> dict[str, dict[str, int]]:
    main = {code: 4 for code, *_ in TOY_CARDS[:12]}
    main[TOY_CARDS[12][0]] = 2
    return {"main": main, "partner": {TOY_CARDS[0][0]: 1}}


def toy_text() -> str:
    zones = toy_zones()
    lines = [f"{n} {code}" for code, n in zones["main"].items()]
    return "\n".join(lines) + "\n# partner\n1 TOY-001 Toy Fighter 1\n"


@pytest.fixture
def toy_engine():
    install()
    yield ENGINE
    uninstall()


@pytest.fixture
def toy_cards(db):
    from catalog.models import Card

    return [
        Card.objects.create(game=GAME, code=code, name=name, card_type="character", atk=atk, defense=1,
                            title="Toy", person=name, gender="female", attributes=["fire"], text=text)
        for code, name, atk, text in TOY_CARDS
    ]


@pytest.fixture
def inline_jobs(settings):
    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 7
    settings.PLAYTEST_CANCEL_CHECK_GAMES = 3
    return settings
