"""The Card model holds every stat of every game, and rejects impossible cards naming the field."""
import pytest
from django.core.exceptions import ValidationError

from catalog.cardfields import card_normalize
from catalog.models import Card, CardFacet
from catalog.services import card_sync_facets
from rules.cards import CARD_FIELDS, GAME_STATS, CardRecord, validate_card

WS_CHAR = {
    "game": "ws", "code": "TS/W01-001", "name": "Test Girl", "card_type": "character", "colors": ["yellow"],
    "level": 1, "cost": 1, "power": 6000, "soul": 1, "triggers": ["soul"], "traits": ["Music"],
}

COMMON = {
    "rarity": "R", "set_code": "TS01", "traits": ["Alpha", "Beta"], "text": "Some printed text.\nSecond line.",
    "flavor": "Flavor.", "alt_names": ["Alias"], "text_modelled": False,
    "translations": {"ja": {"name": "テスト", "text": "印刷された文。", "flavor": "フレーバー。"}, "zh-hans": {"name": "测试"}},
}
# One card per game carrying every stat of that game (GAME_STATS) and the common columns.
FULL = {
    "pc": {
        **COMMON, "game": "pc", "code": "TW-023a", "name": "A&B", "card_type": "character", "colors": ["red"],
        "work": "Test Work", "number": "023a", "cost": 2, "cp": 4500, "rank": 2, "bonus_mark": "RANK+1",
        "connect_attack": 3, "keywords": ["connect_mark", "support_mark"],
    },
    "phantasma": {
        **COMMON, "game": "phantasma", "code": "TS-001", "name": "Tester", "card_type": "character",
        "attributes": ["wisdom"], "work": "Test Series", "number": "001", "cost": 3,
        "cost_detail": {"white": 1, "blue": {"wisdom": 1}, "red": 1, "hp": 100},
        "mhp": 700, "martial": 100, "agility": 200, "wisdom": 500, "craft": 300, "poise": 200,
        "effects": [{"kind": "heal", "amount": 100, "target": "own_character"}],
    },
    "phantasma_battle": {
        "game": "phantasma", "code": "TS-020", "name": "Duel", "card_type": "battle", "work": "Test Series",
        "number": "020", "attack_attribute": "martial", "defense_attribute": "poise",
    },
    "phantasma_ex": {
        "game": "phantasma", "code": "TS-040", "name": "Skill", "card_type": "ex_skill", "ex_condition": 4,
        "text": "Draw 1 card.",
    },
    "ws": {
        **COMMON, "game": "ws", "code": "TS/W01-002", "name": "Counter Girl", "card_type": "character",
        "colors": ["blue"], "level": 2, "cost": 1, "power": 3000, "soul": 1, "triggers": ["soul", "draw"],
        "counter": True,
    },
    "ws_climax": {
        "game": "ws", "code": "TS/W01-025", "name": "Climax", "card_type": "climax", "colors": ["red"],
        "triggers": ["soul", "soul"], "text_modelled": True, "text": "[CONT] All your characters get +2000 power.",
        "effects": [{"kind": "climax_bonus", "power": 2000, "soul": 0}],
    },
    "chaos": {
        **COMMON, "game": "chaos", "code": "TC-013", "name": "Twin 「A & B」", "card_type": "extra",
        "gender": "both", "attributes": ["fire"], "atk": 6, "defense": 5, "partner_atk": 2, "partner_def": 1,
        "title": "Test Title", "person": "A & B", "extra_persons": ["A", "B"],
        "keywords": [{"name": "maintain", "cost": {"discard": 1}}, "penetrate", "first_strike", "first_defense"],
    },
    "chaos_event": {
        "game": "chaos", "code": "TC-016", "name": "Curtain", "card_type": "event", "timing": "BATTLE",
        "text": "[BATTLE] ...", "attributes": ["none"],
    },
    "lycee": {
        **COMMON, "game": "lycee", "code": "CH-0001", "name": "Tester, Awakened", "card_type": "character",
        "attributes": ["snow", "moon"], "cost": 3, "cost_detail": {"snow": 1, "star": 2},
        "slots": ["AF-L", "DF-R"], "ap": 3, "dp": 2, "sp": 1, "ex": 2, "dmg": 1, "conversion_target": "Tester",
        "copy_limit": 8, "keywords": [{"name": "tax_trash", "cost": {"snow": 1}}, "dash", "step"],
    },
}


