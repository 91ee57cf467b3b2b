"""The query language's grammar and compiler: valid queries per game, every error kind with its position."""
from __future__ import annotations

import pytest

from catalog.search import MAX_DEPTH, MAX_QUERY_LENGTH, QueryError, compile_query, parse
from catalog.search.fields import FIELDS, FIELDS_BY_NAME, lookup_field
from catalog.search.grammar import And, Not, Or, Term
from rules.cards import NUMERIC_STATS

VALID = {
    "ws": ["game:ws power>=9000 soul:2 trigger:soul", "g:ws t:climax trigger:draw", "game:ws lv<=1 counter:yes",
           "game:ws c:yellow trait:\"Wind Instrument\" order:power dir:desc", "game:ws code:SKY/W90-001",
           "game:ws set:SKY/W90* -t:event", "game:ws level=3 cost!=2"],
    "pc": ["game:pc cp>4000 rank>=2 bonus:draw", "game:pc connect_attack>=4 kw:connect_mark",
           "game:pc bonus:rank+1 work:\"Starlight Relay\"", "game:pc bonus:none c:green"],
    "phantasma": ["game:phantasma mhp>=600 martial>=300", "game:phantasma t:battle aa:agility da:wisdom",
                  "game:phantasma t:ex_skill condition<=3", "game:phantasma attr:poise wis>100 agi<300"],
    "chaos": ["game:chaos atk>=4 gender:female", "game:chaos def>=3 kw:first-strike",
              "game:chaos patk>=2 pdef<=1", "game:chaos t:extra extra:Cobalt", "game:chaos timing:battle"],
    "lycee": ["game:lycee ap>=3 ability:dash slot:AF-C", "game:lycee dp>=3 sp<2 ex:1 attr:snow",
              "game:lycee kw:tax_trash slot:df-l", "game:lycee conversion:Shirayuki copies>=5"],
}


@pytest.mark.parametrize("query", [q for qs in VALID.values() for q in qs])
def test_valid_queries_compile(query):
    compiled = compile_query(query)
    assert compiled.games is not None and len(compiled.games) == 1


def test_structure_and_precedence():
    node = parse("a or b c")
    assert isinstance(node, Or)
    assert isinstance(node.children[1], And)  # AND binds tighter than OR
    node = parse("-(t:climax or c:red) o:/dr.w/")
    assert isinstance(node, And) and isinstance(node.children[0], Not)
    assert isinstance(node.children[0].child, Or)
    term = node.children[1]
    assert isinstance(term, Term) and term.field == "o" and term.value.kind == "regex" and term.value.text == "dr.w"


def test_values_keep_hyphens_and_slashes_and_quotes():
    assert parse("slot:AF-C").value.text == "AF-C"
    assert parse("code:DC/W01-001").value.text == "DC/W01-001"
    assert parse('name:"Still \\"Water\\""').value.text == 'Still "Water"'
    assert parse("orange").value.text == "orange"  # not the OR keyword
    assert parse("Bob's").value.text == "Bob's"


def test_positions_of_terms():
    node = parse("game:ws  power>=9000")
    assert [c.pos for c in node.children] == [0, 9]
    assert node.children[1].value.pos == 16


def test_order_and_direction():
    assert compile_query("order:power dir:desc").order == ["-power"]
    assert compile_query("sort:name").order == ["name"]
    assert compile_query("dir:desc").order == ["-name"]
    assert compile_query("dragon").order == []


def test_game_restriction_detection():
    assert compile_query("game:ws power>1").games == ("ws",)
    assert compile_query("(game:ws or game:pc) c:red").games == ("pc", "ws")
    assert compile_query("game:ws or cp>3").games is None  # not a restriction: no error
    assert compile_query("cp>3", game="pc").games == ("pc",)


def test_every_numeric_stat_has_a_field():
    for stat in NUMERIC_STATS:
        assert lookup_field(stat).column == stat
    assert lookup_field("def").column == "defense"
    assert lookup_field("ability").column == lookup_field("kw").column == "keywords"
    assert lookup_field("ＰＯＷＥＲ").column == "power"  # NFKC + case-insensitive field names


