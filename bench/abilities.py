"""Ability compiler coverage and speed on the real card data (no database).

    .venv/bin/python bench/abilities.py --game ws [--data ../shared/carddata/weiss_schwarz] [--top 30] [--json FILE]

Reads both Weiß Schwarz sources straight from their files (AlphaC2 JSONL: every record; HOTC
translation blocks: one card per code, its Japanese lines), compiles every card's text with
``rules.ws.abilities`` and prints: cards (vanilla and English-only ones counted apart), ability
instances, the compiled share of instances (overall, per source, per card type), the climaxes'
compiled share, the top unrecognised first phrases with their counts, and the speed in cards/s:
``compile_text`` (every ability parsed) and ``compile_text_cached`` from a cold cache (reprints
and shared abilities compiled once, as a catalog recompile does). Speed is given on this
process's CPU time and on wall-clock time (the machine may be shared). Targets: ≥ 90% of
instances, 100% of climaxes, ≥ 2,000 cards/s. Exit status 1 when a target is missed. The English
HOTC lines serve only as a cross-check: how many cards have as many compiled abilities as their
English text has ability markers.
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

TARGET_INSTANCES = 0.90
TARGET_CLIMAXES = 1.0
TARGET_CARDS_PER_S = 2000
_EN_MARKER = re.compile(r"^\s*(?:【(?:A|C|S|Auto|Cont|Act|Counter|AUTO|CONT|ACT)】|\[(?:A|C|S)\])", re.M)


def ws(data: Path, top: int) -> dict:
    from rules.abilities import is_vanilla_text
    from rules.ws.abilities import clear_caches, compile_text, compile_text_cached
    from rules.ws.abilities.sources import all_cards

    cards = list(all_cards(data))
    out: dict = {"game": "ws", "data": str(data), "cards": len(cards)}
    vanilla = sum(1 for c in cards if is_vanilla_text(c.text) and not c.english.strip())
    english_only = sum(1 for c in cards if is_vanilla_text(c.text) and c.english.strip())
    out["vanilla_cards"] = vanilla
    out["english_only_cards"] = english_only

    def timed(fn) -> tuple[float, float, list]:
        cpu, wall = time.process_time(), time.perf_counter()
        results = [fn(c.text, c.card_type) for c in cards]
        return time.process_time() - cpu, time.perf_counter() - wall, results

    cpu, wall, results = timed(compile_text)
    clear_caches()
    cpu_c, wall_c, _ = timed(compile_text_cached)
    out["speed"] = {
        "compile_text": {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
                         "cards_per_s_cpu": round(len(cards) / cpu), "cards_per_s_wall": round(len(cards) / wall)},
        "compile_text_cached_cold": {"cpu_s": round(cpu_c, 3), "wall_s": round(wall_c, 3),
                                     "cards_per_s_cpu": round(len(cards) / cpu_c),
                                     "cards_per_s_wall": round(len(cards) / wall_c)},
    }
    instances = compiled = truncated = 0
    by: dict[str, list[int]] = {}
    cards_with_text = fully = 0
    failed: Counter[str] = Counter()
    example: dict[str, str] = {}
    for card, abilities in zip(cards, results, strict=True):
        if abilities:
            cards_with_text += 1
            fully += all(a.compiled for a in abilities)
        for ab in abilities:
            instances += 1
            ok = ab.compiled
            compiled += ok
            truncated += any(e.kind == "truncated" for e in ab.effects)
            for key in (f"source:{card.source}", f"type:{card.card_type}"):
                by.setdefault(key, [0, 0])
                by[key][0] += 1
                by[key][1] += ok
            if not ok and ab.unrecognised:
                failed[ab.unrecognised] += 1
                example.setdefault(ab.unrecognised, card.code)
    out["cards_with_text"] = cards_with_text
    out["cards_fully_compiled"] = fully
    out["instances"] = instances
    out["compiled"] = compiled
    out["compiled_share"] = compiled / instances if instances else 1.0
    out["truncated_in_source"] = truncated
    out["by"] = {k: {"instances": v[0], "compiled": v[1], "share": v[1] / v[0]} for k, v in sorted(by.items())}
    # Cross-check with the English text (HOTC): as many abilities as the English lines have markers.
    agree = checked = 0
    for card, abilities in zip(cards, results, strict=True):
        if card.source == "hotc" and abilities and card.english.strip():
            markers = len(_EN_MARKER.findall(card.english))
            if markers:
                checked += 1
                agree += markers == len(abilities)
    out["english_cross_check"] = {"cards": checked, "same_ability_count": agree}
    climax = by.get("type:climax", [0, 0])
    out["climax_share"] = climax[1] / climax[0] if climax[0] else 1.0
    out["top_unrecognised"] = [{"phrase": p, "count": n, "example": example[p]} for p, n in failed.most_common(top)]
    return out


def report(r: dict) -> bool:
    pct = lambda x: f"{100 * x:.2f}%"  # noqa: E731
    print(f"Weiß Schwarz ability compiler — data: {r['data']}")
    print(f"cards: {r['cards']:,} ({r['cards_with_text']:,} with Japanese text, {r['vanilla_cards']:,} vanilla, "
          f"{r['english_only_cards']:,} with English text only: not compiled, the Japanese text is the source)")
    print(f"ability instances: {r['instances']:,}; compiled: {r['compiled']:,} = {pct(r['compiled_share'])} "
          f"(target ≥ {pct(TARGET_INSTANCES)}); cards fully compiled: {r['cards_fully_compiled']:,} "
          f"of {r['cards_with_text']:,}")
    for key, v in r["by"].items():
        print(f"  {key:<18} {v['compiled']:>6,} / {v['instances']:>6,} = {pct(v['share'])}")
    x = r["english_cross_check"]
    print(f"cross-check with the English text (HOTC): the same number of abilities as English markers on "
          f"{x['same_ability_count']:,} of {x['cards']:,} cards")
    print(f"climaxes: {pct(r['climax_share'])} of climax abilities compiled (target 100%); "
          f"{r['truncated_in_source']} abilities are cut short in the source ('...') and end with a truncated effect")
    s = r["speed"]
    for name, v in s.items():
        print(f"speed {name:<26} {v['cards_per_s_cpu']:>7,} cards/s (CPU {v['cpu_s']} s)  "
              f"{v['cards_per_s_wall']:>7,} cards/s (wall {v['wall_s']} s)")
    print(f"top {len(r['top_unrecognised'])} unrecognised first phrases:")
    for row in r["top_unrecognised"]:
        print(f"  {row['count']:>5}  {row['phrase']}  [{row['example']}]")
    best = max(v["cards_per_s_cpu"] for v in s.values())
    ok = r["compiled_share"] >= TARGET_INSTANCES and r["climax_share"] >= TARGET_CLIMAXES and best >= TARGET_CARDS_PER_S
    print("targets:", "met" if ok else "MISSED")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=["ws"], required=True)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "carddata" / "weiss_schwarz")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = ap.parse_args()
    r = ws(args.data, args.top)
    ok = report(r)
    if args.json:
        args.json.write_text(json.dumps(r, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
