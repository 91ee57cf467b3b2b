"""Search indexes.

PostgreSQL: the pg_trgm extension and GIN trigram indexes on the expressions Django's
``icontains`` produces (``UPPER(col::text) LIKE UPPER('%x%')``) for name, alternate names and text,
plus one on ``text`` itself for ``~*`` regex search. SQLite: these are no-ops (LIKE scans).

Both: a btree on (name, game, code), the default search ordering, so a broad query can stream the
first page in order instead of sorting every match.
"""
from django.db import migrations

TRGM_INDEXES = [
    ("card_name_trgm_idx", "UPPER(name::text) gin_trgm_ops"),
    ("card_altnames_trgm_idx", "UPPER(alt_names::text) gin_trgm_ops"),
    ("card_text_trgm_idx", "UPPER(text::text) gin_trgm_ops"),
    ("card_text_re_trgm_idx", "text gin_trgm_ops"),
]


def forwards(apps, schema_editor):
    conn = schema_editor.connection
    if conn.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, expr in TRGM_INDEXES:
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card USING gin (({expr.split(' gin')[0]}) gin_trgm_ops)")
    schema_editor.execute("CREATE INDEX IF NOT EXISTS card_name_order_idx ON catalog_card (name, game, code)")


def backwards(apps, schema_editor):
    conn = schema_editor.connection
    if conn.vendor == "postgresql":
        for name, _ in TRGM_INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    schema_editor.execute("DROP INDEX IF EXISTS card_name_order_idx")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
