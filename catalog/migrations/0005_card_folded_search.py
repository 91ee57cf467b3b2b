"""Folded search columns: ``name_folded`` (name + alternate names) and ``text_folded``.

Filled with ``catalog.textnorm.fold`` (NFKC, case folding, katakana → hiragana, separators such as
``・／「」〔〕`` dropped) for every existing card; every write path keeps them in step (``Card.save``,
``Card.objects.bulk_create/bulk_update``, ``catalog.services`` imports). PostgreSQL: GIN trigram
indexes on both columns serve the search's ``LIKE '%…%'`` with no function call per row
(pg_trgm itself comes from migration 0002). SQLite: plain columns, scanned.
"""
from django.db import migrations, models

from catalog.textnorm import fold, fold_names

INDEXES = [
    ("card_name_folded_trgm_idx", "name_folded"),
    ("card_text_folded_trgm_idx", "text_folded"),
]
BATCH = 2000


def fill(apps, schema_editor):
    Card = apps.get_model("catalog", "Card")
    db = schema_editor.connection.alias
    last = 0
    while True:
        rows = list(Card.objects.using(db).filter(pk__gt=last).order_by("pk").only("pk", "name", "alt_names", "text")[:BATCH])
        if not rows:
            break
        for c in rows:
            c.name_folded = fold_names(c.name, c.alt_names)
            c.text_folded = fold(c.text)
        Card.objects.using(db).bulk_update(rows, ["name_folded", "text_folded"])
        last = rows[-1].pk


def indexes_forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, column in INDEXES:
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card USING gin ({column} gin_trgm_ops)")


def indexes_backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, _ in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0004_facet_covering_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="card", name="name_folded", field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="card", name="text_folded", field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(indexes_forwards, indexes_backwards),
    ]