def test_alias_table_is_consistent():
    names = {f.name for f in FIELDS}
    assert all(spec.name in names for spec in FIELDS_BY_NAME.values())
    assert len(FIELDS_BY_NAME) >= len(FIELDS)


# -- errors: kind and position ----------------------------------------------------------------------
ERRORS = [
    ("game:ws foo:bar", "unknown_field", 8),
    ("power>=9x", "bad_number", 7),
    ("game:ws power>=-1", "syntax", 15),
    ("power>=", "syntax", 7),
    ("(t:character c:red", "unbalanced_parenthesis", 0),
    ("t:character) c:red", "unbalanced_parenthesis", 11),
    ("a (b (c)", "unbalanced_parenthesis", 2),
    ("()", "syntax", 1),
    ('name:"open', "unterminated_string", 5),
    ("o:/(a+)+$/", "bad_regex", 2),
    ("o:/[unclosed/", "bad_regex", 2),
    ("o:/a\\1/", "bad_regex", 2),
    ("o:/(?=x)y/", "bad_regex", 2),
    ("x o:/abc", "bad_regex", 4),
    ("name>3", "bad_operator", 4),
    ("t:dragon", "bad_value", 2),
    ("game:mtg", "bad_value", 5),
    ("trigger:sould", "bad_value", 8),
    ("order:flavor", "bad_value", 6),
    ("dir:up", "bad_value", 4),
    ("counter:maybe", "bad_value", 8),
    ("game:ws cp>3", "wrong_game", 8),
    ("game:pc soul:1", "wrong_game", 8),
    ("g:ws order:mhp", "wrong_game", 11),
    ("game:lycee c:red", "wrong_game", 11),
    ("a " * 70, "too_many_terms", 0),
    ("x" * (MAX_QUERY_LENGTH + 1), "too_long", MAX_QUERY_LENGTH),
    ("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1), "too_deep", MAX_DEPTH),
    ("-" * 40 + "a", "too_deep", MAX_DEPTH),
    ("power>99999999999", "bad_number", 6),
]


@pytest.mark.parametrize("query,code,position", ERRORS)
def test_errors_have_kind_and_position(query, code, position):
    with pytest.raises(QueryError) as info:
        compile_query(query)
    err = info.value
    assert (err.code, err.position) == (code, position), err.message
    assert err.message and err.query == query
    assert 0 <= err.position <= len(query)


def test_wrong_game_message_in_words():
    with pytest.raises(QueryError) as info:
        compile_query("game:ws cp>3")
    assert info.value.message == "cp is a Prism Connect stat, not a Weiß Schwarz one"
    with pytest.raises(QueryError) as info:
        compile_query("game:chaos cost<3")
    assert "Chaos TCG" in info.value.message and "Weiß Schwarz" in info.value.message


def test_unknown_field_names_the_field():
    with pytest.raises(QueryError) as info:
        compile_query("powr>=9000")
    assert "powr" in info.value.message


def test_empty_query_matches_everything():
    assert compile_query("").q.children == []
    assert compile_query("   ").q.children == []


# -- fuzz: any input either compiles or is a QueryError (never another exception) -------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from([
    "game:ws", "g:pc", "power>=", "cp>3", "t:", "c:red", "-", "!", "(", ")", "or", "and", "||", '"', "'",
    "o:/", "/", "\\", "*", "+", "?", "[", "]", "{2,}", "soul:2", "trigger:soul", "slot:AF-C", "order:",
    "dir:desc", " ", "  ", "パワー", "ｐｏｗｅｒ", ":", "=", "!=", "<", ">", "9000", "x", "é", "\x00", "a*", "(?i)",
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=30).map("".join) | st.text(max_size=200))
def test_fuzz_compile_never_crashes(query):
    try:
        compile_query(query)
    except QueryError as exc:
        assert 0 <= exc.position <= len(query)
        assert exc.code and exc.message
