"""Compile the query AST into a Django ``Q`` plus an ordering.

List-valued fields go through ``CardFacet`` (indexed ``(facet, value)``) with ``EXISTS``; numeric
stats compare typed, indexed columns; names use ``icontains`` (served by a trigram index on
PostgreSQL, see migration 0002/0003 of the catalog).
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import BooleanField, Exists, OuterRef, Q
from django.db.models.expressions import RawSQL

from rules import games as g

from ..textnorm import fold, fold_code
from .cost import price
from .errors import QueryError
from .fields import (
    BOOL,
    CONTAINS,
    DIR,
    ENUM,
    EXACT,
    FACET,
    GAME,
    GAME_ALIASES,
    NAME,
    NUMBER,
    ORDER,
    TEXT,
    FieldSpec,
    games_phrase,
    lookup_field,
    lookup_order,
    normalize_name,
)
from .grammar import And, Node, Not, Or, Term, parse
from .localized import values_for_word
from .regex import for_vendor, required_words, validate_regex

MAX_NUMBER = 10**9
_OP_LOOKUP = {">": "gt", ">=": "gte", "<": "lt", "<=": "lte", ":": "exact", "=": "exact", "!=": "exact"}
_YES = {"yes", "y", "true", "1", "on"}
_NO = {"no", "n", "false", "0", "off"}


@dataclass
class CompiledQuery:
    q: Q
    order: list[str] = field(default_factory=list)  # e.g. ["-power"]; empty = default ordering
    games: tuple[str, ...] | None = None  # games the query is restricted to (top-level game: terms)
    uses_regex: bool = False
    # Folded codes typed as bare words (``AB/W11-002``): the card with exactly that code sorts first.
    code_words: tuple[str, ...] = ()


def _norm_value(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


# A bare word that may be a card code or its start: letters and digits with the codes' separators
# (``AB/W11-002``, ``ab-w11``, ``LO-0012``, ``SKY/W90*``), holding a digit or the set's slash.
_CODE_WORD = re.compile(r"[0-9A-Za-z]+(?:[/\-._][0-9A-Za-z]+)*[/\-]?\*?")
_TRAIT_BRACKETS = "《》≪≫"


# PostgreSQL: Card.facet_keys (migration 0013), a generated text[] of "facet:value" keys with a GIN
# index — list values, the card type and "slots:*" for a Lycee character without a position
# restriction — so facet terms are index conditions on the card table itself (bitmap AND/OR with
# each other and with the stat indexes) instead of EXISTS subqueries on CardFacet.
FACET_KEY_COLUMNS = frozenset({"colors", "attributes", "traits", "triggers", "slots", "extra_persons", "keywords"})
ANY_SLOT_KEY = "slots:*"


# PostgreSQL: LIKE under another name (migration 0015): the same function (textlike) and cost, but
# estimated as almost always true and served by no index, so the words a /regex/ needs can be
# checked in Card.text_folded before the regex runs (PostgreSQL checks conditions of equal cost in
# the order written) without changing the plan the planner picks for the regex alone.
TEXT_CONTAINS_OPERATOR = "~~@"


def text_prefilter_q(words: list[str]) -> Q:
    """``Card.text_folded`` contains each of ``words`` (ASCII letters and digits: no LIKE wildcard)."""
    q = Q()
    for word in words:
        q &= Q(RawSQL(f'"catalog_card"."text_folded" {TEXT_CONTAINS_OPERATOR} %s', (f"%{word}%",),
                      output_field=BooleanField()))
    return q


def facet_keys_q(keys: list[str]) -> Q:
    """The card has (one of) ``keys``; lower-cased by PostgreSQL as the stored keys are."""
    marks = ", ".join("lower(%s)" for _ in keys)
    op = "@>" if len(keys) == 1 else "&&"
    return Q(RawSQL(f'"catalog_card"."facet_keys" {op} ARRAY[{marks}]::text[]', tuple(keys),
                    output_field=BooleanField()))


class _Compiler:
    def __init__(self, query: str, vendor: str, games: tuple[str, ...] | None, facet_keys: bool = False,
                 text_prefilter: bool | Callable[[], bool] = False) -> None:
        self.query = query
        self.vendor = vendor
        self.facet_keys = facet_keys
        self.text_prefilter = text_prefilter
        self.games = games
        self.order_field: tuple[str, int] | None = None
        self.direction: str | None = None
        self.uses_regex = False
        self.code_words: list[str] = []

    def error(self, code: str, message: str, pos: int) -> QueryError:
        return QueryError(code, message, pos, self.query)

    # -- tree walk -------------------------------------------------------------------------------
    def compile(self, node: Node, negated: bool = False) -> Q | None:
        if isinstance(node, Term):
            return self.term(node, negated)
        if isinstance(node, Not):
            inner = self.compile(node.child, not negated)
            return None if inner is None else ~inner
        parts = [p for p in (self.compile(c, negated) for c in node.children) if p is not None]
        if not parts:
            return None
        out = parts[0]
        for p in parts[1:]:
            out = (out & p) if isinstance(node, And) else (out | p)
        return out

    # -- terms -----------------------------------------------------------------------------------
    def term(self, t: Term, negated: bool) -> Q | None:
        value = _norm_value(t.value.text)
        if t.field is None:
            if t.value.kind == "regex":
                return self.text_regex(t)
            if t.value.kind == "word":
                code = self.code_word(value)
                if code:
                    if not negated:
                        self.code_words.append(code)
                    # a card code or its start (AB/W11-002, ab-w11, ABW11-0): that card, or a name
                    return self.name_q(value) | Q(code_folded__startswith=code)
            return self.name_q(value)
        spec = lookup_field(t.field)
        if spec is None:
            raise self.error("unknown_field", f"unknown field '{t.field}'; see the search help for the field list", t.pos)
        if t.op not in spec.operators:
            raise self.error(
                "bad_operator",
                f"'{t.field}' does not take '{t.op}'; use {' or '.join(repr(o) for o in spec.operators)}",
                t.pos + len(t.field),
            )
        self.check_game(spec, t)
        if t.value.kind == "regex" and spec.kind != TEXT:
            raise self.error("bad_value", f"only text (o:) accepts a /regex/, not '{t.field}'", t.value.pos)
        q = self.field_q(spec, t, value)
        if q is not None and t.op == "!=":
            q = ~q
        return q

    def check_game(self, spec: FieldSpec, t: Term) -> None:
        owners = spec.games
        if owners is None or self.games is None:
            return
        foreign = [game for game in self.games if game not in owners]
        if foreign:
            label = "stat" if spec.kind == NUMBER else "field"
            raise self.error(
                "wrong_game",
                f"{t.field} is a {games_phrase(owners)} {label}, not a {games_phrase(tuple(foreign))} one",
                t.pos,
            )

    def field_q(self, spec: FieldSpec, t: Term, value: str) -> Q | None:
        kind = spec.kind
        vpos = t.value.pos
        if not value and kind not in (NAME, TEXT, CONTAINS, EXACT):
            raise self.error("bad_value", f"'{t.field}' needs a value", vpos)
        if kind == GAME:
            game = GAME_ALIASES.get(normalize_name(value).replace(" ", ""))
            if game is None:
                raise self.error("bad_value", f"unknown game '{value}'; expected one of {', '.join(g.GAMES)}", vpos)
            return Q(game=game)
        if kind == NUMBER:
            n = self.number(value, vpos, t.field)
            if t.op == "!=":  # only cards that have the stat (a climax has no level to differ)
                return ~(Q(**{f"{spec.column}__lt": n}) | Q(**{f"{spec.column}__gt": n}))
            return Q(**{f"{spec.column}__{_OP_LOOKUP[t.op]}": n})
        if kind == FACET:
            if spec.column == "traits":  # trait:《音楽》 as the cards print it
                value = value.strip(_TRAIT_BRACKETS).strip()
                if not value:
                    raise self.error("bad_value", f"'{t.field}' needs a value", vpos)
            facet_values = {self.facet_value(spec, value)}
            known = {v.lower() for v in spec.values}
            if spec.values and not facet_values & known:
                # a word the pages show for a value, in any interface language (トリガー:扉, 色:黄)
                facet_values = {v.lower() for v in values_for_word(spec.name, value)}
                if not facet_values:
                    raise self.error(
                        "bad_value",
                        f"unknown {spec.name} '{value}'; expected one of {', '.join(spec.values)}",
                        vpos,
                    )
            if self.facet_keys and spec.column in FACET_KEY_COLUMNS:
                keys = [f"{spec.column}:{v}" for v in sorted(facet_values)]
                if spec.column == "slots":  # a Lycee character without a restriction may enter any slot
                    keys.append(ANY_SLOT_KEY)
                return facet_keys_q(keys)
            if spec.column == "effect_kinds":
                self.check_effect_kind(facet_values, value, vpos)
            from catalog.models import CardFacet

            facets = CardFacet.objects.filter(card=OuterRef("pk"), facet=spec.column)
            if len(facet_values) == 1:
                has = Q(Exists(facets.filter(value=next(iter(facet_values)))))
            else:
                has = Q(Exists(facets.filter(value__in=sorted(facet_values))))
            if spec.column == "slots":
                # No position restriction means the character may enter any slot.
                unrestricted = Q(game__in=spec.games, card_type="character") & ~Q(
                    Exists(CardFacet.objects.filter(card=OuterRef("pk"), facet="slots"))
                )
                return has | unrestricted
            return has
        if kind == NAME:
            return self.name_q(value)
        if kind == TEXT:
            if t.value.kind == "regex":
                return self.text_regex(t)
            if value.startswith("/"):
                raise self.error("bad_regex", "the regex is not closed: end it with '/'", vpos)
            folded = fold(value)
            # The stored folded text (catalog.textnorm.fold): width, case, kana and separators.
            return self.folded_contains("text_folded", folded) if folded else Q(text__icontains=value)
        if kind == CONTAINS:
            return Q(**{f"{spec.column}__icontains": value})
        if kind == EXACT:
            prefix = value.endswith("*")
            if spec.column == "code":  # code:ab-w11-002, code:ABW11* (catalog.textnorm.fold_code)
                folded = fold_code(value[:-1] if prefix else value)
                if folded:
                    return Q(code_folded__startswith=folded) if prefix else Q(code_folded=folded)
            if prefix:
                return Q(**{f"{spec.column}__istartswith": value[:-1]})
            return Q(**{f"{spec.column}__iexact": value})
        if kind == ENUM:
            stored = self.enum_values(spec, value, vpos)
            if spec.column == "card_type" and self.facet_keys:
                return facet_keys_q([f"type:{v}" for v in stored])
            if len(stored) == 1:
                return Q(**{spec.column: stored[0]})
            return Q(**{f"{spec.column}__in": stored})
        if kind == BOOL:
            low = value.lower()
            if low not in _YES | _NO:
                raise self.error("bad_value", f"'{t.field}' takes yes or no, not '{value}'", vpos)
            return Q(**{spec.column: low in _YES})
        if kind == ORDER:
            column = lookup_order(value)
            if column is None:
                raise self.error("bad_value", f"cannot sort by '{value}'", vpos)
            if self.games is not None:
                order_spec = lookup_field(value)
                if order_spec is not None:
                    self.check_game(order_spec, Term(value, ":", t.value, vpos))
            self.order_field = (column, vpos)
            return None
        if kind == DIR:
            low = value.lower()
            if low not in ("asc", "desc"):
                raise self.error("bad_value", f"dir takes asc or desc, not '{value}'", vpos)
            self.direction = low
            return None
        raise AssertionError(kind)  # pragma: no cover

    def check_effect_kind(self, kinds: set[str], value: str, vpos: int) -> None:
        """``effect:`` takes a kind of a game's vocabulary (catalog.abilities.effect_vocabulary; the
        games of a top-level ``game:`` term, else every game's)."""
        from catalog.abilities import all_effect_kinds, effect_vocabulary

        known = ({k for game in self.games for k in effect_vocabulary(game)} if self.games is not None
                 else all_effect_kinds())
        if not kinds & known:
            raise self.error("bad_value", f"unknown effect '{value}'; the search help lists the effect kinds of each game",
                             vpos)

    @staticmethod
    def facet_value(spec: FieldSpec, value: str) -> str:
        """A typed list value as ``CardFacet.value`` stores it (lower case; keywords with ``_``)."""
        facet_value = value.lower()
        if spec.column in ("keywords", "effect_kinds"):
            facet_value = facet_value.replace("-", "_").replace(" ", "_")
        elif spec.column == "slots":
            facet_value = facet_value.replace("_", "-")
        return facet_value

    def enum_values(self, spec: FieldSpec, value: str, vpos: int) -> list[str]:
        """The stored values an enumerated value names: the English code (``climax``), or a word the
        pages show for it in any interface language (``クライマックス``, ``高潮卡``)."""
        key = normalize_name(value).replace(" ", "_")
        if spec.column == "card_type":
            key = key.replace("-", "_")
        allowed = {v.lower(): v for v in spec.values}
        if key in allowed:
            names = [allowed[key]]
        else:
            names = sorted(allowed[v.lower()] for v in values_for_word(spec.name, value) if v.lower() in allowed)
            if not names:
                raise self.error(
                    "bad_value", f"unknown {spec.name} '{value}'; expected one of {', '.join(spec.values)}", vpos
                )
        if spec.column == "bonus_mark":
            return ["" if n == "none" else n.upper() for n in names]
        if spec.column == "timing":
            return [n.upper() for n in names]
        return names

    @staticmethod
    def code_word(value: str) -> str:
        """The folded code a bare word may be (``AB/W11-002`` → ``ABW11002``), or "" when it is not
        code-like: letters and digits with ``/ - . _``, holding a digit or a slash, 3+ characters."""
        if not _CODE_WORD.fullmatch(value):
            return ""
        body = value.rstrip("*")
        if not (any(ch.isdigit() for ch in body) or "/" in body):
            return ""
        code = fold_code(body)
        return code if len(code) >= 3 else ""

    def number(self, value: str, pos: int, fld: str) -> int:
        text = value.replace(",", "").replace("_", "")
        if not text.isascii() or not text.isdigit():
            raise self.error("bad_number", f"'{value}' is not a whole number (in {fld})", pos)
        n = int(text)
        if n > MAX_NUMBER:
            raise self.error("bad_number", f"{value} is too large (at most {MAX_NUMBER})", pos)
        return n

    def name_q(self, value: str) -> Q:
        if not value:
            return Q()
        folded = fold(value)
        if folded:
            # name_folded holds the folded name and alternate names (catalog.textnorm.fold), so
            # ＡＰ＋３ finds AP+3, かな finds カナ and 「」・／〔〕 need not be typed.
            return self.folded_contains("name_folded", folded)
        # Only separators typed (e.g. "・"): match them literally.
        q = Q(name__icontains=value) | Q(alt_names__icontains=value)
        escaped = json.dumps(value)[1:-1]
        if escaped != value and self.vendor != "postgresql":
            # SQLite stores JSON with \\uXXXX escapes for non-ASCII characters.
            q |= Q(alt_names__icontains=escaped)
        return q

    def folded_contains(self, column: str, folded: str) -> Q:
        """``column`` (a folded column) contains ``folded``. On PostgreSQL a two-character value with a
        non-ASCII character (``结弦``, ``経験``) has no trigram to use: the bigram index of migration
        0011 answers it, exactly (a two-character run is in the set iff it is in the text)."""
        if self.vendor == "postgresql" and len(folded) == 2 and not folded.isascii():
            return Q(RawSQL(f'catalog_bigrams("catalog_card"."{column}") @> ARRAY[%s]::text[]', (folded,),
                            output_field=BooleanField()))
        return Q(**{f"{column}__contains": folded})

    def text_regex(self, t: Term) -> Q:
        validate_regex(t.value.text, t.value.pos, self.query)
        self.uses_regex = True
        regex = Q(text__iregex=for_vendor(t.value.text, self.vendor))
        if callable(self.text_prefilter):  # asked only when a regex is there
            self.text_prefilter = bool(self.text_prefilter())
        words = required_words(t.value.text) if self.text_prefilter else []
        # the words every match holds first (cheap), the regex only on the texts that have them
        return (text_prefilter_q(words) & regex) if words else regex


