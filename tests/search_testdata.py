"""Card data for the search tests: the sample fixtures, and a small hand-made catalog."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings

from catalog.models import Card
from catalog.services import card_sync_facets

FIXTURE_CARDS = Path(settings.BASE_DIR) / "fixtures" / "cards"


def load_fixture_cards() -> int:
    """Load fixtures/cards/*.json: through ``load_sample_data`` when it can, else directly."""
    try:
        from django.core.management import call_command

        call_command("load_sample_data", verbosity=0)
        if Card.objects.exists():
            return Card.objects.count()
    except Exception as exc:  # the loader belongs to another issue; the search tests need the data anyway
        print(f"load_sample_data unavailable ({exc!r}); loading fixtures directly")
    cards = []
    for path in sorted(FIXTURE_CARDS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for raw in doc["cards"]:
            data = dict(raw)
            data.setdefault("game", doc["game"])
            cards.append(Card(**data))
    Card.objects.bulk_create(cards)
    card_sync_facets(cards=Card.objects.all())
    return Card.objects.count()


def make_card(**data: Any) -> Card:
    card = Card.objects.create(**data)
    card_sync_facets(cards=[card])
    return card


def small_catalog() -> dict[str, Card]:
    """A dozen cards covering every game and the list-valued fields."""
    c = {}
    c["ws_beater"] = make_card(game="ws", code="TST/W01-001", name="Crimson Finale Reika", card_type="character",
                               colors=["red"], level=3, cost=2, power=10000, soul=2, triggers=["soul"],
                               traits=["Music", "Strings"], rarity="RR", set_code="TST/W01",
                               text="[AUTO] When this card attacks, draw 1 card.")
    c["ws_small"] = make_card(game="ws", code="TST/W01-002", name="Backup Nene", card_type="character",
                              colors=["yellow"], level=1, cost=0, power=3000, soul=1, counter=True,
                              traits=["Music"], rarity="U", set_code="TST/W01", text="[COUNTER] Backup 2500")
    c["ws_climax"] = make_card(game="ws", code="TST/W01-003", name="Overture of Dawn", card_type="climax",
                               colors=["yellow"], triggers=["draw"], rarity="CC", set_code="TST/W01",
                               text="[CONT] All your characters get +1000 power and +1 soul.")
    c["pc_big"] = make_card(game="pc", code="TPC-001", name="Akari Hoshimi", card_type="character", colors=["red"],
                            cost=3, cp=5500, rank=2, bonus_mark="DRAW", connect_attack=4, work="Starlight Relay",
                            traits=["Relay"], keywords=["connect_mark"], rarity="3", set_code="TPC-01")
    c["pc_event"] = make_card(game="pc", code="TPC-002", name="Relay Baton", card_type="event", colors=["blue"],
                              cost=1, work="Starlight Relay", rarity="1", set_code="TPC-01", text="Draw 2 cards.")
    c["ph_char"] = make_card(game="phantasma", code="TPH-001", name="Kagari the Lamplighter", card_type="character",
                             attributes=["martial"], mhp=700, martial=400, agility=200, wisdom=100, craft=200,
                             poise=100, cost=2, cost_detail={"white": 2}, rarity="R", set_code="TPH-1")
    c["ph_battle"] = make_card(game="phantasma", code="TPH-002", name="Gust Ambush", card_type="battle",
                               attack_attribute="agility", defense_attribute="wisdom", rarity="C", set_code="TPH-1")
    c["chaos_char"] = make_card(game="chaos", code="TCH-001", name="Sunrise Stage 「Mina Aozora」",
                                card_type="character", title="Sunrise Stage", person="Mina Aozora", gender="female",
                                attributes=["fire"], atk=5, defense=3, partner_atk=2, partner_def=1,
                                keywords=["penetrate"], rarity="R", set_code="TCH-01")
    c["chaos_male"] = make_card(game="chaos", code="TCH-002", name="Sunrise Stage 「Ren」", card_type="character",
                                title="Sunrise Stage", person="Ren", gender="male", attributes=["wind"], atk=2,
                                defense=2, partner_atk=3, partner_def=3, rarity="C", set_code="TCH-01")
    c["ly_dash"] = make_card(game="lycee", code="CH-0001", name="Shirayuki Hime, Awakened", card_type="character",
                             attributes=["snow"], cost=3, cost_detail={"snow": 2, "star": 1}, ap=4, dp=3, sp=1, ex=1,
                             slots=["AF-L", "AF-C", "AF-R"], keywords=["dash"], alt_names=["白雪姫", "Shirayuki"],
                             rarity="R", set_code="LY-01")
    c["ly_any"] = make_card(game="lycee", code="CH-0002", name="Yukine Frost", card_type="character",
                            attributes=["snow"], cost=1, cost_detail={"snow": 1}, ap=2, dp=2, sp=1, ex=1,
                            rarity="C", set_code="LY-01")
    c["ly_guard"] = make_card(game="lycee", code="CH-0003", name="Fubuki Guard", card_type="character",
                              attributes=["snow"], cost=3, cost_detail={"snow": 2, "star": 1}, ap=1, dp=4, sp=2,
                              ex=1, slots=["DF-L", "DF-C", "DF-R"], keywords=["defender"], rarity="C",
                              set_code="LY-01")
    return c
