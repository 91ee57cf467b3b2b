"""Import benchmark: all the real Weiß Schwarz data (both sources) into PostgreSQL.

    .venv/bin/python bench/import.py [--db postgres://postgres@127.0.0.1:5432/h7bench] [--keep]

Drops and re-creates the database (unless ``--keep``), migrates it, then times, through the same
service the ``import_cards`` command uses (``catalog.services.card_import``, merge mode):

1. the AlphaC2 JSON lines (10,807 records, both files),
2. the HOTC text files (84 files, 7,504 printings) merged into them,
3. both again (idempotent re-import: nothing created or updated).

Prints read/parse time, import time and cards per second for each step, and the total. Not a test.
"""
from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def backend_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend process (same machine only)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/h7bench")
    parser.add_argument("--keep", action="store_true", help="do not drop the database first")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if args.db.startswith("postgres") and not args.keep:
        import psycopg

        base, _, name = args.db.rpartition("/")
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from catalog.importers import FORMATS, load_all
    from catalog.models import Card, CardPrinting
    from catalog.services import card_import

    call_command("migrate", verbosity=0)
    load_all()
    data = Path(settings.SHARED_DIR) / "carddata" / "weiss_schwarz"
    if not data.is_dir():
        print(f"no card data at {data}", file=sys.stderr)
        return 2
    steps = [
        ("ws-jsonl", sorted((data / "alphac2_jp").glob("*.jsonl"))),
        ("ws-hotc", sorted((data / "rcyberw_hotc_en_jp").glob("*.txt"))),
    ]
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, db {settings.DATABASES['default']['ENGINE']}")
    print(f"{'step':34} {'records':>8} {'read s':>7} {'import s':>8} {'cards/s':>8}  result")
    total_records = 0
    total_seconds = 0.0
    total_cpu = 0.0
    total_db = 0.0
    for label in ("first import", "re-import"):
        for fmt, files in steps:
            t0 = time.perf_counter()
            c0 = time.process_time()
            d0 = backend_cpu()
            records = list(itertools.chain.from_iterable(FORMATS[fmt].read(f, "ws") for f in files))
            t1 = time.perf_counter()
            summary = card_import(records=records, game="ws", allow_skips=True, merge=True)
            t2 = time.perf_counter()
            cpu = time.process_time() - c0
            db_cpu = backend_cpu() - d0
            total_cpu += cpu
            total_db += db_cpu
            total_records += len(records)
            total_seconds += t2 - t0
            rate = len(records) / (t2 - t0)
            print(f"{label + ' ' + fmt:34} {len(records):8d} {t1 - t0:7.2f} {t2 - t1:8.2f} {rate:8.0f}  "
                  f"created {summary.created}, updated {summary.updated}, unchanged {summary.unchanged}, "
                  f"skipped {summary.skipped}, {len(summary.warnings)} warnings, "
                  f"{len(summary.disagreements)} disagreements; cpu: python {cpu:.1f}s, postgres {db_cpu:.1f}s")
    print(f"{'total':34} {total_records:8d} {'':7} {total_seconds:8.2f} {total_records / total_seconds:8.0f}"
          f"  (cpu: python {total_cpu:.1f}s, postgres {total_db:.1f}s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus)")
    print(f"catalog: {Card.objects.filter(game='ws').count()} WS cards, "
          f"{CardPrinting.objects.filter(game='ws').count()} printings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
