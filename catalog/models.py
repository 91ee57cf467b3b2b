"""The card catalog: every card of all five games in one table.

Common columns plus each game's own stats as typed, indexed columns (nullable where a game does not
use them). Lists and structured costs are JSON, never free text; list values are mirrored into
``CardFacet`` rows so they can be filtered with an index on every database.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from imagekit.models import ImageSpecField
from imagekit.processors import ResizeToFit

from rules import games as g
from rules.cards import CARD_FIELDS, NUMERIC_STATS, CardRecord, validate_card

from .labels import TYPE_LABELS
from .textnorm import fold_card, script_language

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]
CARD_TYPE_CHOICES = [(t, TYPE_LABELS.get(t, t.replace("_", " "))) for t in g.ALL_CARD_TYPES]

# Card fields whose list values are mirrored into CardFacet rows (facet name = field name).
FACET_FIELDS = ("colors", "attributes", "traits", "triggers", "slots", "extra_persons", "keywords", "effect_kinds")
# Columns derived from the printed text by the game's ability compiler and engine (catalog.abilities),
# written at import, on save and by ``manage.py compile_abilities``.
DERIVED_FIELDS = ("abilities", "effect_kinds", "modelled")


# Columns whose folded copies the search matches (see ``Card.fold_fields``).
FOLD_SOURCES = frozenset({"code", "name", "alt_names", "text", "translations"})
FOLDED_FIELDS = ("name_folded", "text_folded", "code_folded")


class CardQuerySet(models.QuerySet):
    """Bulk writes keep the folded search columns in step with name, alternate names and text, and
    ``bulk_create`` the derived ability columns (``DERIVED_FIELDS``) with the text."""

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list:
        objs = list(objs)
        for obj in objs:
            obj.fold_fields()
            obj.derive_abilities()
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs: Any, fields: Any, *args: Any, **kwargs: Any) -> int:
        objs, fields = list(objs), list(fields)
        if FOLD_SOURCES.intersection(fields):
            for obj in objs:
                obj.fold_fields()
            fields += [f for f in FOLDED_FIELDS if f not in fields]
        return super().bulk_update(objs, fields, *args, **kwargs)


def _stat_index(stat: str) -> models.Index:
    return models.Index(fields=["game", stat], name=f"card_game_{stat}_idx")


class Card(models.Model):
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    code = models.CharField(max_length=64, help_text="Card code as printed, e.g. DC/W01-001")
    name = models.CharField(max_length=255)
    alt_names = models.JSONField(default=list, blank=True, help_text="Alternate names and readings")
    card_type = models.CharField(max_length=16, choices=CARD_TYPE_CHOICES)
    colors = models.JSONField(default=list, blank=True)
    attributes = models.JSONField(default=list, blank=True)
    rarity = models.CharField(max_length=16, blank=True)
    set_code = models.CharField(max_length=64, blank=True, help_text="Set / product code")
    work = models.CharField(max_length=128, blank=True, help_text="Work / series the card comes from")
    number = models.CharField(max_length=32, blank=True, help_text="Card number within its work or set")
    traits = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True)
    flavor = models.TextField(blank=True)
    text_modelled = models.BooleanField(
        default=False, help_text="The printed text is fully captured by keywords/effects (engines execute it)"
    )
    keywords = models.JSONField(default=list, blank=True, help_text='Structured keywords: "name" or {"name", "cost"}')
    effects = models.JSONField(default=list, blank=True, help_text='Structured effects: {"kind": ..., ...}')

    # Shared numeric stats.
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    cost = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Cost; for structured costs, the symbol count")
    cost_detail = models.JSONField(default=dict, blank=True, help_text="Structured cost (phantasma, lycee)")
    # Prism Connect
    cp = models.PositiveIntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    bonus_mark = models.CharField(max_length=8, blank=True, choices=[(b, b or "none") for b in g.PC_BONUS_MARKS])
    connect_attack = models.PositiveSmallIntegerField(null=True, blank=True)
    # Phantasmagoria
    mhp = models.PositiveIntegerField(null=True, blank=True)
    martial = models.PositiveIntegerField(null=True, blank=True)
    agility = models.PositiveIntegerField(null=True, blank=True)
    wisdom = models.PositiveIntegerField(null=True, blank=True)
    craft = models.PositiveIntegerField(null=True, blank=True)
    poise = models.PositiveIntegerField(null=True, blank=True)
    attack_attribute = models.CharField(max_length=16, blank=True)
    defense_attribute = models.CharField(max_length=16, blank=True)
    ex_condition = models.PositiveSmallIntegerField(null=True, blank=True)
    # Weiß Schwarz
    power = models.PositiveIntegerField(null=True, blank=True)
    soul = models.PositiveSmallIntegerField(null=True, blank=True)
    triggers = models.JSONField(default=list, blank=True)
    counter = models.BooleanField(default=False)
    # Chaos TCG
    gender = models.CharField(max_length=8, blank=True)
    atk = models.PositiveSmallIntegerField(null=True, blank=True)
    defense = models.PositiveSmallIntegerField(null=True, blank=True)
    partner_atk = models.PositiveSmallIntegerField(null=True, blank=True)
    partner_def = models.PositiveSmallIntegerField(null=True, blank=True)
    title = models.CharField(max_length=128, blank=True)
    person = models.CharField(max_length=128, blank=True)
    extra_persons = models.JSONField(default=list, blank=True)
    timing = models.CharField(max_length=8, blank=True)
    # Lycee
    slots = models.JSONField(default=list, blank=True, help_text="Position restriction (empty = any slot)")
    ap = models.PositiveSmallIntegerField(null=True, blank=True)
    dp = models.PositiveSmallIntegerField(null=True, blank=True)
    sp = models.PositiveSmallIntegerField(null=True, blank=True)
    ex = models.PositiveSmallIntegerField(null=True, blank=True)
    dmg = models.PositiveSmallIntegerField(null=True, blank=True)
    conversion_target = models.CharField(max_length=255, blank=True)
    copy_limit = models.PositiveSmallIntegerField(null=True, blank=True)

    # Search forms (catalog.textnorm.fold) of name + alternate names and of the text, written on
    # every save/bulk write/import; the search matches these (trigram-indexed on PostgreSQL).
    # The name, text and flavor in other languages than printed: {"en": {"name", "text", "flavor"}, "ja": ...}
    # (lower-case language codes, rules.cards.translation_errors); the card page shows the user's language.
    translations = models.JSONField(default=dict, blank=True, help_text='{"en": {"name": "...", "text": "..."}}')
    name_folded = models.TextField(blank=True, default="", editable=False)
    text_folded = models.TextField(blank=True, default="", editable=False)
    # The code as players type it (catalog.textnorm.fold_code: upper case, letters and digits only):
    # bare codes and code: prefixes in the search (btree text_pattern_ops on PostgreSQL, migration 0009).
    code_folded = models.CharField(max_length=64, blank=True, default="", editable=False)
    # The printed text compiled by the game's compiler (rules.abilities JSON, docs/abilities.md), every
    # effect kind it uses (and the structured effects' kinds; mirrored into CardFacet: ``effect:``) and
    # whether the game's goldfish engine fully models the card (rules.coverage; ``modelled:``).
    abilities = models.JSONField(default=list, blank=True, editable=False)
    effect_kinds = models.JSONField(default=list, blank=True, editable=False)
    modelled = models.BooleanField(default=False, editable=False)

    objects = CardQuerySet.as_manager()

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="card_unique_game_code")]
        indexes = [
            models.Index(fields=["game", "card_type"], name="card_game_type_idx"),
            models.Index(fields=["game", "name"], name="card_game_name_idx"),
            models.Index(fields=["game", "set_code"], name="card_game_set_idx"),
            models.Index(fields=["game", "rarity"], name="card_game_rarity_idx"),
            models.Index(fields=["game", "modelled"], name="card_game_modelled_idx"),
            # the card page's "same card elsewhere" (catalog.selectors.card_same_identity): same name, or
            # same work and number; without it the OR read every card of the game (70 ms at 20,000)
            models.Index(fields=["game", "work", "number"], name="card_game_work_number_idx"),
        ] + [_stat_index(stat) for stat in NUMERIC_STATS]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def fold_fields(self) -> None:
        """Recompute the folded search columns from code, name, alternate names, text and translations."""
        self.name_folded, self.text_folded, self.code_folded = fold_card(
            code=self.code, name=self.name, alt_names=self.alt_names, text=self.text, translations=self.translations)

    def text_in(self, language: str) -> dict[str, str]:
        """The name and text to show a reader of ``language``: ``{"name", "text", "flavor", "language"}``;
        ``language`` is "" for the card as printed (no translation for that language). A translation's
        missing flavor is "" (the page then shows the printed one)."""
        for code in (language, language.split("-")[0]):
            t = (self.translations or {}).get(code)
            if isinstance(t, dict) and (t.get("name") or t.get("text")):
                return {"name": t.get("name") or self.name, "text": t.get("text") or "",
                        "flavor": t.get("flavor") or "", "language": code}
        return {"name": self.name, "text": self.text, "flavor": self.flavor, "language": ""}

    @property
    def printed_language(self) -> str:
        """The language of the printed name and text (``textnorm.script_language``), "" if unknown."""
        return script_language(f"{self.name}\n{self.text}")

    def derive_abilities(self) -> bool:
        """Recompute the derived columns (``DERIVED_FIELDS``) from the card; True when they changed."""
        from .abilities import card_derive

        return card_derive(self)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.fold_fields()
        self.derive_abilities()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and FOLD_SOURCES.intersection(update_fields):
            kwargs["update_fields"] = {*update_fields, *FOLDED_FIELDS}
        if update_fields is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], *DERIVED_FIELDS}
        super().save(*args, **kwargs)

    # -- conversions ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The card in the documented card JSON format (docs/card-format.md)."""
        return {name: getattr(self, name) for name in sorted(CARD_FIELDS)}

    def to_record(self) -> CardRecord:
        """The card as engines see it, with its compiled abilities."""
        return CardRecord.from_dict({**self.to_dict(), "abilities": self.abilities or ()})

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return CARD_FIELDS

    # -- validation ----------------------------------------------------------------------------
    def clean(self) -> None:
        super().clean()
        errors: dict[str, list[str]] = {}
        for fld, message in validate_card(self.to_dict()):
            errors.setdefault(fld if fld in CARD_FIELDS else "__all__", []).append(message)
        if errors:
            raise ValidationError(errors)

    def facet_values(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for facet in FACET_FIELDS:
            for value in getattr(self, facet) or []:
                if isinstance(value, dict):
                    value = value.get("name", "")
                if value:
                    out.append((facet, str(value).lower()))
        return out


class CardFacet(models.Model):
    """One list value of a card (a trait, trigger icon, slot, keyword...), for indexed filtering."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="facets")
    facet = models.CharField(max_length=16)
    value = models.CharField(max_length=128)

    class Meta:
        indexes = [models.Index(fields=["facet", "value"], name="facet_value_idx")]
        constraints = [models.UniqueConstraint(fields=["card", "facet", "value"], name="facet_unique")]

    def __str__(self) -> str:
        return f"{self.facet}={self.value}"


# Card pictures: the box every picture is drawn in (cards are 63 × 88 mm) and the thumbnail sizes.
PICTURE_WIDTH, PICTURE_HEIGHT = 240, 335
LARGE_WIDTH, LARGE_HEIGHT = 480, 670


class CardPrinting(models.Model):
    """One printing of a card (a rarity or parallel version with its own code).

    Its picture: ``image`` (uploaded by a curator; thumbnails by django-imagekit) wins over
    ``image_url`` (a picture elsewhere, from the imported data); pages draw the card's face from
    its data when neither is there or the picture does not load (catalog.pictures)."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    code = models.CharField(max_length=64)
    rarity = models.CharField(max_length=16, blank=True)
    image_url = models.URLField(max_length=500, blank=True)
    # What sets this printing apart from the card's others, printed after its name in a source
    # (``ホロ``, ``エラッタ前``, ``サイン入り``): a property of the printing, not of the card's name.
    marker = models.CharField(max_length=64, blank=True, help_text="Printing marker, e.g. ホロ (holo) or エラッタ前")
    image = models.ImageField(upload_to="cards/%Y/%m/", blank=True, max_length=300,
                              help_text="The printing's picture (front, upright); thumbnails are made from it")
    thumbnail = ImageSpecField(source="image", processors=[ResizeToFit(PICTURE_WIDTH, PICTURE_HEIGHT)],
                               format="JPEG", options={"quality": 85})
    large = ImageSpecField(source="image", processors=[ResizeToFit(LARGE_WIDTH, LARGE_HEIGHT)],
                           format="JPEG", options={"quality": 88})

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "code", "rarity"], name="printing_unique")]
        indexes = [models.Index(fields=["game", "code"], name="printing_game_code_idx")]

    def __str__(self) -> str:
        return f"{self.code} {self.rarity}".strip()


class CardSet(models.Model):
    """What the catalog knows about a set beyond its code: its name, series and release (curated in the
    admin or loaded with ``manage.py load_sets``). Sets without a row still list from their cards."""

    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    code = models.CharField(max_length=64, help_text="The cards' set code, e.g. DC/W01")
    name = models.CharField(max_length=200, blank=True)
    series = models.CharField(max_length=128, blank=True,
                              help_text="Series (work); empty: from the cards (rules/<game>/display.py series_of)")
    release_date = models.DateField(null=True, blank=True)
    release_order = models.PositiveIntegerField(null=True, blank=True, help_text="Order of release within the game")

    class Meta:
        ordering = ["game", "release_order", "release_date", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="cardset_unique_game_code")]

    def __str__(self) -> str:
        return f"{self.code} {self.name}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        from django.core.cache import cache

        cache.delete(f"catalog:set-pairs:{self.game}")  # catalog.selectors.set_pairs_key