@pytest.mark.django_db
def test_ws_card_round_trips_through_model():
    card = Card(**WS_CHAR)
    card.full_clean()
    card.save()
    again = Card.objects.get(game="ws", code="TS/W01-001")
    rec = again.to_record()
    assert rec.power == 6000 and rec.triggers == ("soul",) and rec.colors == ("yellow",)
    assert CardRecord.from_dict(rec.to_dict()).to_dict() == rec.to_dict()


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(FULL))
def test_model_round_trip_with_every_stat(key):
    data, problems = card_normalize(FULL[key])
    assert problems == []
    assert validate_card(data) == []
    card = Card(**data)
    card.full_clean()
    card.save()
    again = Card.objects.get(pk=card.pk)
    assert again.to_dict() == data, "every field comes back exactly as stored"
    # Every stat of the game that the card type uses is set (not the default) on the main cards.
    if key in ("pc", "phantasma", "ws", "chaos", "lycee"):
        unset = [s for s in GAME_STATS[key] if data[s] in (None, "", [], {})]
        allowed_unset = {"pc": set(), "phantasma": {"attack_attribute", "defense_attribute", "ex_condition"},
                         "ws": set(), "chaos": {"timing"}, "lycee": set()}[key]
        assert set(unset) <= allowed_unset, unset
    rec = again.to_record()
    assert CardRecord.from_dict(rec.to_dict()).to_dict() == rec.to_dict()
    # the card JSON format, plus the compiled abilities the record carries (derived, not imported)
    assert set(rec.to_dict()) - {"abilities"} == CARD_FIELDS
    assert [a.to_dict() for a in rec.abilities] == again.abilities == rec.to_dict().get("abilities", [])
    for name, value in FULL[key].items():
        if name != "keywords":
            got = getattr(rec, name)
            assert (list(got) if isinstance(got, tuple) else (dict(got) if hasattr(got, "items") else got)) == value or \
                name in ("effects",), name
    assert rec.to_dict()["keywords"] == data["keywords"]


@pytest.mark.django_db
def test_keyword_costs_survive_the_record():
    data, _ = card_normalize(FULL["lycee"])
    rec = Card.objects.create(**data).to_record()
    assert rec.keywords == ("tax_trash", "dash", "step")
    assert dict(rec.keyword_costs["tax_trash"]) == {"snow": 1}
    assert rec.has("dash") and not rec.has("jump")


@pytest.mark.django_db
def test_facets_mirror_list_fields():
    data, _ = card_normalize(FULL["chaos"])
    card = Card.objects.create(**data)
    card_sync_facets(cards=[card])
    facets = set(CardFacet.objects.filter(card=card).values_list("facet", "value"))
    assert ("keywords", "maintain") in facets and ("keywords", "penetrate") in facets
    assert ("extra_persons", "a") in facets and ("attributes", "fire") in facets and ("traits", "alpha") in facets
    card.keywords = ["penetrate"]
    card.save()
    card_sync_facets(cards=[card])
    facets = set(CardFacet.objects.filter(card=card, facet="keywords").values_list("value", flat=True))
    assert facets == {"penetrate"}


def test_ws_climax_with_level_is_rejected_naming_the_field():
    errors = validate_card({"game": "ws", "code": "X", "name": "C", "card_type": "climax", "level": 1})
    assert ("level", "a ws climax has no level (got 1)") in errors


@pytest.mark.django_db
def test_model_clean_names_the_field():
    card = Card(game="lycee", code="CH-1", name="A", card_type="character", ap=1, dp=1, sp=1, slots=["AF-X"])
    with pytest.raises(ValidationError) as exc:
        card.full_clean()
    assert "slots" in exc.value.message_dict


