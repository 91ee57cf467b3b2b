"""Folded (CJK-aware) search benchmark: what folding costs on writes and at query time.

    .venv/bin/python bench/fold_search.py [--cards 50000] [--reps 15] [--db postgres://postgres@127.0.0.1:5432/h8bench]
    .venv/bin/python bench/fold_search.py --import-cost [--real-ws ../shared/carddata/weiss_schwarz]

``--import-cost`` (no database): the cost of folding at import on the real Weiß Schwarz records
(both sources, read by the real importers): building the kanji table from OpenCC's dictionaries
(once per process), and ``fold_card`` per card — the stored name/text/code columns every write
computes — with the kanji folding, without it, and as folding was before it (a Python call per
character for the kana), with the total for one import of both sources.

Otherwise: fills the database with ``generate_cards`` (kept between runs when the count matches), then
prints ``fold()`` throughput (names and texts per second, pure Python: the cost every write adds);
and for name/text queries, the p50/p95 of the search's SQL (count + first page, as the API runs it)
on the folded columns, beside the same substring on the raw column with ``UPPER(..) LIKE`` (what the
search did before folding) — the folded query does strictly more (width, kana, separators). Not a
test; prints a table.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

QUERIES = [("dragon", "name"), ("ＤＲＡＧＯＮ", "name"), ("knight", "name"), ("o:stock", "text"),
           ("o:ＳＴＯＣＫ", "text"), ('o:"draw 1"', "text"), ("zz", "name")]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h8bench"))
    ap.add_argument("--cards", type=int, default=50_000)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--import-cost", action="store_true", help="fold cost on the real WS records (no database)")
    ap.add_argument("--real-ws", default=str(ROOT.parent / "shared" / "carddata" / "weiss_schwarz"))
    args = ap.parse_args()
    if args.import_cost:
        import_cost(Path(args.real_ws))
        return

    from search import ensure_database  # bench/search.py

    ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from catalog.models import Card
    from catalog.selectors import card_search
    from catalog.textnorm import fold, fold_names

    call_command("migrate", verbosity=0)
    if Card.objects.count() != args.cards or Card.objects.filter(code__startswith="SYN").count() != args.cards:
        Card.objects.all().delete()
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, seed=1, clear=True)
        print(f"loaded {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE catalog_card")

    rows = list(Card.objects.values_list("name", "alt_names", "text")[:20000])
    t0 = time.perf_counter()
    for name, alt, text in rows:
        fold_names(name, alt)
        fold(text)
    dt = time.perf_counter() - t0
    print(f"fold(): {len(rows) / dt:,.0f} cards/s (name + alternate names + text), "
          f"{dt / len(rows) * 1e6:.1f} µs per card")

    print(f"\n{args.cards:,} cards, {args.reps} runs each (ms)\n")
    print("| query | hits | folded p50 | folded p95 | raw UPPER LIKE hits | raw p50 | raw p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for q, kind in QUERIES:
        qs = card_search(q=q)
        raw_value = (q.split(":", 1)[1] if q.startswith("o:") else q).strip('"')
        raw = (Card.objects.filter(text__icontains=raw_value) if kind == "text"
               else Card.objects.filter(name__icontains=raw_value) | Card.objects.filter(alt_names__icontains=raw_value))
        times: dict[str, list[float]] = {"folded": [], "raw": []}
        hits = raw_hits = 0
        for _ in range(args.reps):
            for label, query in (("folded", qs), ("raw", raw.order_by("name", "game", "code"))):
                t0 = time.perf_counter()
                n = query.order_by().count()
                list(query.values_list("id", flat=True)[:50])
                times[label].append((time.perf_counter() - t0) * 1000)
                if label == "folded":
                    hits = n
                else:
                    raw_hits = n
        f, r = times["folded"], times["raw"]
        print(f"| `{q}` | {hits:,} | {pct(f, 50):.1f} | {pct(f, 95):.1f} | {raw_hits:,} | {pct(r, 50):.1f} | {pct(r, 95):.1f} |")


def import_cost(real: Path) -> None:
    """Folding at import, on the real WS records (see the module docstring)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import unicodedata

    import django

    django.setup()
    from catalog import textnorm
    from catalog.importers import FORMATS, load_all

    load_all()
    records = [r.card for path in sorted((real / "alphac2_jp").glob("*.jsonl")) for r in FORMATS["ws-jsonl"].read(path, "ws")]
    records += [r.card for path in sorted((real / "rcyberw_hotc_en_jp").glob("*.txt")) for r in FORMATS["ws-hotc"].read(path, "ws")]
    cards = [(c.get("code", ""), c.get("name", ""), c.get("alt_names") or [], c.get("text", ""), c.get("translations") or {})
             for c in records]

    textnorm.fold_table.cache_clear()
    t0 = time.perf_counter()
    table = textnorm.fold_table()
    build = time.perf_counter() - t0
    kanji = len(textnorm._opencc_han_table())
    no_kanji = {k: v for k, v in table.items() if not any(lo <= k <= hi for lo, hi in textnorm._HAN_RANGES)}

    def before(text: str | None) -> str:  # the fold of issue 10: a Python call per character for the kana
        if not text:
            return ""
        folded = unicodedata.normalize("NFKC", text).casefold()
        folded = "".join(chr(ord(ch) - 0x60) if 0x30A1 <= ord(ch) <= 0x30F6 else ch for ch in folded)
        return folded.translate(textnorm._DROP)

    def run(fold_fn) -> float:
        real_fold = textnorm.fold
        textnorm.fold = fold_fn
        try:
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                for code, name, alt, text, translations in cards:
                    textnorm.fold_card(code=code, name=name, alt_names=alt, text=text, translations=translations)
                best = min(best, time.perf_counter() - t)
            return best
        finally:
            textnorm.fold = real_fold

    def fold_with(tbl):
        return lambda text: unicodedata.normalize("NFKC", text).casefold().translate(tbl) if text else ""

    now, without, old = run(textnorm.fold), run(fold_with(no_kanji)), run(before)
    n = len(cards)
    print(f"{n:,} real WS records (AlphaC2 + HOTC); kanji table: {kanji:,} characters from OpenCC "
          f"(jp2t then t2s), built in {build * 1000:.0f} ms once per process\n")
    print("| fold_card (name + alternate/translated names + text + code) | µs per card | s per import of both sources |")
    print("| --- | ---: | ---: |")
    for label, dt in (("with the kanji folding (now)", now), ("same table without kanji", without),
                      ("before this issue (kana by a Python call per character)", old)):
        print(f"| {label} | {dt / n * 1e6:.1f} | {dt:.2f} |")


if __name__ == "__main__":
    main()
