"""Prism Connect goldfish engine (GAMES.md §1): the state and its turn script.

The goldfish starts at 25 life, never blocks and plays nothing; the player wins when its life
reaches 0 and loses when the deck, connect gauge and discard pile are all empty at a rebuild.

The rules are one generator (``PCState._setup`` and ``_my_turn`` in ``GoldfishState.script``).
Decision kinds:

- ``mulligan``: ``("bottom", code)`` puts a hand card on the bottom of the deck (in the order
  chosen), ``("keep",)`` ends and draws as many as were put back;
- ``main`` (Main 1 and Main 2): ``("deploy", code, "front"|"back")`` (once per turn; cost = that
  many characters on your field), ``("back", code)`` (the "no affordable character" rule: one
  character that does not meet its cost to the back area, instead of a deploy), ``("return", code)``
  (once per turn: discard an identical card to move a back-area character to the front),
  ``("event", code)``, ``("scene", code)`` (effects are text, so unmodelled), ``("end",)``;
- ``attack``: ``("attack", i)`` / ``("connect", i)`` with front-line position ``i``, ``("end",)``;
- ``connect_mark``: ``("put", "front"|"back", code)`` puts another card of your field face-up into
  the connect gauge, ``("skip",)`` stops;
- ``discard``: ``("discard", code)`` down to the hand limit of 6.
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import DeckCache, distinct_codes, shuffle, take
from rules.engine.core import Deck, gettext_noop
from rules.engine.goldfish import CodeNames, GoldfishState
from rules.identity import card_identity

from .events import GAME

LIFE = 25
OPENING_HAND = 6
HAND_LIMIT = 6

def card_value(card: CardRecord) -> tuple:
    """The greedy pilot's wish to keep a card: characters by RANK + connect/2, CP, cheapness."""
    if card.card_type != "character":
        return (-1, 0, 0, 0)
    return ((card.rank or 0) + (card.connect_attack or 0) / 2, card.cp or 0, -(card.cost or 0), 0)


def _deck_info(deck: Deck) -> dict[str, Any]:
    names = {c.code: c.name for c in deck.main}
    ident = {c.code: card_identity(c) for c in deck.main}
    values = {c.code: card_value(c) for c in deck.main}
    return {"names": names, "ident": ident, "values": values}


_INFO = DeckCache(_deck_info)