IMPOSSIBLE = [
    # (card, field, words in the message)
    ({"game": "ws", "card_type": "climax", "colors": ["red"], "level": 1}, "level", "climax has no level"),
    ({"game": "ws", "card_type": "climax", "colors": ["red"], "power": 1000}, "power", "climax has no power"),
    ({"game": "ws", "card_type": "character", "level": 4, "cost": 1, "power": 1000, "soul": 1}, "level", "0 to 3"),
    ({"game": "ws", "card_type": "character", "level": 0, "cost": 0, "power": 1000, "soul": 1,
      "triggers": ["laser"]}, "triggers", "'laser'"),
    ({"game": "ws", "card_type": "character", "level": 0, "cost": 0, "power": 1000, "soul": 1, "ap": 3},
     "ap", "lycee stat"),
    ({"game": "lycee", "card_type": "character", "ap": 1, "dp": 1, "sp": 1, "slots": ["AF-X"]}, "slots", "'AF-X'"),
    ({"game": "lycee", "card_type": "event", "slots": ["AF-L"]}, "slots", "only characters"),
    ({"game": "lycee", "card_type": "character", "ap": 1, "dp": 1, "sp": 1, "cost": 3,
      "cost_detail": {"snow": 1}}, "cost", "does not match"),
    ({"game": "lycee", "card_type": "character", "ap": 1, "dp": 1, "sp": 1, "cost_detail": {"fire": 1}},
     "cost_detail", "'fire'"),
    ({"game": "lycee", "card_type": "character", "ap": 1, "dp": 1, "sp": 1, "copy_limit": 0}, "copy_limit", "at least 1"),
    ({"game": "lycee", "card_type": "character", "ap": 1, "dp": 1, "sp": 1, "keywords": ["fly"]}, "keywords", "'fly'"),
    ({"game": "pc", "card_type": "character", "cost": -1, "cp": 1000, "rank": 1}, "cost", "negative"),
    ({"game": "pc", "card_type": "character", "cost": 1}, "cp", "needs cp and rank"),
    ({"game": "pc", "card_type": "event", "cost": 1, "connect_attack": 2}, "connect_attack", "only characters"),
    ({"game": "pc", "card_type": "character", "cost": 1, "cp": 1000, "rank": 1, "bonus_mark": "LIFE+2"},
     "bonus_mark", "'LIFE+2'"),
    ({"game": "phantasma", "card_type": "battle", "attack_attribute": "martial"}, "attack_attribute", "battle card"),
    ({"game": "phantasma", "card_type": "ex_skill"}, "ex_condition", "usage condition"),
    ({"game": "phantasma", "card_type": "item", "cost_detail": {"blue": {"fire": 1}}}, "cost_detail", "'fire'"),
    ({"game": "phantasma", "card_type": "character", "mhp": 500, "martial": 1, "agility": 1, "wisdom": 1,
      "craft": 1}, "poise", "poise value"),
    ({"game": "chaos", "card_type": "extra", "atk": 1, "defense": 1, "person": "A"}, "extra_persons", "names the persons"),
    ({"game": "chaos", "card_type": "character", "atk": 1, "defense": 1, "person": "A", "gender": "robot"},
     "gender", "'robot'"),
    ({"game": "chaos", "card_type": "event", "timing": "END"}, "timing", "'END'"),
    ({"game": "chaos", "card_type": "character", "atk": 1, "defense": 1, "person": "A", "power": 1000},
     "power", "ws stat"),
    ({"game": "chaos", "card_type": "climax"}, "card_type", "no card type"),
]


@pytest.mark.parametrize(("card", "fld", "words"), IMPOSSIBLE, ids=[f"{c['game']}-{f}" for c, f, _ in IMPOSSIBLE])
def test_impossible_cards_are_rejected_naming_the_field(card, fld, words):
    data = {"code": "X-1", "name": "Impossible", **card}
    errors = validate_card(data)
    assert any(f == fld and words in m for f, m in errors), errors


@pytest.mark.django_db
@pytest.mark.parametrize(("card", "fld", "words"), IMPOSSIBLE[:6], ids=[f"{c['game']}-{f}" for c, f, _ in IMPOSSIBLE[:6]])
def test_model_full_clean_rejects_impossible_cards(card, fld, words):
    with pytest.raises(ValidationError) as exc:
        Card(code="X-1", name="Impossible", **card).full_clean()
    assert fld in exc.value.message_dict
    assert any(words in m for m in exc.value.message_dict[fld])


def test_normalize_reports_wrong_types_by_field():
    _, problems = card_normalize({
        "game": "ws", "code": "X", "name": "N", "card_type": "character", "level": "2", "colors": "red",
        "counter": "yes", "bogus": 1, "keywords": [{"name": "x", "cost": {"snow": -1}}],
    })
    fields = {f for f, _ in problems}
    assert fields == {"level", "colors", "counter", "bogus", "keywords"}


@pytest.mark.django_db
@pytest.mark.parametrize(("translations", "message"), [
    ({"en": {"name": 3}}, "translations.en.name must be text, got 3"),
    ({"ja": {"text": ["a"]}}, "translations.ja.text must be text, got ['a']"),
    ({"en": {"title": "X"}}, "translations.en: unknown key 'title'; expected name, text, flavor"),
    ({"english": {"name": "X"}}, "translations: 'english' is not a language code (lower case, like en, ja, ko, zh-hans)"),
    ({"zh hans": {"name": "X"}}, "translations: 'zh hans' is not a language code"),
    ({"en": "Sending Everyone Off"}, "translations.en must be an object with name, text, flavor"),
    (["en", "X"], "translations must be an object mapping language codes to {name, text, flavor}"),
    ({"en": {"name": "a\x00b"}}, "translations.en.name contains a NUL character"),
])
def test_translations_are_validated_naming_language_and_key(translations, message):
    card = {**WS_CHAR, "translations": translations}
    assert [(f, m) for f, m in validate_card(card) if f == "translations" and m.startswith(message)], validate_card(card)
    _, problems = card_normalize(card)
    assert [m for f, m in problems if f == "translations" and m.startswith(message)], problems
    with pytest.raises(ValidationError) as exc:
        Card(**{**WS_CHAR, "translations": translations}).full_clean()
    assert any(m.startswith(message) for m in exc.value.message_dict["translations"])


