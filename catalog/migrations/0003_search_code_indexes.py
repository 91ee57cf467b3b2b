"""Case-insensitive set/code lookups (``set:sky/w90``, ``code:SKY/W90-0*``) on PostgreSQL.

Django's ``iexact``/``istartswith`` compare ``UPPER(col::text)``; these expression indexes (with
text_pattern_ops, which serves both ``=`` and prefix ``LIKE``) make them index lookups. SQLite uses
``LIKE`` for these lookups, which an expression index cannot serve: no-op there.
"""
from django.db import migrations

INDEXES = [
    ("card_upper_set_idx", "UPPER(set_code::text) text_pattern_ops"),
    ("card_upper_code_idx", "UPPER(code::text) text_pattern_ops"),
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, expr in INDEXES:
            column, opclass = expr.rsplit(" ", 1)
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card (({column}) {opclass})")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, _ in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0002_search_indexes"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
