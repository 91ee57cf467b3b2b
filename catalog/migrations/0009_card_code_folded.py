"""Search as players write it: ``Card.code_folded`` and refolded name/text columns.

- ``code_folded`` (``catalog.textnorm.fold_code``: upper case, letters and digits only) serves bare
  card codes and ``code:`` (``ab-w11-002``, ``ABW11-002`` → ``ABW11002``); PostgreSQL gets a btree
  with ``text_pattern_ops`` so both ``=`` and prefix ``LIKE 'ABW11%'`` are index lookups.
- ``name_folded``/``text_folded`` are refolded for every existing card: ``fold`` now also folds the
  Simplified, Traditional and Japanese forms of kanji to one (OpenCC's dictionaries), so ``结弦``
  finds ``結弦``. ``manage.py refold_cards`` does the same later (e.g. after an OpenCC upgrade).
"""
from django.db import migrations, models

from catalog.textnorm import fold_card

BATCH = 2000
INDEX = "card_code_folded_idx"


def refold(apps, schema_editor):
    Card = apps.get_model("catalog", "Card")
    db = schema_editor.connection.alias
    last = 0
    fields = ("pk", "code", "name", "alt_names", "text", "translations")
    while True:
        rows = list(Card.objects.using(db).filter(pk__gt=last).order_by("pk").only(*fields)[:BATCH])
        if not rows:
            break
        for c in rows:
            c.name_folded, c.text_folded, c.code_folded = fold_card(
                code=c.code, name=c.name, alt_names=c.alt_names, text=c.text, translations=c.translations)
        Card.objects.using(db).bulk_update(rows, ["name_folded", "text_folded", "code_folded"])
        last = rows[-1].pk


def index_forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON catalog_card (code_folded text_pattern_ops)")


def index_backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0008_printing_image_sets"),
    ]

    operations = [
        migrations.AddField(
            model_name="card", name="code_folded",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.RunPython(refold, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(index_forwards, index_backwards),
    ]
