"""``manage.py import_cards FILE [FILE...] --game GAME [--format FMT] [--dry-run] [--report R] [--allow-skips]``.

Reads each file with a registered import format (``catalog.importers``; detected from the content
unless ``--format`` is given), validates every record and upserts them all in one transaction via
``catalog.services.card_import_passes``: consecutive files of one format are one source; sources of
different formats (``alphac2_jp/*.jsonl rcyberw_hotc_en_jp/*.txt``) are imported in order, each
merged into what the ones before it wrote, as that many commands would. Exit codes: 0 imported (or dry run passed); 1 bad records or a
database refusal, nothing written; 2 usage error (unknown game/format, unreadable or undetectable file).
"""
from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.importers import FORMATS, detect_format, load_all
from catalog.services import ImportPass, card_import_passes
from rules import games as g

MAX_PRINTED_ERRORS = 200


class Command(BaseCommand):
    help = "Import cards from files in a registered format (json, csv, ...), upserting by (game, code)."

    def add_arguments(self, parser: CommandParser) -> None:
        load_all()
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--game", required=True, choices=g.GAMES)
        parser.add_argument("--format", dest="fmt", choices=sorted(FORMATS),
                            help="file format (default: detected from each file's content)")
        parser.add_argument("--dry-run", action="store_true", help="validate and count, write nothing")
        parser.add_argument("--report", metavar="FILE", help="also write the summary as JSON to FILE")
        parser.add_argument("--allow-skips", action="store_true",
                            help="skip bad records (listed with reasons) and import the rest")
        parser.add_argument("--merge", action=argparse.BooleanOptionalAction, default=None,
                            help="merge into cards already in the catalog (fill empty fields, keep full names, unite "
                                 "printings) and report every field disagreement, instead of overwriting; default: "
                                 "on for the real-data formats (ws-jsonl, ws-hotc, lycee-*...), off otherwise")

    def handle(self, *args, files: list[str], game: str, fmt: str | None, dry_run: bool, report: str | None,
               allow_skips: bool, merge: bool | None = None, **options) -> None:
        load_all()
        readers = []
        formats: dict[str, str] = {}
        for name in files:
            path = Path(name)
            if not path.is_file():
                raise CommandError(f"{name}: no such file", returncode=2)
            chosen = fmt or detect_format(path)
            if chosen is None:
                raise CommandError(
                    f"{name}: cannot tell the format from the content; pass --format (one of {', '.join(sorted(FORMATS))})",
                    returncode=2,
                )
            formats[name] = chosen
            readers.append(FORMATS[chosen].read(path, game))
        # Consecutive files of one format are one source (one pass: a code may appear once); each
        # further source merges into what the ones before it wrote, in order, as separate commands
        # would — in one transaction.
        passes: list[ImportPass] = []
        for chosen, group in itertools.groupby(zip(files, readers, strict=True), key=lambda fr: formats[fr[0]]):
            group = list(group)
            importer = FORMATS[chosen]
            passes.append(ImportPass(
                itertools.chain.from_iterable(r for _, r in group),
                merge=getattr(importer, "merge_default", False) if merge is None else merge,
                repair_names=getattr(importer, "repair_names", False),
                label=f"{chosen}: " + (", ".join(Path(f).name for f, _ in group) if len(group) <= 3 else
                                       f"{len(group)} files ({Path(group[0][0]).name} … {Path(group[-1][0]).name})"),
            ))
        summary = card_import_passes(passes=passes, game=game, dry_run=dry_run, allow_skips=allow_skips)
        for i, err in enumerate(summary.errors):
            if i == MAX_PRINTED_ERRORS:
                self.stderr.write(f"... and {len(summary.errors) - i} more (see --report)")
                break
            prefix = "skipped" if summary.ok else "error"
            self.stderr.write(f"{prefix}: {err}")
        for i, warn in enumerate(summary.warnings):
            if i == MAX_PRINTED_ERRORS:
                self.stderr.write(f"... and {len(summary.warnings) - i} more warnings (see --report)")
                break
            self.stderr.write(f"warning: {warn}")
        if summary.warnings:
            self.stderr.write(f"{len(summary.warnings)} warning(s): anomalies fixed or flagged, cards imported (see --report)")
        if summary.disagreements:
            fields = Counter(d["field"] for d in summary.disagreements)
            self.stderr.write("disagreements with the catalog (kept values in --report): "
                              + ", ".join(f"{k} {v}" for k, v in fields.most_common()))
        for i, fix in enumerate(summary.repairs):
            if i == MAX_PRINTED_ERRORS:
                self.stderr.write(f"... and {len(summary.repairs) - i} more repaired names (see --report)")
                break
            self.stderr.write(f"repaired: {fix['code']}: name {fix['old']!r} → {fix['new']!r} "
                              f"({fix['kind']}; from {', '.join(fix['from'])})")
        for one in summary.passes:
            self.stderr.write(f"  {one.label}: read {one.read}, created {one.created}, updated {one.updated}, "
                              f"unchanged {one.unchanged}, skipped {one.skipped}")
        data = summary.as_dict()
        data["files"] = [{"path": name, "format": formats[name]} for name in files]
        if report:
            text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
            if report == "-":
                self.stdout.write(text, ending="")
            else:
                Path(report).write_text(text, encoding="utf-8")
        # With the report on standard output, keep it pure JSON: the summary line goes to stderr.
        (self.stderr if report == "-" else self.stdout).write(summary.text())
        if not summary.ok:
            bad = len({(e.source, e.record) for e in summary.errors})
            raise CommandError(f"{bad} bad record(s); nothing was written", returncode=1)
