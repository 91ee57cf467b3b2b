"""Generate a synthetic catalog with realistic stat distributions for all five games.

For benchmarks only: ``python manage.py generate_cards --count 100000 --seed 1``. Cards are
bulk-inserted with their CardFacet rows; codes start with ``SYN`` so they never collide with real
or sample cards (``--clear`` removes earlier synthetic cards first).
"""
from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from catalog.models import Card, CardFacet
from catalog.services import catalog_analyze
from rules import games as g

SYLLABLES = ("ka", "ri", "mo", "to", "sa", "na", "mi", "yu", "ki", "ha", "ru", "ta", "shi", "ne", "ra", "ko", "ai", "ren")
TITLES = (
    "Dragon", "Lantern", "Knight", "Idol", "Maid", "Witch", "Pilot", "Student", "Princess", "Ninja", "Captain",
    "Singer", "Healer", "Shrine Maiden", "Detective", "Runner", "Archer", "Clockmaker", "Gardener", "Star",
)
ADJECTIVES = (
    "Brave", "Silent", "Crimson", "Azure", "Golden", "Midnight", "Lucky", "Gentle", "Stormy", "Radiant",
    "Hidden", "Lonely", "Cheerful", "Frozen", "Blazing", "Wandering",
)
TRAITS = (
    "Music", "Magic", "Sports", "School", "Weapon", "Animal", "Food", "Science", "Nature", "Mecha", "Idol",
    "Demon", "Angel", "Spirit", "Royalty", "Detective", "Shrine", "Space",
)
TEXTS = (
    "[AUTO] When this card is played, draw {n} card(s), then discard 1 card.",
    "[CONT] All your other characters get +{p} power.",
    "[ACT] [Rest this card] Choose 1 of your characters. It gets +{p} power until end of turn.",
    "When this card attacks, you may put the top card of your deck into your stock.",
    "[AUTO] When this card's battle opponent becomes reversed, you may draw {n} card(s).",
    "Your characters with the trait {t} get +{n} soul.",
    "Once per turn, when a character of yours is deployed, look at the top {n} cards of your deck.",
    "This card cannot be chosen by your opponent's effects.",
    "Heal {n}. Then, if you have 3 or more {t} characters, draw 1 card.",
)


