"""Facet terms as index conditions on the card table (PostgreSQL only).

``catalog_card.facet_keys``: a generated ``text[]`` column (not a model field: PostgreSQL computes it
from the row on every write, so no write path can forget it) holding ``facet:value`` keys, lower
case as ``CardFacet.value`` is: ``colors:red``, ``traits:音楽``, ``triggers:soul``, ``keywords:dash``,
``slots:af-l``, the card type (``type:climax``) and ``slots:*`` for a Lycee character without a
position restriction (it may enter any slot). A GIN index on it turns ``c:red``, ``trigger:draw or
trigger:treasure``, ``t:event c:blue`` into bitmap index scans ANDed and ORed with each other and
with the stat indexes, where ``EXISTS`` subqueries on ``catalog_cardfacet`` made the planner probe
thousands of cards one by one or scan the table (127 ms → 2 ms for the OR of two triggers at
113,000 cards). ``CardFacet`` stays the portable form (SQLite, the plain API filters).

Also: ``(game, level|cost, name, code)`` indexes, ascending and descending, so ``order:cost`` walks
one game's cards in the order asked for instead of sorting every card of the first cost; and the
planner statistics of ``text_folded`` back to the default size (1,000 entries made planning a
``LIKE`` on Japanese text take 12 ms; the page plan no longer depends on that estimate, see
``catalog.selectors._counted_page_sql``).
"""
from django.db import migrations

FUNCTION = r"""
CREATE OR REPLACE FUNCTION catalog_facet_keys(text, text, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT k ORDER BY k), '{}') FROM (
        SELECT 'type:' || lower($2) AS k
        UNION ALL SELECT 'colors:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($3) = 'array' THEN $3 ELSE '[]' END) v
        UNION ALL SELECT 'attributes:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($4) = 'array' THEN $4 ELSE '[]' END) v
        UNION ALL SELECT 'traits:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($5) = 'array' THEN $5 ELSE '[]' END) v
        UNION ALL SELECT 'triggers:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($6) = 'array' THEN $6 ELSE '[]' END) v
        UNION ALL SELECT 'slots:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($7) = 'array' THEN $7 ELSE '[]' END) v
        UNION ALL SELECT 'extra_persons:' || lower(v)
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof($8) = 'array' THEN $8 ELSE '[]' END) v
        UNION ALL SELECT 'keywords:' || lower(CASE jsonb_typeof(e) WHEN 'object' THEN e ->> 'name' ELSE e #>> '{}' END)
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof($9) = 'array' THEN $9 ELSE '[]' END) e
        UNION ALL SELECT 'slots:*' WHERE $1 = 'lycee' AND $2 = 'character'
            AND (jsonb_typeof($7) IS DISTINCT FROM 'array' OR jsonb_array_length($7) = 0)
    ) s WHERE k IS NOT NULL AND right(k, 1) <> ':'
$$
"""
COLUMN = """
ALTER TABLE catalog_card ADD COLUMN IF NOT EXISTS facet_keys text[] GENERATED ALWAYS AS (
    catalog_facet_keys(game, card_type, colors, attributes, traits, triggers, slots, extra_persons, keywords)
) STORED
"""
ORDER_INDEXES = [
    (f"card_game_{stat}_{d}_name_idx",
     f"(game, {stat}{' DESC NULLS LAST' if d == 'desc' else ''}, name, code)")
    for stat in ("cost", "level") for d in ("asc", "desc")
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    schema_editor.execute(COLUMN)
    schema_editor.execute("CREATE INDEX IF NOT EXISTS card_facet_keys_idx ON catalog_card USING gin (facet_keys)")
    for name, columns in ORDER_INDEXES:
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalog_card {columns}")
    schema_editor.execute("ALTER TABLE catalog_card ALTER COLUMN text_folded SET STATISTICS -1")
    schema_editor.execute("ANALYZE catalog_card")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _ in ORDER_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    schema_editor.execute("DROP INDEX IF EXISTS card_facet_keys_idx")
    schema_editor.execute("ALTER TABLE catalog_card DROP COLUMN IF EXISTS facet_keys")
    schema_editor.execute("DROP FUNCTION IF EXISTS catalog_facet_keys(text, text, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb)")
    schema_editor.execute("ALTER TABLE catalog_card ALTER COLUMN text_folded SET STATISTICS 1000")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0012_card_abilities"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
