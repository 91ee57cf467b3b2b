"""Lycee Overture construction restrictions (構築制限) → a structured rule.

The restriction is printed at the end of a card's text (``構築制限:[NEX]``,
``構築制限:【[AMC]】【[月]】【禁止:コストが3~4点のキャラ】``); it is not an ability but a condition on
the deck the card is in. (The JSON lines' ``restrictionRaw`` field, despite its name, holds the
position restriction; see ``docs/importing.md``.) Shapes, each a dict with ``kind``:

- ``brand`` ``{"code": "NEX", "name": "..."}`` / ``title`` ``{"name": "..."}`` / ``attribute``
  ``{"attributes": ["moon"]}``: every card of the deck belongs to that brand / work / attribute
  (the usual reading of a bare 構築制限 entry; colourless cards are not exempted here);
- ``any_of`` / ``all_of`` ``{"of": [...]}``: ``または`` / ``かつ`` and juxtaposed ``【…】`` entries;
- ``requires`` ``{"card": {...}, "min": N}`` / ``at_most`` ``{"card": {...}, "max": N}``: the deck
  holds at least / at most N cards matching (``『アマカノ3』エリアが1枚以上``, ``「花之宮瑞穂」が4枚以下``);
- ``copy_limit`` ``{"max": N}``: at most N copies of this card number (``このカードと同番号が1枚以下``);
- ``cost`` ``{"min", "max", "what"}``: the deck's characters (or cards) cost that much;
- ``forbid`` ``{"card": {...}}`` or ``{"text": "..."}``: no card matching (``禁止:アイテム``);
- ``one_of_names`` ``{"names": [...]}``: the deck holds one of the named cards.

:func:`parse_restriction` never raises: text it cannot read is kept in ``unrecognised``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

from rules.lycee.abilities.reader import ATTRIBUTE_NAMES
from rules.lycee.abilities.text import normalize, split_text

RESTRICTION_KINDS: tuple[tuple[str, str], ...] = (
    ("brand", "every card of the deck is of this brand ([NEX], アクアプラス([AQP]), ゆずソフト)"),
    ("title", "every card of the deck is of this work (『とある科学の超電磁砲』)"),
    ("attribute", "every card of the deck has this attribute ([月])"),
    ("any_of", "one of the listed restrictions (または)"),
    ("all_of", "all the listed restrictions (【…】【…】, かつ)"),
    ("requires", "the deck holds at least N matching cards (…が1枚以上)"),
    ("at_most", "the deck holds at most N matching cards (…が4枚以下)"),
    ("copy_limit", "at most N copies of this card number (このカードと同番号が1枚以下)"),
    ("cost", "the deck's characters cost within a range (コストが3~4点, キャラはコストが3点以上)"),
    ("forbid", "no card of the deck matches (禁止:…)"),
    ("one_of_names", "the deck holds one of the named cards (「A」「B」…のいずれか)"),
)

GRAMMAR = r"""
start: conj

conj: bracketed+                              -> all_of
    | item                                    -> all_of
    | conj "かつ" entry                        -> and_
?entry: bracketed | item
bracketed: "【" item "】"                      -> entry
         | "【" item                          -> entry
?item: disj
     | "禁止" ":" forbid                       -> forbid
     | target "が" INT "枚" CMP                -> count_limit
     | COPY INT "枚以下"                       -> copy_limit
     | COST INT "~" INT "点"                   -> cost_range
     | CHAR_COST INT "点" CMP                  -> char_cost
     | NAME+ "のいずれか"                       -> one_of_names
disj: atom ("または" atom)*
?atom: BRAND_CODE                             -> brand_code
     | BRAND_NAME BRAND_CODE_PAREN?           -> brand_name
     | TITLE                                  -> title
     | ATTRS                                  -> attribute

target: NAME                                  -> t_name
      | TITLE NOUN                            -> t_title_noun
      | ATTRS ATTRS* "の" NOUN                 -> t_attr_noun
forbid: FREE