SET_SIZE = 100


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"generate_cards:{seed}")

    def name(self) -> str:
        r = self.rng
        given = "".join(r.choice(SYLLABLES) for _ in range(r.randint(2, 3))).capitalize()
        if r.random() < 0.6:
            return f"{r.choice(ADJECTIVES)} {r.choice(TITLES)} {given}"
        return f"{given} the {r.choice(TITLES)}"

    def text(self) -> str:
        r = self.rng
        if r.random() < 0.25:
            return ""
        return r.choice(TEXTS).format(n=r.randint(1, 3), p=r.choice((500, 1000, 1500, 2000)), t=r.choice(TRAITS))

    def traits(self, k: int = 2) -> list[str]:
        return self.rng.sample(TRAITS, self.rng.randint(0, k))

    def card(self, game: str, i: int) -> dict[str, Any]:
        r = self.rng
        set_no = i // SET_SIZE
        base = {
            "game": game, "name": self.name(), "rarity": r.choices(("C", "U", "R", "RR", "SR"), (50, 25, 15, 7, 3))[0],
            "text": self.text(), "text_modelled": r.random() < 0.3, "number": f"{i % 100:03d}",
        }
        return {**base, **getattr(self, f"_{game}")(i, set_no)}

    def _ws(self, i: int, set_no: int) -> dict[str, Any]:
        r = self.rng
        ctype = r.choices(("character", "event", "climax"), (72, 12, 16))[0]
        d: dict[str, Any] = {
            "code": f"SYN{set_no:03d}/W{set_no % 100:02d}-{i:06d}", "set_code": f"SYN{set_no:03d}/W{set_no % 100:02d}",
            "card_type": ctype, "colors": [r.choice(g.WS_COLORS)], "work": f"Synthetic Series {set_no % 40}",
        }
        if ctype == "climax":
            d["triggers"] = r.choices([["soul"], ["soul", "soul"], ["draw"], ["pool"], ["comeback"], ["treasure"],
                                       ["gate"], ["choice"], ["standby"], ["shot"], ["return"]],
                                      (25, 20, 12, 8, 8, 6, 6, 4, 4, 4, 3))[0]
            d["text"] = "[CONT] All your characters get +1000 power and +1 soul."
            return d
        level = r.choices((0, 1, 2, 3), (30, 30, 18, 22))[0]
        d["level"] = level
        d["cost"] = 0 if level == 0 else max(0, min(level, level - 1 + r.choice((0, 0, 1))))
        d["counter"] = r.random() < (0.1 if ctype == "character" else 0.3)
        if ctype == "character":
            lo, hi = {0: (1500, 4000), 1: (3000, 7000), 2: (5000, 9500), 3: (8000, 12000)}[level]
            d["power"] = r.randrange(lo, hi + 1, 500)
            d["soul"] = 2 if level == 3 and r.random() < 0.8 else 1
            d["traits"] = self.traits()
            if r.random() < 0.18:
                d["triggers"] = ["soul"]
        return d

    def _pc(self, i: int, set_no: int) -> dict[str, Any]:
        r = self.rng
        ctype = r.choices(("character", "event", "scene"), (78, 15, 7))[0]
        cost = r.choices((0, 1, 2, 3, 4, 5), (18, 24, 22, 18, 12, 6))[0]
        d: dict[str, Any] = {
            "code": f"SYN-PC{set_no:03d}-{i:06d}", "set_code": f"SYN-PC{set_no:03d}", "card_type": ctype,
            "colors": [r.choice(g.PC_COLORS)], "work": f"Synthetic Work {set_no % 40}", "cost": cost,
            "bonus_mark": r.choices(g.PC_BONUS_MARKS, (25, 30, 25, 20))[0],
        }
        if ctype == "character":
            d["cp"] = max(500, 1500 + cost * 1200 + r.choice((-1000, -500, 0, 0, 500, 1000)))
            d["rank"] = 1 if cost <= 1 else (2 if cost <= 3 else r.choice((2, 3, 3)))
            d["traits"] = self.traits()
            if r.random() < 0.25:
                d["connect_attack"] = min(6, 2 + cost)
            if r.random() < 0.2:
                d["keywords"] = [r.choice(g.PC_KEYWORDS)]
        return d

    def _phantasma(self, i: int, set_no: int) -> dict[str, Any]:
        r = self.rng
        ctype = r.choices(("character", "battle", "item", "event", "ex_skill"), (40, 30, 10, 12, 8))[0]
        d: dict[str, Any] = {
            "code": f"SYN-PH{set_no:03d}-{i:06d}", "set_code": f"SYN-PH{set_no:03d}", "card_type": ctype,
            "work": f"Synthetic Tale {set_no % 40}",
        }
        if ctype == "character":
            attr = r.choice(g.PHANTASMA_ATTRIBUTES)
            d["attributes"] = [attr]
            cost = r.choice((1, 2, 2, 3, 3, 4))
            d["cost"], d["cost_detail"] = cost, {"white": cost}
            d["mhp"] = r.randrange(300, 1000, 100)
            for a in g.PHANTASMA_ATTRIBUTES:
                d[a] = r.randrange(300, 500, 100) if a == attr else r.randrange(100, 400, 100)
            d["traits"] = self.traits(1)
        elif ctype == "battle":
            d["attack_attribute"] = r.choice(g.PHANTASMA_ATTRIBUTES)
            d["defense_attribute"] = r.choice(g.PHANTASMA_ATTRIBUTES)
        elif ctype == "ex_skill":
            d["ex_condition"] = r.randint(2, 7)
        else:
            cost = r.randint(0, 3)
            d["cost"], d["cost_detail"] = cost, {"white": cost}
        return d

    def _chaos(self, i: int, set_no: int) -> dict[str, Any]:
        r = self.rng
        ctype = r.choices(("character", "extra", "event", "set"), (65, 5, 20, 10))[0]
        title = f"Synthetic Title {set_no % 40}"
        d: dict[str, Any] = {
            "code": f"SYN-CH{set_no:03d}-{i:06d}", "set_code": f"SYN-CH{set_no:03d}", "card_type": ctype,
            "attributes": [r.choice(g.CHAOS_ATTRIBUTES)],
        }
        if ctype in ("character", "extra"):
            person = self.name()
            d["title"], d["person"] = title, person  # the title is the epithet: characters and EXTRAs only
            d["name"] = f"{title} 「{person}」"
            d["gender"] = r.choices(g.CHAOS_GENDERS, (55, 40, 5))[0]
            d["atk"] = r.choices(range(8), (3, 10, 20, 25, 20, 12, 6, 4))[0] + (1 if ctype == "extra" else 0)
            d["defense"] = r.choices(range(8), (3, 10, 20, 25, 20, 12, 6, 4))[0]
            d["partner_atk"] = r.randint(0, 3)
            d["partner_def"] = r.randint(0, 3)
            d["traits"] = self.traits(1)
            if r.random() < 0.3:
                d["keywords"] = [r.choice(g.CHAOS_KEYWORDS)]
            if ctype == "extra":
                d["extra_persons"] = [self.name(), self.name()]
        elif ctype == "event":
            d["timing"] = r.choice(g.CHAOS_TIMINGS)
        return d

    def _lycee(self, i: int, set_no: int) -> dict[str, Any]:
        r = self.rng
        ctype = r.choices(("character", "event", "item", "area"), (70, 15, 10, 5))[0]
        prefix = {"character": "CH", "event": "EV", "item": "IT", "area": "AR"}[ctype]
        attrs = [r.choice(g.LYCEE_ATTRIBUTES[:5])] if r.random() < 0.9 else ["star"]
        cost = r.choices((0, 1, 2, 3, 4), (5, 30, 35, 22, 8))[0]
        detail = {attrs[0]: max(0, cost - 1), "star": 1} if cost else {}
        detail = {k: v for k, v in detail.items() if v}
        d: dict[str, Any] = {
            "code": f"SYN-LY{set_no:03d}-{prefix}-{i:06d}", "set_code": f"SYN-LY{set_no:03d}", "card_type": ctype,
            "attributes": attrs, "cost": sum(detail.values()), "cost_detail": detail,
            "ex": r.choices((0, 1, 2), (30, 55, 15))[0],
        }
        if ctype == "character":
            d["ap"] = r.choices(range(6), (5, 15, 30, 28, 15, 7))[0]
            d["dp"] = r.choices(range(6), (5, 15, 30, 28, 15, 7))[0]
            d["sp"] = r.choices(range(5), (10, 45, 25, 15, 5))[0]
            if r.random() < 0.4:
                row = r.choice(("AF", "DF"))
                d["slots"] = r.choice(([f"{row}-L", f"{row}-C", f"{row}-R"], [f"{row}-C"], [f"{row}-L", f"{row}-R"]))
            if r.random() < 0.45:
                d["keywords"] = r.sample(g.LYCEE_KEYWORDS, r.randint(1, 2))
        return d