def _top_level_games(node: Node | None, query: str) -> tuple[str, ...] | None:
    """Games fixed by non-negated ``game:`` terms ANDed at the top level (None = no restriction)."""
    if node is None:
        return None
    terms = node.children if isinstance(node, And) else (node,)
    games: set[str] | None = None
    for t in terms:
        if isinstance(t, Term) and t.field is not None and t.op in (":", "="):
            spec = lookup_field(t.field)
            if spec is not None and spec.kind == GAME:
                game = GAME_ALIASES.get(normalize_name(t.value.text).replace(" ", ""))
                if game is None:
                    raise QueryError(
                        "bad_value", f"unknown game '{t.value.text}'; expected one of {', '.join(g.GAMES)}",
                        t.value.pos, query,
                    )
                games = {game} if games is None else games & {game}
        elif isinstance(t, Or) and all(
            isinstance(c, Term) and c.field is not None and (s := lookup_field(c.field)) is not None
            and s.kind == GAME and c.op in (":", "=")
            for c in t.children
        ):
            found = {GAME_ALIASES.get(normalize_name(c.value.text).replace(" ", "")) for c in t.children}  # type: ignore[union-attr]
            found.discard(None)
            games = found if games is None else games & found  # type: ignore[assignment]
    if games is None:
        return None
    return tuple(x for x in g.GAMES if x in games)


