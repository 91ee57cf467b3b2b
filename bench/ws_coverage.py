"""What the WS goldfish engine covers on the real data: played / no effect / not played / not understood.

    .venv/bin/python bench/ws_coverage.py                 # tables for docs/abilities.md
    .venv/bin/python bench/ws_coverage.py --json FILE     # the same figures as JSON

Reads every real WS card of ``../shared/carddata/weiss_schwarz/`` (both sources merged, no database:
``bench/realdata.py``) and the 14 real decks, and prints:

- cards with text fully modelled (``rules.coverage``: every ability played or no effect in goldfish);
- ability instances by ability kind and coverage status;
- effect occurrences by effect kind: ``played`` (a step of a played ability), ``no effect`` (dropped:
  it cannot change a goldfish game), ``not played`` (in an ability the engine does not play);
- the most frequent reasons an ability is not played, and the no-effect reasons;
- each real deck's share of copies fully modelled.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.realdata import WS_ROOT, ws_cards, ws_deck, ws_real_decks  # noqa: E402
from rules.abilities import NO_EFFECT, NOT_PLAYED, NOT_UNDERSTOOD, PLAYED, is_vanilla_text  # noqa: E402
from rules.coverage import card_coverage, deck_coverage  # noqa: E402
from rules.engine.core import get_engine  # noqa: E402
from rules.ws.abilities import compile_text_cached  # noqa: E402
from rules.ws.engine.abilities import Skip, Unsupported, effect  # noqa: E402

STATUSES = (PLAYED, NO_EFFECT, NOT_PLAYED, NOT_UNDERSTOOD)


def measure(root: Path = WS_ROOT) -> dict:
    engine = get_engine("ws")
    cards = ws_cards(root)
    with_text = [c for c in cards.values() if not is_vanilla_text(c.text)]
    modelled = 0
    by_ability: dict[str, Counter] = defaultdict(Counter)
    by_effect: dict[str, Counter] = defaultdict(Counter)
    not_played: Counter = Counter()
    no_effect: Counter = Counter()
    examples: dict[str, str] = {}
    for card in with_text:
        cov = card_coverage(card, engine, compile_text_cached)
        modelled += cov.modelled
        for ability, c in cov.abilities:
            by_ability[ability.kind][c.status] += 1
            if c.status == NOT_PLAYED:
                not_played[c.reason] += 1
                examples.setdefault(c.reason, card.code)
            elif c.status == NO_EFFECT:
                no_effect[c.reason] += 1
            if not ability.compiled:
                continue
            for e in ability.effects:
                if c.status == NOT_PLAYED:
                    by_effect[e.kind][NOT_PLAYED] += 1
                    continue
                try:
                    effect(e, card)
                    by_effect[e.kind][PLAYED if c.status == PLAYED else NO_EFFECT] += 1
                except Skip:
                    by_effect[e.kind][NO_EFFECT] += 1
                except Unsupported:
                    by_effect[e.kind][PLAYED if c.status == PLAYED else NOT_PLAYED] += 1  # (a continuous part)
    decks = {}
    for path in ws_real_decks(root):
        deck = ws_deck(path, cards, root, skip_unknown=True)
        d = deck_coverage(deck.main, engine, compile_text_cached)
        decks[path.name] = {"copies": d["copies"], "copies_modelled": d["copies_modelled"],
                            "share": d["copies_share"], "cards": d["cards"], "cards_modelled": d["cards_modelled"]}
    return {
        "cards": len(cards), "cards_with_text": len(with_text), "cards_modelled": modelled,
        "share": modelled / len(with_text),
        "abilities": {k: dict(v) for k, v in sorted(by_ability.items())},
        "effects": {k: dict(v) for k, v in sorted(by_effect.items(), key=lambda kv: -sum(kv[1].values()))},
        "not_played": [{"count": n, "reason": r, "card": examples[r]} for r, n in not_played.most_common(25)],
        "no_effect": [{"count": n, "reason": r} for r, n in no_effect.most_common()],
        "decks": decks,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    r = measure()
    if args.json:
        args.json.write_text(json.dumps(r, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"cards with text fully modelled: {r['cards_modelled']:,} / {r['cards_with_text']:,} = {r['share']:.2%}")
    print("\n| ability kind | played | no effect | not played | not understood |\n| --- | ---: | ---: | ---: | ---: |")
    for kind, c in r["abilities"].items():
        print(f"| `{kind}` | " + " | ".join(f"{c.get(s, 0):,}" for s in STATUSES) + " |")
    print("\n| effect kind | played | no effect | not played |\n| --- | ---: | ---: | ---: |")
    for kind, c in r["effects"].items():
        print(f"| `{kind}` | " + " | ".join(f"{c.get(s, 0):,}" for s in STATUSES[:3]) + " |")
    print("\n| count | not played because | card |\n| ---: | --- | --- |")
    for x in r["not_played"]:
        print(f"| {x['count']} | {x['reason']} | {x['card']} |")
    print("\n| count | no effect in goldfish because |\n| ---: | --- |")
    for x in r["no_effect"]:
        print(f"| {x['count']:,} | {x['reason']} |")
    print("\n| deck | copies fully modelled | cards |\n| --- | ---: | ---: |")
    for name, d in r["decks"].items():
        print(f"| {name} | {d['copies_modelled']}/{d['copies']} = {d['share']:.0%} | {d['cards_modelled']}/{d['cards']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
