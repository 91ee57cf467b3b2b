"""PostgreSQL: ``~~@``, LIKE under another name, for the words a ``/regex/`` needs (issue 17).

``o:/draw [23] card/`` reads every card's text until it has counted 1,001 matches: a sequential scan
(the trigram index is slower when a tenth of the cards match) that runs PostgreSQL's regex on each
text. Every match also holds ``draw`` and ``car`` in ``Card.text_folded``
(``catalog.search.regex.required_words``), and looking for them there is cheaper than the regex, so
the compiler writes ``text_folded ~~@ '%draw%' AND text_folded ~~@ '%car%' AND text ~* '…'``.

With the plain ``LIKE`` the planner multiplies the estimates (it takes the conditions as
independent: 1,172 rows instead of 10,604) and trades the sequential scan for a bitmap AND of two
trigram indexes over 24,000 and 18,000 rows, slower than before. ``~~@`` is the same function
(``textlike``, same cost, so PostgreSQL checks it first, in the order written) estimated as almost
always true (``neqsel``) and in no operator class: the planner picks the plan it picked for the
regex alone. Measured on ``search_bench`` (docs/benchmarks.md, old and new statements alternated at
load 6–10): the statement of ``o:/draw [23] card/`` 17–25 % faster at the median. SQLite: nothing (the compiler adds the words on
PostgreSQL only, and only where this operator exists: ``catalog.selectors._has_text_prefilter``).
"""
from django.db import migrations

CREATE = "CREATE OPERATOR ~~@ (FUNCTION = textlike, LEFTARG = text, RIGHTARG = text, RESTRICT = neqsel)"
DROP = "DROP OPERATOR IF EXISTS ~~@ (text, text)"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):

    dependencies = [("catalog", "0014_card_game_work_number_idx")]

    operations = [migrations.RunPython(forwards, backwards)]