def compile_query(q: str, *, game: str | None = None, vendor: str = "sqlite",
                  facet_keys: bool | None = None, text_prefilter: bool | Callable[[], bool] = False) -> CompiledQuery:
    """Parse and compile a query string. ``game`` restricts to one game like a ``game:`` term.
    ``facet_keys``: match list values through ``Card.facet_keys`` (default: on PostgreSQL).
    ``text_prefilter`` (PostgreSQL with migration 0015; or a function answering that, asked when the
    query has a /regex/): a regex first checks the words it needs in ``Card.text_folded``
    (``TEXT_CONTAINS_OPERATOR``)."""
    node = parse(q)
    price(node, q)  # regex terms, counted repeats, OR width (cost.py): a 400 before any SQL
    games = _top_level_games(node, q)
    if game is not None:
        games = (game,) if games is None else tuple(x for x in games if x == game)
    comp = _Compiler(q, vendor, games, vendor == "postgresql" if facet_keys is None else facet_keys,
                     text_prefilter=text_prefilter if vendor == "postgresql" else False)
    cond = comp.compile(node) if node is not None else None
    order: list[str] = []
    if comp.order_field is not None or comp.direction is not None:
        column = comp.order_field[0] if comp.order_field else "name"
        order = [("-" if comp.direction == "desc" else "") + column]
    return CompiledQuery(q=cond if cond is not None else Q(), order=order, games=games, uses_regex=comp.uses_regex,
                         code_words=tuple(dict.fromkeys(comp.code_words)))
