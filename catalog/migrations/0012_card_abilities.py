"""Compiled abilities on the card (catalog.abilities): ``abilities`` (the printed text compiled by the
game's compiler), ``effect_kinds`` (mirrored into CardFacet rows for ``effect:``) and ``modelled``
(the goldfish engine fully models the card, for ``modelled:``; indexed with the game).

The columns are filled by the importers and ``manage.py compile_abilities --game <game>``; until
that runs, ``modelled`` takes the old rule (no text, or ``text_modelled``), so ``modelled:`` keeps
its meaning."""
from django.db import migrations, models
from django.db.models import Q


def old_rule(apps, schema_editor):
    Card = apps.get_model("catalog", "Card")
    Card.objects.filter(Q(text_modelled=True) | Q(text__in=["", "-", "－", "ー"])).update(modelled=True)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0011_folded_bigram_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="abilities",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.AddField(
            model_name="card",
            name="effect_kinds",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.AddField(
            model_name="card",
            name="modelled",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddIndex(
            model_name="card",
            index=models.Index(fields=["game", "modelled"], name="card_game_modelled_idx"),
        ),
        migrations.RunPython(old_rule, migrations.RunPython.noop),
    ]