def test_good_translations_are_valid_and_normalised():
    card = {**WS_CHAR, "translations": {
        "en": {"name": " Test Girl ", "text": "[C] Text.", "flavor": ""}, "zh_Hans": {"name": "测试少女"},
        "ko": {"name": "", "text": "  "}, "pt-br": {"text": "Texto."}}}
    assert validate_card({**card, "translations": {"en": {"name": "x"}, "zh-hans": {"text": "y"}, "ko": {}}}) == []
    normal, problems = card_normalize(card)
    assert problems == []
    # lower-case codes with "-", names stripped, empty parts and empty languages left out
    assert normal["translations"] == {"en": {"name": "Test Girl", "text": "[C] Text."}, "zh-hans": {"name": "测试少女"},
                                      "pt-br": {"text": "Texto."}}
    assert card_normalize(normal) == (normal, [])
    _, twice = card_normalize({**WS_CHAR, "translations": {"en": {"name": "A"}, "EN": {"name": "B"}}})
    assert twice == [("translations", "translations: language 'en' is given twice ('EN')")]
    assert card_normalize({**WS_CHAR, "translations": None})[0]["translations"] == {}


def test_record_carries_translations_immutably_and_engines_ignore_them():
    data, _ = card_normalize({**WS_CHAR, "translations": {"ja": {"name": "テスト少女", "text": "【永】テキスト"}}})
    rec = CardRecord.from_dict(data)
    assert rec.translations["ja"]["name"] == "テスト少女"
    with pytest.raises(TypeError):
        rec.translations["ja"]["name"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        rec.translations["en"] = {}  # type: ignore[index]
    assert rec.to_dict()["translations"] == {"ja": {"name": "テスト少女", "text": "【永】テキスト"}}
    assert type(rec.to_dict()["translations"]["ja"]) is dict  # plain JSON again
    plain = CardRecord.from_dict(WS_CHAR)
    assert plain.translations == {} and not plain.unmodelled
    # the same card for every rule: translations are for readers only
    assert {k: v for k, v in rec.to_dict().items() if k != "translations"} == \
        {k: v for k, v in CardRecord.from_dict(data | {"translations": {}}).to_dict().items() if k != "translations"}


@pytest.mark.django_db
def test_text_in_picks_the_readers_language_with_flavor():
    card = Card(**{**WS_CHAR, "text": "【永】印刷", "flavor": "印刷フレーバー",
                   "translations": {"en": {"name": "Printed EN", "text": "[C] EN", "flavor": "EN flavor"},
                                    "zh-hans": {"name": "中文名"}}})
    assert card.text_in("en") == {"name": "Printed EN", "text": "[C] EN", "flavor": "EN flavor", "language": "en"}
    assert card.text_in("en-us")["language"] == "en"
    assert card.text_in("zh-hans") == {"name": "中文名", "text": "", "flavor": "", "language": "zh-hans"}
    assert card.text_in("ja") == {"name": "Test Girl", "text": "【永】印刷", "flavor": "印刷フレーバー", "language": ""}


@pytest.mark.parametrize(("card", "words"), [
    ({"game": "ws", "card_type": "climax", "effects": [{"kind": "climax_bonus", "power": "1000", "soul": 1}]},
     "climax_bonus power must be a whole number"),
    ({"game": "ws", "card_type": "character", "level": 0, "cost": 0, "power": 500, "soul": 1,
      "effects": [{"kind": "climax_bonus", "power": 1000, "soul": 1}]}, "only a climax"),
    ({"game": "phantasma", "card_type": "item", "effects": [{"kind": "attack_mod", "amount": 1.5}]},
     "attack_mod amount must be a whole number"),
    ({"game": "ws", "card_type": "climax", "effects": [{"kind": "heal", "amount": 1}]}, "unknown ws effect kind 'heal'"),
])
def test_effects_are_checked(card, words):
    errors = validate_card({"code": "X-1", "name": "E", **card})
    assert any(f == "effects" and words in m for f, m in errors), errors


# -- robustness: any JSON value in any field gives field errors, never an exception -----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.sampled_from(["red", "soul", "snow", "AF-L", "martial", "character", "climax", "dash", "MAIN"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["white", "blue", "red", "hp", "snow", "star", "kind", "name", "cost", "martial", "power"]),
        inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(["pc", "phantasma", "ws", "chaos", "lycee"]),
       junk=st.dictionaries(st.sampled_from(sorted(CARD_FIELDS - {"game"})), JSON_VALUES, max_size=8))
def test_validation_never_raises_on_junk(game, junk):
    data = {"game": game, "code": "X-1", "name": "Junk", "card_type": "character", **junk}
    assert isinstance(validate_card(data), list)
    normal, problems = card_normalize(data)
    if not problems:
        errors = validate_card(normal)
        assert all(isinstance(f, str) and isinstance(m, str) for f, m in errors)