class Command(BaseCommand):
    help = "Generate N synthetic cards (all five games) for benchmarks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--clear", action="store_true", help="delete earlier synthetic (SYN*) cards first")
        parser.add_argument("--batch", type=int, default=2000)

    def handle(self, *args: Any, count: int, seed: int, clear: bool, batch: int, **options: Any) -> None:
        if count < 0:
            raise SystemExit("--count must be ≥ 0")
        start = time.perf_counter()
        if clear:
            deleted, _ = Card.objects.filter(code__startswith="SYN").delete()
            self.stdout.write(f"deleted {deleted} synthetic rows")
        gen = Generator(seed)
        games = g.GAMES
        made = 0
        while made < count:
            n = min(batch, count - made)
            # Real catalogs are imported set by set: each block of SET_SIZE cards is one game's set.
            cards = [Card(**gen.card(games[((made + k) // SET_SIZE) % len(games)], made + k)) for k in range(n)]
            with transaction.atomic():
                Card.objects.bulk_create(cards, batch_size=batch)
                facets = [CardFacet(card=c, facet=f, value=v[:128]) for c in cards
                          for f, v in dict.fromkeys(c.facet_values())]
                CardFacet.objects.bulk_create(facets, batch_size=5000)
            made += n
        if catalog_analyze():
            self.stdout.write("refreshed the planner statistics (ANALYZE)")
        self.stdout.write(f"generated {made} cards in {time.perf_counter() - start:.1f}s")
