"""Weiß Schwarz goldfish engine (GAMES.md §3): the state and its turn script.

The player's deck plays against the goldfish: an empty stage (every attack is a direct attack,
+1 soul) and a dummy 50-card deck holding ``dummy_climaxes`` climaxes that draws 5 at setup and 1 a
turn, never clocks or plays, discards down to 7, refreshes and takes refresh damage. The player wins
when the dummy reaches level 4; the player loses on reaching level 4 (clock + refresh damage) or
when a refresh finds an empty waiting room.

The rules are one generator (``WSState._setup`` and ``_my_turn`` in ``GoldfishState.script``), read
top to bottom like the rulebook; it yields the kind of decision it needs and the pilot answers with
an option tuple (see ``core.ScriptedState``).
Decision kinds and their options:

- ``mulligan``: ``("discard", code)`` sets a hand card aside, ``("keep",)`` ends (the set-aside cards
  go to the waiting room and that many are drawn);
- ``clock``: ``("clock", code)`` or ``("skip",)``;
- ``level_up``: ``("level", code)`` — which of the 7 clock cards goes to the level zone;
- ``main``: ``("play", code, slot)``, ``("event", code)``, ``("move", a, b)`` (swap / move between
  stage slots 0-2 front, 3-4 back), ``("end",)``;
- ``climax``: ``("place", code)`` or ``("skip",)``;
- ``attack``: ``("attack", slot)`` or ``("end",)``;
- triggers: ``draw`` / ``pool``: ``("yes",)`` / ``("no",)``; ``comeback`` / ``gate``:
  ``("take", code)`` / ``("skip",)``; ``choice``: ``("hand", code)`` / ``("stock", code)`` /
  ``("skip",)``; ``standby``: ``("place", code, slot)`` / ``("skip",)``;
- ``encore``: ``("encore",)`` / ``("skip",)`` (pay 3 stock, back rested in the slot it left);
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import DeckCache, distinct_codes, shuffle, take
from rules.engine.core import Deck, gettext_noop
from rules.engine.goldfish import CodeNames, GoldfishState

from .events import GAME

OPENING_HAND = 5
HAND_LIMIT = 7
ENCORE_COST = 3
SLOTS = ("front-left", "front-center", "front-right", "back-left", "back-right")
FRONT = (0, 1, 2)
STAND, REST, REVERSED = 0, 1, 2

DUMMY_CLIMAX = CardRecord(game=GAME, code="DUMMY-CX", name="dummy climax", card_type="climax")
DUMMY_CARD = CardRecord(game=GAME, code="DUMMY-CH", name="dummy character", card_type="character",
                        level=0, cost=0, power=0, soul=0)


def char_score(card: CardRecord) -> tuple:
    """How good a character is on the stage: soul, level, power, cheapness."""
    return (card.soul or 0, card.level or 0, card.power or 0, -(card.cost or 0))


def climax_bonus(card: CardRecord) -> tuple[int, int]:
    """``(power, soul)`` a climax gives all your characters: its structured ``climax_bonus`` effects."""
    power = soul = 0
    for eff in card.effects:
        if eff.get("kind") == "climax_bonus":
            power += int(eff.get("power", 0) or 0)
            soul += int(eff.get("soul", 0) or 0)
    return power, soul


def _deck_info(deck: Deck) -> dict[str, Any]:
    """Per-deck precomputation: names and climax bonuses by code."""
    names: dict[str, str] = {DUMMY_CLIMAX.code: DUMMY_CLIMAX.name, DUMMY_CARD.code: DUMMY_CARD.name}
    bonus: dict[str, tuple[int, int]] = {}
    for c in deck.main:
        names[c.code] = c.name
        if c.card_type == "climax":
            bonus[c.code] = climax_bonus(c)
    # the greedy pilot's static wish to keep a card (see GreedyPilot.worst_card)
    values = {c.code: (-1.0 if c.card_type == "climax" else 0.5 if c.card_type == "event"
                       else 10.0 + (c.soul or 0) * 3 + (c.power or 0) / 5000) for c in deck.main}
    scores = {c.code: char_score(c) for c in deck.main if c.card_type == "character"}
    return {"names": names, "bonus": bonus, "values": values, "scores": scores}


_INFO = DeckCache(_deck_info)


class WSState(CodeNames, GoldfishState):
    """One goldfish game of Weiß Schwarz. Zones are public attributes so tests can set them up."""

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_climaxes": 8}
    COUNTERS = (
        "games", "went_first", "attacks", "attack_soul", "damage_events", "damage_dealt", "cancels", "shots",
        "shot_damage", "refreshes", "refresh_damage", "opp_refreshes", "opp_refresh_damage", "clocked",
        "level_ups", "characters_played", "events_played", "climaxes_placed", "encores", "mulligan_cards",
        "first_games", "second_games", "first_wins", "second_wins", "first_win_turns", "second_win_turns",
    ) + tuple(f"trigger_{t}" for t in ("soul", "draw", "pool", "comeback", "return", "treasure", "shot",
                                       "gate", "choice", "standby"))
    PER_TURN = {"damage": "damage_dealt"}

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        info = _INFO.get(deck)
        self.names: dict[str, str] = info["names"]
        self.bonus: dict[str, tuple[int, int]] = info["bonus"]
        self.values: dict[str, float] = info["values"]
        self.scores: dict[str, tuple] = info["scores"]
        n_cx = int(opts.get("dummy_climaxes", 8))
        if not 0 <= n_cx <= 50:
            raise ValueError(f"dummy_climaxes must be between 0 and 50 (got {n_cx})")
        # the player's zones
        self.clock: list[CardRecord] = []
        self.level: list[CardRecord] = []
        self.stock: list[CardRecord] = []
        self.waiting: list[CardRecord] = []
        self.memory: list[CardRecord] = []
        self.climax: CardRecord | None = None
        self.stage: list[CardRecord | None] = [None] * 5
        self.stage_state: list[int] = [STAND] * 5
        self.entered: list[bool] = [False] * 5
        # the goldfish's zones
        self.odeck: list[CardRecord] = [DUMMY_CLIMAX] * n_cx + [DUMMY_CARD] * (50 - n_cx)
        self.ohand: list[CardRecord] = []
        self.oclock: list[CardRecord] = []
        self.olevel: list[CardRecord] = []
        self.owaiting: list[CardRecord] = []
        self.orevealed: list[CardRecord] = []  # damage being revealed
        # bookkeeping
        self.oturn = 0
        self.attacks_left = 0
        self.soul_bonus = 0
        self.power_bonus = 0
        self.pen_me = 0
        self.pen_opp = 0
        self._opp_active = False

    # -- helpers -------------------------------------------------------------------------------
    def bonus_of(self, card: CardRecord) -> tuple[int, int]:
        b = self.bonus.get(card.code)
        return climax_bonus(card) if b is None else b

    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``ws.<code>``, numbered with the own-turn number of whoever's turn it is."""
        self.log.add(self.oturn if self._opp_active else self.turn, player, kind,  # type: ignore[union-attr]
                     "ws." + code, **params)

    def my_level(self) -> int:
        return len(self.level)

    def colors_available(self) -> set[str]:
        out: set[str] = set()
        for c in self.clock:
            out.update(c.colors)
        for c in self.level:
            out.update(c.colors)
        return out

    def can_play(self, card: CardRecord, colors: set[str] | None = None) -> bool:
        """Level, stock cost and color requirement (level-0 cards ignore color)."""
        if card.card_type == "climax":
            return self._color_ok(card, colors)
        lv = card.level or 0
        if lv > len(self.level) or (card.cost or 0) > len(self.stock):
            return False
        return lv == 0 or self._color_ok(card, colors)

    def _color_ok(self, card: CardRecord, colors: set[str] | None) -> bool:
        if not card.colors:
            return True
        have = self.colors_available() if colors is None else colors
        for col in card.colors:
            if col in have:
                return True
        return False

    def soul_of(self, slot: int) -> int:
        card = self.stage[slot]
        return (card.soul or 0) + self.soul_bonus if card is not None else 0

    def power_of(self, slot: int) -> int:
        card = self.stage[slot]
        return (card.power or 0) + self.power_bonus if card is not None else 0

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "clock": self.clock, "level": self.level,
                "stock": self.stock, "waiting": self.waiting, "memory": self.memory,
                "climax": [] if self.climax is None else [self.climax],
                "resolving": self.resolving + self._aside, "stage": [c for c in self.stage if c is not None]}

    def goldfish_zones(self) -> dict[str, list[CardRecord]]:
        """The goldfish's cards (its 50-card dummy deck), wherever they are."""
        return {"deck": self.odeck, "hand": self.ohand, "clock": self.oclock, "level": self.olevel,
                "waiting": self.owaiting, "revealed": self.orevealed}

    # -- decks and refreshes -------------------------------------------------------------------
    def _refill(self) -> None:
        """The player's refresh: the waiting room becomes the deck (1 refresh damage follows)."""
        if not self.waiting:
            self._end("loss", gettext_noop("refresh with an empty waiting room"))
        deck = self.waiting
        self.waiting = []
        shuffle(self.rng, deck)
        self.deck = deck
        self.pen_me += 1
        self.counters["refreshes"] += 1
        if self.log is not None:
            self.say("me", "refresh", "refresh", count=len(deck))

    def _refresh_opp(self) -> None:
        if not self.owaiting:
            self._end("win", gettext_noop("the goldfish must refresh with an empty waiting room"))
        deck = self.owaiting
        self.owaiting = []
        shuffle(self.rng, deck)
        self.odeck = deck
        self.pen_opp += 1
        self.counters["opp_refreshes"] += 1
        if self.log is not None:
            self.say("opp", "refresh", "refresh", count=len(deck))

    def _draw(self, n: int, why: str = "draw") -> None:
        deck = self.deck
        hand = self.hand
        for _ in range(n):
            card = deck.pop()
            if not deck:
                hand.append(card)
                self._refill()
                deck = self.deck
            else:
                hand.append(card)
            if self.log is not None:
                self.say("me", "draw", "draw", why=why, card=self.name(card.code))

    def _otop(self) -> CardRecord:
        card = self.odeck.pop()
        if not self.odeck:
            self.orevealed.append(card)
            self._refresh_opp()
            self.orevealed.pop()
        return card

    # -- clock and level -----------------------------------------------------------------------
    def _level_up_me(self) -> Generator[str, tuple, None]:
        while len(self.clock) >= 7:
            seven = self.clock[:7]
            rest = self.clock[7:]
            if len(distinct_codes(seven)) > 1:
                _, code = yield "level_up"
            else:
                code = seven[0].code
            chosen = take(seven, code)
            self.level.append(chosen)
            self.waiting.extend(seven)
            self.clock = rest
            self.counters["level_ups"] += 1
            if self.log is not None:
                self.say("me", "level up", "level_up", card=self.name(code), level=len(self.level))
            if len(self.level) >= 4:
                self._end("loss", gettext_noop("reached level 4"))

    def _level_up_opp(self) -> None:
        while len(self.oclock) >= 7:
            seven = self.oclock[:7]
            self.oclock = self.oclock[7:]
            # Decision: the goldfish levels up with its oldest non-climax card (keeping climaxes in
            # the cycle, as a defending player would), else its oldest card.
            pick = 0
            for i, c in enumerate(seven):
                if c.card_type != "climax":
                    pick = i
                    break
            self.olevel.append(seven.pop(pick))
            self.owaiting.extend(seven)
            if self.log is not None:
                self.say("opp", "level up", "opp_level_up", level=len(self.olevel))
            if len(self.olevel) >= 4:
                self._end("win", gettext_noop("the goldfish reached level 4"))

    def _settle(self) -> Generator[str, tuple, None]:
        """Apply pending refresh damage (never cancelled) for both players, then level-ups."""
        while self.pen_opp:
            self.pen_opp -= 1
            card = self._otop()
            self.oclock.append(card)
            self.counters["opp_refresh_damage"] += 1
            if self.log is not None:
                self.say("opp", "damage", "refresh_damage", card=card.name)
            self._level_up_opp()
        while self.pen_me:
            self.pen_me -= 1
            card = self._top()
            self.clock.append(card)
            self.counters["refresh_damage"] += 1
            if self.log is not None:
                self.say("me", "damage", "refresh_damage", card=self.name(card.code))
            yield from self._level_up_me()

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> Generator[str, tuple, None]:
        rng = self.rng
        shuffle(rng, self.deck)
        shuffle(rng, self.odeck)
        log = self.log
        if log is not None:
            self.say("me", "setup", "setup", order="first" if self.went_first else "second")
        self._draw(OPENING_HAND, "opening hand")
        for _ in range(OPENING_HAND):
            self.ohand.append(self._otop())
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        # mulligan: set aside any number, then discard them and draw that many
        yield from self._set_aside()
        if self._aside:
            n = len(self._aside)
            if log is not None:
                self.say("me", "mulligan", "mulligan", cards=", ".join(self.name(c.code) for c in self._aside))
            self.waiting.extend(self._aside)
            self._aside = []
            self._draw(n, "mulligan")
            self.counters["mulligan_cards"] += n
            if self.pen_me or self.pen_opp:
                yield from self._settle()

    def _opp_turn(self, first: bool = False) -> None:
        self.oturn += 1
        self._opp_active = True
        card = self._otop()
        self.ohand.append(card)
        if self.log is not None:
            self.say("opp", "draw", "opp_draw", hand=len(self.ohand), deck=len(self.odeck))
        while self.pen_opp:  # refresh damage during its own draw
            self.pen_opp -= 1
            self.oclock.append(self._otop())
            self.counters["opp_refresh_damage"] += 1
            if self.log is not None:
                self.say("opp", "damage", "opp_refresh_damage")
            self._level_up_opp()
        # Decision: the goldfish discards its earliest-drawn cards down to 7.
        while len(self.ohand) > HAND_LIMIT:
            self.owaiting.append(self.ohand.pop(0))
            if self.log is not None:
                self.say("opp", "discard", "opp_discard")
        self._opp_active = False

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        log = self.log
        # 1. stand
        stage = self.stage
        self.stage_state[:] = (STAND,) * 5
        self.entered[:] = (False,) * 5
        # 2. draw
        if log is not None:
            self.say("me", "turn", "turn", turn=turn, level=len(self.level), clock=len(self.clock),
                     stock=len(self.stock), hand=len(self.hand), deck=len(self.deck))
        self._draw(1)
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        # 3. clock
        if self.hand:
            choice = yield "clock"
            if choice[0] == "clock":
                card = take(self.hand, choice[1])
                self.clock.append(card)
                self.counters["clocked"] += 1
                if log is not None:
                    self.say("me", "clock", "clock", card=self.name(card.code))
                yield from self._level_up_me()
                self._draw(2, "clock draw")
                if self.pen_me or self.pen_opp:
                    yield from self._settle()
        # 4. main
        self._note_playable(turn)
        while True:
            choice = yield "main"
            kind = choice[0]
            if kind == "end":
                break
            if kind == "play":
                yield from self._play_character(choice[1], choice[2])
            elif kind == "event":
                card = take(self.hand, choice[1])
                self._pay(card.cost or 0)
                self.waiting.append(card)
                self.counters["events_played"] += 1
                if log is not None:
                    self.say("me", "play", "event", card=self.name(card.code))
            elif kind == "move":
                a, b = choice[1], choice[2]
                stage[a], stage[b] = stage[b], stage[a]
                st = self.stage_state
                st[a], st[b] = st[b], st[a]
                en = self.entered
                en[a], en[b] = en[b], en[a]
                if log is not None:
                    self.say("me", "move", "move", slot=SLOTS[a], slot2=SLOTS[b])
            # (playability only shrinks during the main phase: nothing enters the hand there)
        # 5. climax
        for c in self.hand:
            if c.card_type == "climax":
                if c.code not in self.first_playable and self._color_ok(c, None):
                    self.first_playable[c.code] = turn
        if any(c.card_type == "climax" and self._color_ok(c, None) for c in self.hand):
            choice = yield "climax"
            if choice[0] == "place":
                card = take(self.hand, choice[1])
                self.climax = card
                self.power_bonus, self.soul_bonus = self.bonus_of(card)
                self.counters["climaxes_placed"] += 1
                if log is not None:
                    self.say("me", "climax", "climax", card=self.name(card.code), power=self.power_bonus,
                             soul=self.soul_bonus)
        # 6. attack
        self.attacks_left = 1 if (turn == 1 and self.went_first) else 3
        while self.attacks_left > 0 and self._has_attacker():
            choice = yield "attack"
            if choice[0] == "end":
                break
            yield from self._attack(choice[1])
        # encore step: the turn player's reversed characters, then the goldfish's (it has none)
        if REVERSED in self.stage_state:
            for s in range(5):
                if stage[s] is not None and self.stage_state[s] == REVERSED:
                    yield from self._leave_stage(s, "reversed")
        # 7. end
        if self.climax is not None:
            self.waiting.append(self.climax)
            if log is not None:
                self.say("me", "end", "climax_end", card=self.name(self.climax.code))
            self.climax = None
        self.power_bonus = self.soul_bonus = 0
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.waiting)

    def _note_playable(self, turn: int) -> None:
        """Record the first own turn each hand card could be played (level, stock, color)."""
        fp = self.first_playable
        lv = len(self.level)
        stock = len(self.stock)
        colors = None
        for c in self.hand:
            code = c.code
            if code in fp or c.card_type == "climax":
                continue
            level = c.level or 0
            if level > lv or (c.cost or 0) > stock:
                continue
            if level and c.colors:
                if colors is None:
                    colors = self.colors_available()
                if not any(col in colors for col in c.colors):
                    continue
            fp[code] = turn

    def _has_attacker(self) -> bool:
        stage = self.stage
        st = self.stage_state
        return ((stage[0] is not None and st[0] == STAND) or (stage[1] is not None and st[1] == STAND)
                or (stage[2] is not None and st[2] == STAND))

    def _attackers(self) -> list[int]:
        return [s for s in FRONT if self.stage[s] is not None and self.stage_state[s] == STAND]

    def _pay(self, n: int) -> None:
        if n > len(self.stock):
            raise ValueError(f"cannot pay {n} stock with {len(self.stock)}")
        for _ in range(n):
            self.waiting.append(self.stock.pop())  # stock is paid from the top

    def _play_character(self, code: str, slot: int) -> Generator[str, tuple, None]:
        card = take(self.hand, code)
        if not self.can_play(card):
            self.hand.append(card)
            raise ValueError(f"{code} cannot be played now (level, cost or color)")
        self._pay(card.cost or 0)
        self.counters["characters_played"] += 1
        if self.log is not None:
            self.say("me", "play", "play", card=self.name(code), slot=SLOTS[slot], level=card.level, cost=card.cost)
        if self.stage[slot] is not None:
            yield from self._leave_stage(slot, "replaced", occupied_after=True)
        self.stage[slot] = card
        self.stage_state[slot] = STAND
        self.entered[slot] = True

    def _leave_stage(self, slot: int, why: str, occupied_after: bool = False) -> Generator[str, tuple, None]:
        """A character goes from the stage to the waiting room; its default Encore [3 stock] may
        bring it back rested to the slot it left. Decision: a replaced character cannot encore
        (its slot is taken by the new character)."""
        card = self.stage[slot]
        self.stage[slot] = None
        self.waiting.append(card)  # type: ignore[arg-type]
        if self.log is not None:
            self.say("me", "waiting", "waiting", card=self.name(card.code), why=why)  # type: ignore[union-attr]
        if not occupied_after and len(self.stock) >= ENCORE_COST:
            choice = yield "encore"
            if choice[0] == "encore":
                self._pay(ENCORE_COST)
                self.waiting.remove(card)  # type: ignore[arg-type]
                self.stage[slot] = card
                self.stage_state[slot] = REST
                self.counters["encores"] += 1
                if self.log is not None:
                    self.say("me", "encore", "encore", card=self.name(card.code), slot=SLOTS[slot])  # type: ignore[union-attr]

    def _attack(self, slot: int) -> Generator[str, tuple, None]:
        log = self.log
        c = self.counters
        if self.stage[slot] is None or self.stage_state[slot] != STAND or slot not in FRONT:
            raise ValueError(f"no standing front-row character in {SLOTS[slot]}")
        self.attacks_left -= 1
        self.stage_state[slot] = REST
        attacker = self.stage[slot]
        c["attacks"] += 1
        # declare: the goldfish stage is empty, so it is a direct attack (+1 soul)
        soul = self.soul_of(slot) + 1
        if log is not None:
            self.say("me", "attack", "attack", card=self.name(attacker.code), slot=SLOTS[slot],
                     power=self.power_of(slot), soul=soul - 1)
        # trigger step
        card = self._top()
        self.resolving.append(card)
        shot = False
        to_hand = False
        for icon in card.triggers:
            key = "trigger_" + icon
            c[key] = c.get(key, 0) + 1
            if icon == "soul":
                soul += 1
            elif icon == "draw":
                if (yield "draw")[0] == "yes":
                    self._draw(1, "draw trigger")
            elif icon == "pool":
                if self.deck and (yield "pool")[0] == "yes":
                    self.stock.append(self._top())
                    if log is not None:
                        self.say("me", "trigger", "pool")
            elif icon == "treasure":
                to_hand = True
                if self.deck and (yield "pool")[0] == "yes":
                    self.stock.append(self._top())
                    if log is not None:
                        self.say("me", "trigger", "treasure")
            elif icon == "shot":
                shot = True
            elif icon == "comeback":
                if any(x.card_type == "character" for x in self.waiting):
                    choice = yield "comeback"
                    if choice[0] == "take":
                        self.hand.append(take(self.waiting, choice[1]))
                        if log is not None:
                            self.say("me", "trigger", "comeback", card=self.name(choice[1]))
            elif icon == "gate":
                if any(x.card_type == "climax" for x in self.waiting):
                    choice = yield "gate"
                    if choice[0] == "take":
                        self.hand.append(take(self.waiting, choice[1]))
                        if log is not None:
                            self.say("me", "trigger", "gate", card=self.name(choice[1]))
            elif icon == "choice":
                if any(x.card_type == "character" and "soul" in x.triggers for x in self.waiting):
                    choice = yield "choice"
                    if choice[0] != "skip":
                        got = take(self.waiting, choice[1])
                        (self.hand if choice[0] == "hand" else self.stock).append(got)
                        if log is not None:
                            self.say("me", "trigger", "choice", card=self.name(choice[1]), dest=choice[0])
            elif icon == "standby":
                lim = len(self.level) + 1
                if any(x.card_type == "character" and (x.level or 0) <= lim for x in self.waiting):
                    choice = yield "standby"
                    if choice[0] == "place":
                        got = take(self.waiting, choice[1])
                        s = choice[2]
                        if self.stage[s] is not None:
                            yield from self._leave_stage(s, "replaced", occupied_after=True)
                        self.stage[s] = got
                        self.stage_state[s] = REST
                        if log is not None:
                            self.say("me", "trigger", "standby", card=self.name(choice[1]), slot=SLOTS[s])
            # "return" targets an opponent's character: the goldfish stage is empty, nothing happens
        self.resolving.remove(card)
        if to_hand:
            self.hand.append(card)
        else:
            self.stock.append(card)
        if log is not None:
            icons = "+".join(card.triggers) or "no icon"
            self.say("me", "trigger", "trigger_check", card=self.name(card.code), icons=icons,
                     dest="hand" if to_hand else "stock", soul=soul)
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        # damage step
        c["attack_soul"] += soul
        c["damage_events"] += 1
        dealt = self._damage(soul)
        if dealt:
            c["damage_dealt"] += dealt
        else:
            c["cancels"] += 1
            if shot:
                c["shots"] += 1
                d2 = self._damage(1, "shot")
                c["shot_damage"] += d2
                c["damage_dealt"] += d2
        if self.pen_me or self.pen_opp:
            yield from self._settle()

    def _damage(self, amount: int, what: str = "damage") -> int:
        """The goldfish reveals ``amount`` cards one at a time; a climax cancels the damage."""
        revealed = self.orevealed
        odeck = self.odeck
        for _ in range(amount):
            card = odeck.pop()
            revealed.append(card)  # revealed cards are out of the deck and the waiting room
            if not odeck:
                self._refresh_opp()
                odeck = self.odeck
            if card.card_type == "climax":
                self.owaiting.extend(revealed)
                if self.log is not None:
                    self.say("me", "cancel", "cancel", what=what, amount=amount, count=len(revealed))
                revealed.clear()
                return 0
        self.oclock.extend(revealed)
        revealed.clear()
        if self.log is not None:
            self.say("me", "damage", "damage", what=what, amount=amount, clock=len(self.oclock),
                     level=len(self.olevel))
        if len(self.oclock) >= 7:
            self._level_up_opp()
        return amount

    # -- options -------------------------------------------------------------------------------
    def options_mulligan(self) -> list[tuple]:
        return [("keep",)] + [("discard", code) for code in distinct_codes(self.hand)]

    def options_clock(self) -> list[tuple]:
        return [("skip",)] + [("clock", code) for code in distinct_codes(self.hand)]

    def options_level_up(self) -> list[tuple]:
        return [("level", code) for code in distinct_codes(self.clock[:7])]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        colors = self.colors_available()
        for code in distinct_codes(self.hand):
            card = next(c for c in self.hand if c.code == code)
            if card.card_type == "climax" or not self.can_play(card, colors):
                continue
            if card.card_type == "character":
                out.extend(("play", code, s) for s in range(5))
            else:
                out.append(("event", code))
        stage = self.stage
        for a in range(5):
            for b in range(a + 1, 5):
                if stage[a] is not None or stage[b] is not None:
                    out.append(("move", a, b))
        return out

    def options_climax(self) -> list[tuple]:
        return [("skip",)] + [("place", code) for code in distinct_codes(
            c for c in self.hand if c.card_type == "climax" and self._color_ok(c, None))]

    def options_attack(self) -> list[tuple]:
        return [("end",)] + [("attack", s) for s in self._attackers()]

    def options_draw(self) -> list[tuple]:
        return [("yes",), ("no",)]

    options_pool = options_draw

    def options_comeback(self) -> list[tuple]:
        return [("skip",)] + [("take", code) for code in distinct_codes(
            c for c in self.waiting if c.card_type == "character")]

    def options_gate(self) -> list[tuple]:
        return [("skip",)] + [("take", code) for code in distinct_codes(
            c for c in self.waiting if c.card_type == "climax")]

    def options_choice(self) -> list[tuple]:
        codes = distinct_codes(c for c in self.waiting if c.card_type == "character" and "soul" in c.triggers)
        return [("skip",)] + [(where, code) for code in codes for where in ("hand", "stock")]

    def options_standby(self) -> list[tuple]:
        lim = len(self.level) + 1
        codes = distinct_codes(c for c in self.waiting if c.card_type == "character" and (c.level or 0) <= lim)
        return [("skip",)] + [("place", code, s) for code in codes for s in range(5)]

    def options_encore(self) -> list[tuple]:
        return [("skip",), ("encore",)]

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb == "play":
            return f"play {self.name(option[1])} to {SLOTS[option[2]]}"
        if verb == "move":
            return f"move {SLOTS[option[1]]} <-> {SLOTS[option[2]]}"
        if verb == "attack":
            return f"attack with {SLOTS[option[1]]}"
        if verb == "place" and kind == "standby":
            return f"standby {self.name(option[1])} to {SLOTS[option[2]]}"
        if len(option) > 1:
            return f"{kind}: {verb} {self.name(option[1])}"
        return f"{kind}: {verb}"