class PCState(CodeNames, GoldfishState):
    """One goldfish game of Prism Connect. Zones are public attributes so tests can set them up.

    Front line: parallel lists ``front`` (cards), ``front_rest``, ``front_new`` (entered or
    returned this turn: cannot attack), ``front_attacked``. Back area: ``back`` / ``back_rest``
    (characters and scenes). Connect gauge: ``gauge`` with ``gauge_up`` (face-up flags); the top is
    the end of the list, like the deck.
    """

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random"}
    COUNTERS = (
        "games", "went_first", "attacks", "connect_attacks", "life_taken", "gauge_consumed",
        "gauge_facedown_revealed", "bonus_marks", "bonus_rank", "bonus_life", "bonus_draw", "rebuilds", "deploys",
        "back_rule", "returns", "connect_mark_cards", "connect_mark_fizzled", "events_played", "scenes_played", "mulligan_cards", "blocked",
        "first_games", "second_games", "first_wins", "second_wins", "first_win_turns", "second_win_turns",
    )
    PER_TURN = {"life_taken": "life_taken"}

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        info = _INFO.get(deck)
        self.names: dict[str, str] = info["names"]
        self.ident: dict[str, str] = info["ident"]
        self.values: dict[str, tuple] = info["values"]
        self.discard: list[CardRecord] = []
        self.front: list[CardRecord] = []
        self.front_rest: list[bool] = []
        self.front_new: list[bool] = []
        self.front_attacked: list[bool] = []
        self.back: list[CardRecord] = []
        self.back_rest: list[bool] = []
        self.gauge: list[CardRecord] = []
        self.gauge_up: list[bool] = []
        self.life = LIFE
        self.opp_life = int(opts.get("goldfish_life", LIFE))
        # scenario hook (tests): a standing goldfish character that blocks every attack
        self.blocker: CardRecord | None = None
        self.deployed = False
        self.returned = False
        # identities (suffix stripped) of the events played this turn: the same event once per turn
        self.events_used: set[str] = set()
        # the connect attack's consumed gauge cards on their way to the discard pile (see _refill)
        self.consuming: list[CardRecord] = []
        self._last_deployed: CardRecord | None = None

    # -- helpers -------------------------------------------------------------------------------
    def ident_of(self, card: CardRecord) -> str:
        ident = self.ident.get(card.code)
        return card_identity(card) if ident is None else ident

    def field_characters(self) -> int:
        n = len(self.front)
        for c in self.back:
            if c.card_type == "character":
                n += 1
        return n

    def cost_met(self, card: CardRecord, field: int | None = None) -> bool:
        return (card.cost or 0) <= (self.field_characters() if field is None else field)

    def _scene_on_field(self, card: CardRecord) -> bool:
        """One copy of the same scene (same identity, suffix stripped) on the field."""
        ident = self.ident_of(card)
        return any(self.ident_of(b) == ident for b in self.back)

    def on_front(self, card: CardRecord) -> bool:
        ident = self.ident_of(card)
        for c in self.front:
            if self.ident_of(c) == ident:
                return True
        return False

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "discard": self.discard, "front": self.front,
                "back": self.back, "gauge": self.gauge, "resolving": self.resolving + self._aside}

    # -- deck ----------------------------------------------------------------------------------
    def _refill(self) -> None:
        """Deck empty: connect gauge and discard pile shuffled together as the new deck. During a
        connect attack's DRAW marks the consumed gauge cards (``consuming``) are on their way to the
        discard pile: they are rebuilt into the deck with it (so a DRAW mark that takes the deck's
        last card rebuilds from them instead of losing)."""
        pending = self.consuming
        if not self.gauge and not self.discard and not pending:
            self._end("loss", gettext_noop("deck, connect gauge and discard pile are all empty"))
        deck = self.gauge + self.discard + pending
        if pending:
            for cc in pending:
                self.resolving.remove(cc)
            pending.clear()
        self.gauge = []
        self.gauge_up = []
        self.discard = []
        shuffle(self.rng, deck)
        self.deck = deck
        self.counters["rebuilds"] += 1
        if self.log is not None:
            self.say("me", "rebuild", "rebuild", count=len(deck))

    def _draw(self, n: int, why: str = "draw") -> None:
        for _ in range(n):
            card = self._top()
            self.hand.append(card)
            if self.log is not None:
                self.say("me", "draw", "draw", why=why, card=self.name(card.code))

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> Generator[str, tuple, None]:
        rng = self.rng
        log = self.log
        shuffle(rng, self.deck)
        if log is not None:
            self.say("me", "setup", "setup", life=self.life, order="first" if self.went_first else "second")
        self._draw(OPENING_HAND, "opening hand")
        yield from self._set_aside()
        if self._aside:
            n = len(self._aside)
            # to the bottom one by one in the order chosen, each under the ones before it (the last
            # chosen ends up lowest); no shuffle
            for card in self._aside:
                self.deck.insert(0, card)
            if log is not None:
                self.say("me", "mulligan", "mulligan", cards=", ".join(self.name(c.code) for c in self._aside))
            self._aside = []
            self._draw(n, "mulligan")
            self.counters["mulligan_cards"] += n
        if not self.went_first:
            card = self._top()
            self.gauge.append(card)
            self.gauge_up.append(False)
            if log is not None:
                self.say("me", "gauge", "gauge_second")

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        log = self.log
        self.deployed = self.returned = False
        self.events_used = set()
        if log is not None:
            self.say("me", "turn", "turn", turn=turn, life=self.life, opp_life=self.opp_life, hand=len(self.hand),
                     deck=len(self.deck), gauge=len(self.gauge), field=self.field_characters())
        # 1. start: draw (not the first player's first turn), stand
        if not (turn == 1 and self.went_first):
            self._draw(1)
        n = len(self.front)
        self.front_rest = [False] * n
        self.front_new = [False] * n
        self.front_attacked = [False] * n
        self.back_rest = [False] * len(self.back)
        # 2. main 1
        yield from self._main()
        # 3. attack phase
        while self._has_ready():
            choice = yield "attack"
            if choice[0] == "end":
                break
            self._attack(choice[1], choice[0] == "connect")
        # 4. main 2
        yield from self._main()
        # 5. end
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.discard)

    def _main(self) -> Generator[str, tuple, None]:
        self._note_playable()
        while True:
            choice = yield "main"
            verb = choice[0]
            if verb == "end":
                return
            if verb == "deploy" or verb == "back":
                card = self.deploy(choice[1], choice[2] if verb == "deploy" else "back", unaffordable=verb == "back")
                if "connect_mark" in card.keywords:
                    yield from self._connect_mark(card)
            elif verb == "return":
                self.return_character(choice[1])
            elif verb == "event":
                card = take(self.hand, choice[1])
                ident = self.ident_of(card)
                if not self.cost_met(card) or ident in self.events_used:
                    self.hand.append(card)
                    raise ValueError(f"event {card.code} cannot be played now")
                self.events_used.add(ident)
                self.discard.append(card)
                self.counters["events_played"] += 1
                if self.log is not None:
                    self.say("me", "play", "event", card=self.name(card.code))
            elif verb == "scene":
                card = take(self.hand, choice[1])
                if not self.cost_met(card) or self._scene_on_field(card):
                    self.hand.append(card)
                    raise ValueError(f"scene {card.code} cannot be played now")
                self.back.append(card)
                self.back_rest.append(False)
                self.counters["scenes_played"] += 1
                if self.log is not None:
                    self.say("me", "play", "scene", card=self.name(card.code))
            self._note_playable()

    def _note_playable(self) -> None:
        fp = self.first_playable
        field = None
        for c in self.hand:
            if c.code not in fp:
                if field is None:
                    field = self.field_characters()
                if (c.cost or 0) <= field:
                    fp[c.code] = self.turn

    # -- verbs (verify, then do) ---------------------------------------------------------------
    def deploy(self, code: str, where: str, unaffordable: bool = False) -> CardRecord:
        if self.deployed:
            raise ValueError("a character was already deployed this turn")
        card = take(self.hand, code)
        field = self.field_characters()
        ok = card.card_type == "character"
        if unaffordable:
            ok = ok and where == "back" and not (card.cost or 0) <= field and not any(
                c.card_type == "character" and (c.cost or 0) <= field for c in self.hand)
        else:
            ok = ok and (card.cost or 0) <= field and not (where == "front" and self.on_front(card))
        if not ok:
            self.hand.append(card)
            raise ValueError(f"cannot deploy {code} to the {where} now")
        self.deployed = True
        self._last_deployed = card
        self.counters["back_rule" if unaffordable else "deploys"] += 1
        if where == "front":
            self.front.append(card)
            self.front_rest.append(False)
            self.front_new.append(True)
            self.front_attacked.append(False)
        else:
            self.back.append(card)
            self.back_rest.append(False)
        if self.log is not None:
            self.say("me", "deploy", "deploy_back_rule" if unaffordable else "deploy", card=self.name(code), cost=card.cost,
                     field=field, where=where)
        return card

    def _connect_mark(self, card: CardRecord) -> Generator[str, tuple, None]:
        """Connect mark: on deploy, put other cards of your field face-up into your connect gauge
        (how many: the keyword's ``{"cards": N}`` cost, default 1 — which cards are "designated" is
        free text, so any other card of the field may be chosen); then the rest of the effect
        resolves (it is text, so unmodelled) — if no card was put in, it does not."""
        wanted = int((card.keyword_costs.get("connect_mark") or {}).get("cards", 1))
        put = 0
        while put < wanted and self._mark_targets(card):
            choice = yield "connect_mark"
            if choice[0] == "skip":
                break
            _, where, code = choice
            zone, rest = (self.front, self.front_rest) if where == "front" else (self.back, self.back_rest)
            i = next(i for i, c in enumerate(zone) if c.code == code and c is not card)
            moved = zone.pop(i)
            rest.pop(i)
            if where == "front":
                self.front_new.pop(i)
                self.front_attacked.pop(i)
            self.gauge.append(moved)
            self.gauge_up.append(True)
            put += 1
            if self.log is not None:
                self.say("me", "connect", "connect_mark", card=self.name(card.code), card2=self.name(code), where=where)
        self.counters["connect_mark_cards"] += put
        if not put:
            self.counters["connect_mark_fizzled"] += 1
            if self.log is not None:
                self.say("me", "connect", "connect_mark_fizzled", card=self.name(card.code))

    def _mark_targets(self, card: CardRecord) -> list[tuple]:
        out: list[tuple] = []
        for where, zone in (("back", self.back), ("front", self.front)):
            seen: list[str] = []
            for c in zone:
                if c is not card and c.code not in seen:
                    seen.append(c.code)
                    out.append(("put", where, c.code))
        return out

    def return_character(self, code: str) -> None:
        """Discard a card identical to a back-area character whose cost is met; it moves to the front."""
        if self.returned:
            raise ValueError("a character was already returned this turn")
        ident = self.ident.get(code)
        pos = next((i for i, c in enumerate(self.back) if c.card_type == "character"
                    and self.ident.get(c.code) == ident and self.cost_met(c)), None)
        if pos is None or self.on_front(self.back[pos]):
            raise ValueError(f"cannot return {code}")
        paid = take(self.hand, code)
        self.discard.append(paid)
        card = self.back.pop(pos)
        rested = self.back_rest.pop(pos)
        self.front.append(card)
        self.front_rest.append(rested)
        self.front_new.append(True)
        self.front_attacked.append(False)
        self.returned = True
        self.counters["returns"] += 1
        if self.log is not None:
            self.say("me", "return", "return", card2=self.name(code), card=self.name(card.code))

    def _has_ready(self) -> bool:
        for rested, new, attacked in zip(self.front_rest, self.front_new, self.front_attacked, strict=True):
            if not (rested or new or attacked):
                return True
        return False

    def _ready(self) -> list[int]:
        return [i for i, (rested, new, attacked) in enumerate(
            zip(self.front_rest, self.front_new, self.front_attacked, strict=True)) if not (rested or new or attacked)]

    def _can_attack(self, i: int) -> bool:
        return not (self.front_rest[i] or self.front_new[i] or self.front_attacked[i])

    def _attack(self, i: int, connect: bool) -> None:
        if not self._can_attack(i):
            raise ValueError(f"front-line character {i} cannot attack now")
        card = self.front[i]
        c = self.counters
        log = self.log
        x = card.connect_attack or 0
        if connect and (not x or len(self.gauge) < x):
            raise ValueError(f"{card.code} cannot connect-attack with {len(self.gauge)} gauge cards")
        self.front_rest[i] = True
        self.front_attacked[i] = True
        c["attacks"] += 1
        rank = card.rank or 0
        if connect:
            c["connect_attacks"] += 1
            consumed = self.gauge[-x:]
            faces = self.gauge_up[-x:]
            del self.gauge[-x:]
            del self.gauge_up[-x:]
            self.resolving.extend(consumed)
            self.consuming = consumed
            bonus = []
            rank += x
            for cc, up in zip(consumed, faces, strict=True):
                if up:
                    continue
                c["gauge_facedown_revealed"] += 1
                mark = cc.bonus_mark
                if mark == "RANK+1":
                    rank += 1
                    c["bonus_rank"] += 1
                    bonus.append(mark)
                elif mark == "LIFE+1":
                    self.life += 1
                    c["bonus_life"] += 1
                    bonus.append(mark)
                elif mark == "DRAW":
                    c["bonus_draw"] += 1
                    bonus.append(mark)
            c["gauge_consumed"] += x
            c["bonus_marks"] += len(bonus)
            if log is not None:
                self.say("me", "attack", "connect_attack" if bonus else "connect_attack_no_bonus",
                         card=self.name(card.code), count=x, facedown=sum(1 for u in faces if not u),
                         marks=", ".join(bonus), rank=card.rank, bonus=bonus.count("RANK+1"), total=rank)
            for _ in range(bonus.count("DRAW")):
                self._draw(1, "DRAW bonus mark")
            for cc in consumed:  # emptied when a DRAW mark rebuilt the deck from them
                self.resolving.remove(cc)
            self.discard.extend(consumed)
            self.consuming = []
        elif log is not None:
            self.say("me", "attack", "attack", card=self.name(card.code), cp=card.cp, rank=rank)
        blocker = self.blocker
        if blocker is not None:
            self._blocked(i, card, rank, connect, blocker)
            return
        if not connect:
            top = self._top()
            self.gauge.append(top)
            self.gauge_up.append(False)
            if log is not None:
                self.say("me", "gauge", "gauge_unblocked")
        self._hit(rank)

    def _hit(self, amount: int) -> None:
        amount = max(0, amount)
        taken = min(amount, self.opp_life)
        self.opp_life -= taken
        self.counters["life_taken"] += taken
        if self.log is not None:
            self.say("me", "damage", "damage", amount=amount, life=self.opp_life)
        if self.opp_life <= 0:
            self._end("win", gettext_noop("the goldfish's life reached 0"))

    def _blocked(self, i: int, card: CardRecord, rank: int, connect: bool, blocker: CardRecord) -> None:
        """Scenario hook: the goldfish blocks with ``self.blocker`` (it never does in a real run)."""
        self.blocker = None  # the blocker rests
        self.counters["blocked"] += 1
        if self.log is not None:
            self.say("opp", "block", "block", card=blocker.name, cp=blocker.cp, rank=blocker.rank)
        cp_a, cp_b = card.cp or 0, blocker.cp or 0
        # the blocker retreats exactly as in a normal battle (lower CP, or equal), connect attack or not
        self.blocker_retreated = cp_b <= cp_a
        if connect:
            # the blocking player loses attacker RANK - blocker RANK; the attacker never retreats
            self._hit(rank - (blocker.rank or 0))
            return
        if cp_a <= cp_b:  # the lower retreats; equal: both
            self.front.pop(i)
            self.front_new.pop(i)
            self.front_attacked.pop(i)
            rested = self.front_rest.pop(i)
            self.back.append(card)
            self.back_rest.append(rested)
            if self.log is not None:
                self.say("me", "retreat", "retreat", card=self.name(card.code))

    # -- options -------------------------------------------------------------------------------
    def options_mulligan(self) -> list[tuple]:
        return [("keep",)] + [("bottom", code) for code in distinct_codes(self.hand)]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        field = self.field_characters()
        hand = self.hand
        codes = distinct_codes(hand)
        cards = {c.code: c for c in hand}
        if not self.deployed:
            affordable = [code for code in codes if cards[code].card_type == "character"
                          and (cards[code].cost or 0) <= field]
            for code in affordable:
                if not self.on_front(cards[code]):
                    out.append(("deploy", code, "front"))
                out.append(("deploy", code, "back"))
            if not affordable:
                out.extend(("back", code) for code in codes if cards[code].card_type == "character")
        if not self.returned:
            for code in codes:
                ident = self.ident.get(code)
                for b in self.back:
                    if b.card_type == "character" and self.ident.get(b.code) == ident and \
                            (b.cost or 0) <= field and not self.on_front(b):
                        out.append(("return", code))
                        break
        for code in codes:
            card = cards[code]
            if card.card_type == "event" and (card.cost or 0) <= field and \
                    self.ident_of(card) not in self.events_used:
                out.append(("event", code))
            elif card.card_type == "scene" and (card.cost or 0) <= field and not self._scene_on_field(card):
                out.append(("scene", code))
        return out

    def options_connect_mark(self) -> list[tuple]:
        # the card whose connect mark is resolving is the one just deployed
        return [("skip",)] + self._mark_targets(self._last_deployed)  # type: ignore[arg-type]

    def options_attack(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        for i, card in enumerate(self.front):
            if self._can_attack(i):
                out.append(("attack", i))
                if card.connect_attack and len(self.gauge) >= card.connect_attack:
                    out.append(("connect", i))
        return out

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb in ("attack", "connect"):
            return f"{verb} with {self.name(self.front[option[1]].code)}"
        if verb == "deploy":
            return f"deploy {self.name(option[1])} to the {option[2]}"
        if verb == "put":
            return f"connect mark: put {self.name(option[2])} from the {option[1]} face-up into the gauge"
        if len(option) > 1:
            return f"{kind}: {verb} {self.name(option[1])}"
        return f"{kind}: {verb}"