CMP: "以上" | "以下"
COPY.3: "このカードと同番号が"
COST.3: "コストが"
CHAR_COST.3: "キャラはコストが"
NOUN: "キャラ" | "エリア" | "アイテム" | "イベント" | "カード"
NAME: /「[^」]*」/
TITLE: /『[^』]*』/
ATTRS: /\[?[雪月花宙日無]+\]/ | /\[[雪月花宙日無]+\]?/ | /(?<=【)[雪月花宙日無]+(?=】)/
BRAND_CODE: /\[[A-Z][A-Z0-9]{1,5}\]|\[非シングル\]/
BRAND_CODE_PAREN: /\(\[[A-Z][A-Z0-9]{1,5}\]\)?/
BRAND_NAME: /[^【】\[\]『』「」:\s(][^【】\[\]『』「」:(]*/
FREE: /[^】]+/
INT: /\d+/
%ignore " "
"""


@v_args(inline=True)
class _Rules(Transformer):
    def start(self, x: Any) -> Any:
        return x

    def all_of(self, *entries: Any) -> dict[str, Any]:
        return entries[0] if len(entries) == 1 else {"kind": "all_of", "of": list(entries)}

    def and_(self, conj: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        items = conj["of"] if conj.get("kind") == "all_of" else [conj]
        return {"kind": "all_of", "of": [*items, entry]}

    def entry(self, item: Any) -> Any:
        return item

    def item(self, item: Any) -> Any:
        return item

    def disj(self, *atoms: Any) -> dict[str, Any]:
        return atoms[0] if len(atoms) == 1 else {"kind": "any_of", "of": list(atoms)}

    def brand_code(self, tok: Token) -> dict[str, Any]:
        return {"kind": "brand", "code": str(tok).strip("[]")}

    def brand_name(self, name: Token, code: Token | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "brand", "name": str(name).strip()}
        if code is not None:
            out["code"] = str(code).strip("()[]")
        return out

    def title(self, tok: Token) -> dict[str, Any]:
        return {"kind": "title", "name": str(tok).strip("『』").strip()}

    def attribute(self, tok: Token) -> dict[str, Any]:
        return {"kind": "attribute", "attributes": [ATTRIBUTE_NAMES[ch] for ch in str(tok) if ch in ATTRIBUTE_NAMES]}

    def forbid(self, what: Any) -> dict[str, Any]:
        return {"kind": "forbid", **what}

    def count_limit(self, target: dict[str, Any], n: Token, cmp: Token) -> dict[str, Any]:
        if str(cmp) == "以上":
            return {"kind": "requires", "card": target, "min": int(n)}
        return {"kind": "at_most", "card": target, "max": int(n)}

    def copy_limit(self, _: Token, n: Token) -> dict[str, Any]:
        return {"kind": "copy_limit", "max": int(n)}

    def cost_range(self, _: Token, lo: Token, hi: Token) -> dict[str, Any]:
        return {"kind": "cost", "min": int(lo), "max": int(hi), "what": "card"}

    def char_cost(self, _: Token, n: Token, cmp: Token) -> dict[str, Any]:
        key = "min" if str(cmp) == "以上" else "max"
        return {"kind": "cost", key: int(n), "what": "character"}

    def one_of_names(self, *names: Token) -> dict[str, Any]:
        return {"kind": "one_of_names", "names": [str(n).strip("「」") for n in names]}

    def t_name(self, tok: Token) -> dict[str, Any]:
        return {"name": str(tok).strip("「」")}

    def t_title_noun(self, title: Token, noun: Token) -> dict[str, Any]:
        return {"title": str(title).strip("『』"), "what": _NOUNS[str(noun)]}

    def t_attr_noun(self, *items: Token) -> dict[str, Any]:
        attrs = [ATTRIBUTE_NAMES[ch] for t in items[:-1] for ch in str(t) if ch in ATTRIBUTE_NAMES]
        return {"attributes": attrs, "what": _NOUNS[str(items[-1])]}

    def FREE(self, tok: Token) -> dict[str, Any]:  # noqa: N802 - lark terminal callback
        text = str(tok).strip()
        card = _forbidden_card(text)
        return {"card": card} if card is not None else {"text": text}


_NOUNS = {"キャラ": "character", "エリア": "area", "アイテム": "item", "イベント": "event", "カード": "card"}


def _forbidden_card(text: str) -> dict[str, Any] | None:
    """``アイテム`` / ``コストが3~4点のキャラ`` read by the ability grammar's noun phrase."""
    from rules.lycee.abilities.compiler import NotUnderstood, read_noun_phrase

    try:
        np_ = read_noun_phrase(text)
    except NotUnderstood:
        return None
    return np_ if isinstance(np_, dict) and np_.get("type") == "card" else None


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", transformer=_Rules(), maybe_placeholders=False)


@dataclass(frozen=True, slots=True)
class Restriction:
    """A parsed 構築制限: ``rule`` (``None`` when unreadable) and ``unrecognised``, the text (or the
    ``禁止:`` entry whose card could not be read) that kept it from being fully parsed."""

    text: str
    rule: dict[str, Any] | None
    unrecognised: str | None = None

    @property
    def parsed(self) -> bool:
        return self.unrecognised is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.rule is not None:
            out["rule"] = self.rule
        if self.unrecognised is not None:
            out["unrecognised"] = self.unrecognised
        return out


@lru_cache(maxsize=4096)
def parse_restriction(text: str) -> Restriction:
    """``[NEX]`` / ``構築制限:【[AMC]】【[月]】`` → :class:`Restriction` (never raises)."""
    body = normalize(text).replace("\n", "")
    if body.startswith("構築制限"):
        body = body.split(":", 1)[1] if ":" in body else body[4:]
    body = body.strip()
    try:
        rule = _parser().parse(body)
    except (UnexpectedInput, VisitError):
        return Restriction(text=body, rule=None, unrecognised=body)
    unread = [f"禁止:{r['text']}" for r in _walk(rule) if r.get("kind") == "forbid" and "text" in r]
    return Restriction(text=body, rule=rule, unrecognised=unread[0] if unread else None)


def _walk(rule: dict[str, Any]) -> list[dict[str, Any]]:
    out = [rule]
    for sub in rule.get("of", []):
        out.extend(_walk(sub))
    return out


def restriction_of_text(card_text: str, card_type: str = "character") -> Restriction | None:
    """The 構築制限 printed in a card's text, parsed; ``None`` when the card has none."""
    raw = split_text(card_text, card_type).restriction
    return parse_restriction(raw) if raw else None
