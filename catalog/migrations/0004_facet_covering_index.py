"""CardFacet (facet, value, card_id): facet filters become index-only scans (no heap visit per
matching facet row before the join to the card)."""
from django.db import migrations


def forwards(apps, schema_editor):
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS facet_value_card_idx ON catalog_cardfacet (facet, value, card_id)"
    )


def backwards(apps, schema_editor):
    schema_editor.execute("DROP INDEX IF EXISTS facet_value_card_idx")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0003_search_code_indexes"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
