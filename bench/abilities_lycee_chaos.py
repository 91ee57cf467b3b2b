"""Lycee and Chaos ability compilers: coverage and speed on the real data (no database).

    .venv/bin/python bench/abilities_lycee_chaos.py [--data ../shared/carddata/lycee] [--top 30] [--json FILE]

Lycee: reads ``lycee_overture_cards.jsonl`` directly, compiles every card's ``text`` with
``rules.lycee.abilities`` and parses its 構築制限 with ``rules.lycee.restrictions``; prints the
cards, the ability instances (basic-ability tokens, special abilities, event texts, rule notes),
the compiled share of instances (overall and per ability kind), the share of cards whose text
compiled completely, the restriction parse share, the cards whose basic-ability line had
unbalanced brackets (repaired, abilities kept), the top unrecognised first phrases (numbers shown
as N, names as 「X」) and the speed in cards/s (cold caches: every distinct sentence parsed;
CPU and wall-clock time, the machine may be shared). Chaos: the real data (the Korean trial
deck) has no effect text, so the project's own texts (``fixtures/cards/chaos.json``) are
compiled. Targets: ≥ 80% of Lycee instances; every Chaos fixture text. Exit status 1 when a
target is missed.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_LYCEE_INSTANCES = 0.80
TARGET_CHAOS_INSTANCES = 1.0


def _shape(phrase: str) -> str:
    phrase = re.sub(r"「[^」]*」", "「X」", phrase)
    phrase = re.sub(r"『[^』]*』", "『T』", phrase)
    return re.sub(r"\d+", "N", phrase)


def lycee(data: Path, top: int) -> dict:
    from rules.lycee.abilities import clear_caches, compile_text, split_text
    from rules.lycee.abilities.compiler import _parser
    from rules.lycee.restrictions import parse_restriction, restriction_of_text

    path = data / "lycee_overture_cards.jsonl"
    cards = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    _parser()  # the LALR tables are built once per process; not part of the per-card speed
    parse_restriction("[NEX]")
    clear_caches()
    cpu, wall = time.process_time(), time.perf_counter()
    results = [compile_text(c["text"], c["type"]) for c in cards]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall

    instances = compiled = 0
    per_kind: dict[str, list[int]] = {}
    unrecognised: Counter[str] = Counter()
    examples: dict[str, str] = {}
    cards_with_text = cards_full = options_missing = 0
    for card, abilities in zip(cards, results, strict=True):
        if abilities:
            cards_with_text += 1
            if all(a.compiled for a in abilities):
                cards_full += 1
        for a in abilities:
            instances += 1
            row = per_kind.setdefault(a.kind, [0, 0])
            row[1] += 1
            if a.compiled:
                compiled += 1
                row[0] += 1
            else:
                if "以下から" in (a.unrecognised or ""):
                    options_missing += 1
                shape = _shape(a.unrecognised or "")
                unrecognised[shape] += 1
                examples.setdefault(shape, card["cardNo"])

    restrictions = [r for r in (restriction_of_text(c["text"], c["type"]) for c in cards) if r is not None]
    restrictions_ok = sum(1 for r in restrictions if r.parsed)
    repaired = {c["cardNo"]: split_text(c["text"], c["type"]).repairs for c in cards}
    repaired = {k: v for k, v in repaired.items() if v}
    return {
        "game": "lycee", "data": str(path), "cards": len(cards), "cards_with_abilities": cards_with_text,
        "cards_fully_compiled": cards_full, "instances": instances, "compiled": compiled,
        "options_missing_in_source": options_missing,
        "compiled_share": compiled / instances if instances else 1.0,
        "per_kind": {k: {"compiled": v[0], "instances": v[1]} for k, v in sorted(per_kind.items())},
        "restrictions": len(restrictions), "restrictions_parsed": restrictions_ok,
        "restrictions_share": restrictions_ok / len(restrictions) if restrictions else 1.0,
        "restrictions_unparsed": [r.unrecognised for r in restrictions if not r.parsed],
        "repaired_brackets": repaired,
        "top_unrecognised": [{"phrase": p, "count": n, "example": examples[p]} for p, n in unrecognised.most_common(top)],
        "speed": {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3), "cards_per_s_cpu": round(len(cards) / cpu),
                  "cards_per_s_wall": round(len(cards) / wall)},
    }


def chaos(fixture: Path) -> dict:
    from rules.chaos.abilities import compile_text

    cards = json.loads(fixture.read_text(encoding="utf-8"))["cards"]
    instances = compiled = with_text = 0
    failures = []
    for c in cards:
        abilities = compile_text(c.get("text"), c["card_type"])
        if abilities:
            with_text += 1
        for a in abilities:
            instances += 1
            if a.compiled:
                compiled += 1
            else:
                failures.append({"code": c["code"], "phrase": a.unrecognised})
    return {"game": "chaos", "data": str(fixture), "cards": len(cards), "cards_with_text": with_text,
            "instances": instances, "compiled": compiled,
            "compiled_share": compiled / instances if instances else 1.0, "unrecognised": failures}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "carddata" / "lycee")
    ap.add_argument("--chaos", type=Path, default=ROOT / "fixtures" / "cards" / "chaos.json")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args()

    ly = lycee(args.data, args.top)
    ch = chaos(args.chaos)
    pct = lambda a, b: f"{a:,} / {b:,} = {a / b:.1%}" if b else "-"  # noqa: E731
    print(f"Lycee ({ly['data']})")
    print(f"  cards                     {ly['cards']:,} ({ly['cards_with_abilities']:,} with abilities)")
    print(f"  ability instances compiled {pct(ly['compiled'], ly['instances'])}  (target ≥ {TARGET_LYCEE_INSTANCES:.0%})")
    print(f"  cards fully compiled      {pct(ly['cards_fully_compiled'], ly['cards_with_abilities'])}")
    print(f"  options lost by the source {ly['options_missing_in_source']} abilities (以下から…選び処理する, no ・ lines)")
    print(f"  restrictions parsed       {pct(ly['restrictions_parsed'], ly['restrictions'])}")
    print(f"  bracket repairs           {len(ly['repaired_brackets'])} cards: {', '.join(sorted(ly['repaired_brackets']))}")
    sp = ly["speed"]
    print(f"  speed                     {sp['cards_per_s_cpu']:,} cards/s CPU ({sp['cpu_s']} s), "
          f"{sp['cards_per_s_wall']:,} cards/s wall ({sp['wall_s']} s)")
    print("  per ability kind:")
    for kind, row in ly["per_kind"].items():
        print(f"    {kind:18} {pct(row['compiled'], row['instances'])}")
    print(f"  top {len(ly['top_unrecognised'])} unrecognised first phrases:")
    for row in ly["top_unrecognised"]:
        print(f"    {row['count']:4}  {row['example']}  {row['phrase']}")
    if ly["restrictions_unparsed"]:
        print("  restrictions not fully parsed: " + " | ".join(ly["restrictions_unparsed"]))
    print(f"Chaos ({ch['data']})")
    print(f"  cards {ch['cards']} ({ch['cards_with_text']} with text); instances compiled "
          f"{pct(ch['compiled'], ch['instances'])}")
    for row in ch["unrecognised"]:
        print(f"    {row['code']}  {row['phrase']}")
    if args.json:
        args.json.write_text(json.dumps({"lycee": ly, "chaos": ch}, ensure_ascii=False, indent=1), encoding="utf-8")
    ok = ly["compiled_share"] >= TARGET_LYCEE_INSTANCES and ch["compiled_share"] >= TARGET_CHAOS_INSTANCES
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
