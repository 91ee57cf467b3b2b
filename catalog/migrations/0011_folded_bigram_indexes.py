"""Two-character CJK words (``結弦``, ``涼宮``, ``o:経験``) served by an index (PostgreSQL only).

A trigram index cannot answer ``LIKE '%结弦%'``: a two-character value has no trigram, and the
search scanned every card (200–400 ms at 113,000 cards). ``catalog_bigrams(text)`` is the set of
two-character runs of a folded column that hold a non-ASCII character (so English text adds
nothing); GIN indexes on it for ``name_folded`` and ``text_folded`` make ``catalog_bigrams(col) @>
ARRAY['结弦']`` an index lookup, and for a two-character value that containment is exactly the
substring match (catalog/search/compiler.py). SQLite: nothing (the search scans, as before).
"""
from django.db import migrations

FUNCTION = r"""
CREATE OR REPLACE FUNCTION catalog_bigrams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT g), '{}')
    FROM (SELECT substr(t, i, 2) AS g FROM generate_series(1, char_length(t) - 1) AS i) s
    WHERE g ~ '[^\x01-\x7f]'
$$
"""
INDEXES = [
    ("card_name_folded_bigram_idx", "name_folded"),
    ("card_text_folded_bigram_idx", "text_folded"),
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    for name, column in INDEXES:
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card USING gin (catalog_bigrams({column}))")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    schema_editor.execute("DROP FUNCTION IF EXISTS catalog_bigrams(text)")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0010_printing_marker"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
