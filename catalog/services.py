"""Write-side services for the catalog (HackSoft style: ``<entity>_<action>``)."""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models.functions import Collate
from django.utils import timezone

from rules import games as g
from rules.cards import CARD_FIELDS, validate_card

from .cardfields import STR_FIELDS, card_normalize
from .importers import FORMATS, ImportRecord, load_all
from .models import DERIVED_FIELDS, FOLD_SOURCES, FOLDED_FIELDS, Card, CardFacet, CardPrinting

# Rows per IN (...) list: SQLite's variable limit is generous on 3.32+, but old builds stop at 999.
CHUNK = 900
BATCH = 500


# Tables whose planner statistics a bulk write makes stale.
ANALYZED_TABLES = ("catalog_card", "catalog_cardfacet", "catalog_cardprinting")


def catalog_analyze(*, changed: int | None = None) -> bool:
    """Refresh PostgreSQL's planner statistics of the card tables after a bulk write.

    Without it the first searches after a large import are planned on stale statistics (a
    100,000-card import left the planner expecting 16 rows where 12,790 matched: a 15 ms sort instead
    of a 0.2 ms index walk) until autovacuum's next pass. ``changed``: rows written; the tables are
    analysed when that is at least autovacuum's own rule (50 + 10% of the table), always when
    ``None``. Returns whether ANALYZE ran; a no-op on SQLite (its planner keeps no such statistics).
    """
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        if changed is not None:
            cursor.execute("SELECT GREATEST(reltuples, 0) FROM pg_class WHERE relname = 'catalog_card'")
            row = cursor.fetchone()
            rows = float(row[0]) if row else 0.0
            if changed < 50 + 0.1 * rows:
                return False
        cursor.execute(f"ANALYZE {', '.join(ANALYZED_TABLES)}")
    return True


def _chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


@transaction.atomic
def card_sync_facets(*, cards: Iterable[Card]) -> int:
    """Rebuild the CardFacet rows of ``cards`` from their list fields; returns rows written.

    Bulk: one DELETE per 900 cards and batched INSERTs, whatever the number of cards.
    """
    cards = [c for c in cards if c.pk is not None]
    for chunk in _chunks([c.pk for c in cards]):
        CardFacet.objects.filter(card_id__in=chunk).delete()
    rows = [CardFacet(card_id=c.pk, facet=f, value=v[:128]) for c in cards for f, v in dict.fromkeys(c.facet_values())]
    bulk_insert(rows, batch_size=2000)
    return len(rows)


def bulk_insert(objs: Sequence[Any], batch_size: int = BATCH) -> None:
    """Insert model instances (all of one model) as fast as the database allows.

    PostgreSQL: one ``COPY … FROM STDIN``; SQLite: ``executemany`` of one INSERT (both several
    times faster than ``bulk_create``, whose per-value preparation dominates large imports);
    ``pk`` is not set on the objects. Other databases: ``bulk_create``.
    """
    if not objs:
        return
    from django.db import connection

    model = type(objs[0])
    if model is Card:  # the folded search columns follow name, alternate names and text
        for obj in objs:
            obj.fold_fields()
    if connection.vendor not in ("postgresql", "sqlite"):
        model.objects.bulk_create(objs, batch_size=batch_size)
        return
    import json

    from django.db import models as m

    now = timezone.now()
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    qn = connection.ops.quote_name
    columns = ", ".join(qn(f.column) for f in fields)
    kinds = []
    for f in fields:
        if isinstance(f, m.JSONField):
            kinds.append("json")
        elif isinstance(f, m.FileField):  # a FieldFile: its stored name
            kinds.append("file")
        elif isinstance(f, m.DateTimeField) and (f.auto_now or f.auto_now_add):
            kinds.append("now")
        else:
            kinds.append("")
    def rows() -> Iterator[list[Any]]:
        for obj in objs:
            row = []
            for f, kind in zip(fields, kinds, strict=True):
                value = getattr(obj, f.attname)
                if kind == "json":
                    value = json.dumps(value, ensure_ascii=False)
                elif kind == "file":
                    value = value.name if value else ""
                elif kind == "now":
                    value = value or now
                    setattr(obj, f.attname, value)
                if sqlite and isinstance(value, datetime):
                    value = connection.ops.adapt_datetimefield_value(value)
                row.append(value)
            yield row

    sqlite = connection.vendor == "sqlite"
    table = qn(model._meta.db_table)
    with connection.cursor() as cursor:
        if sqlite:  # executemany of one prepared INSERT: no per-value ORM work
            marks = ", ".join("%s" for _ in fields)
            for batch in _chunks(list(rows()), 2000):
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", batch)
            return
        with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows():
                copy.write_row(row)


# -- import -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordError:
    """One reason a source record was refused. ``record`` 0 = the file as a whole."""

    source: str
    record: int
    code: str
    field: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        where += f"record {self.record}" if self.record else "file"
        if self.code:
            where += f" ({self.code})"
        return f"{where}: {self.field}: {self.message}"


@dataclass
class ImportSummary:
    """What an import did (or would do, with ``dry_run``); ``as_dict()`` is the ``--report`` JSON."""

    game: str
    dry_run: bool = False
    allow_skips: bool = False
    read: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    printings: int = 0
    facets: int = 0
    errors: list[RecordError] = field(default_factory=list)
    # Anomalies the importer fixed or flagged (the card was imported) and, with ``merge``, the fields
    # on which the incoming source disagrees with the catalog (catalog.importers.merge).
    warnings: list[RecordError] = field(default_factory=list)
    merge: bool = False
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    # Names repaired from the other printings of the same card (``card_import(repair_names=True)``).
    repairs: list[dict[str, Any]] = field(default_factory=list)
    written: bool = False
    analyzed: bool = False  # PostgreSQL planner statistics refreshed after a large write
    seconds: float = 0.0
    label: str = ""  # what this pass read (``card_import_passes``)
    passes: list[ImportSummary] = field(default_factory=list)  # each pass of a several-source import

    @property
    def ok(self) -> bool:
        """False when the import was refused (bad records without ``allow_skips``, or a database error)."""
        return not self.errors or (self.allow_skips and all(e.record for e in self.errors))

    @property
    def status(self) -> str:
        if not self.ok:
            return "failed"
        return "dry-run" if self.dry_run else "imported"

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "status": self.status,
            "dry_run": self.dry_run,
            "allow_skips": self.allow_skips,
            "written": self.written,
            "analyzed": self.analyzed,
            "read": self.read,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "printings": self.printings,
            "facets": self.facets,
            "seconds": round(self.seconds, 3),
            "errors": [e.as_dict() for e in self.errors],
            "merge": self.merge,
            "warnings": [e.as_dict() for e in self.warnings],
            "disagreements": self.disagreements,
            "repairs": self.repairs,
            **({"passes": [p.pass_dict() for p in self.passes]} if self.passes else {}),
        }

    def pass_dict(self) -> dict[str, Any]:
        """The counts of one pass of a several-source import (its lists are in the whole report's)."""
        return {"label": self.label, "merge": self.merge, "read": self.read, "created": self.created,
                "updated": self.updated, "unchanged": self.unchanged, "skipped": self.skipped,
                "printings": self.printings, "warnings": len(self.warnings),
                "disagreements": len(self.disagreements), "repairs": len(self.repairs)}

    def text(self) -> str:
        verb = {"failed": "refused, nothing written", "dry-run": "dry run, nothing written", "imported": "imported"}
        return (
            f"{self.game}: {verb[self.status]} — read {self.read}, created {self.created}, updated {self.updated}, "
            f"unchanged {self.unchanged}, skipped {self.skipped}; printings {self.printings}; {self.seconds:.2f}s"
            + (f"; {len(self.warnings)} warning(s)" if self.warnings else "")
            + (f"; {len(self.disagreements)} disagreement(s) with the catalog" if self.merge else "")
            + (f"; {len(self.repairs)} name(s) repaired from other printings" if self.repairs else "")
            + (f" ({len(self.passes)} sources, in order)" if self.passes else "")
        )


_MAX_LENGTH = {
    name: Card._meta.get_field(name).max_length for name in STR_FIELDS if getattr(Card._meta.get_field(name), "max_length", None)
}
_url = URLValidator(schemes=["http", "https"])


# One printing as the import handles it: (code, rarity, image_url, marker).
PrintingRow = tuple[str, str, str, str]
PRINTING_KEYS = ("code", "rarity", "image_url", "marker")


def _printing_problems(printings: list[dict[str, Any]]) -> tuple[list[PrintingRow], list[tuple[str, str]]]:
    rows: list[PrintingRow] = []
    problems: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for i, p in enumerate(printings, start=1):
        extra = set(p) - set(PRINTING_KEYS)
        if extra:
            problems.append(("printings", f"printing {i}: unknown key(s) {', '.join(sorted(map(str, extra)))}"))
            continue
        code, rarity, url = p.get("code"), p.get("rarity") or "", p.get("image_url") or ""
        marker = p.get("marker") or ""
        if not isinstance(code, str) or not code.strip():
            problems.append(("printings", f"printing {i}: code is required"))
            continue
        if not isinstance(rarity, str) or not isinstance(url, str) or not isinstance(marker, str):
            problems.append(("printings", f"printing {i}: rarity, image_url and marker must be text"))
            continue
        code = code.strip()
        if len(code) > 64 or len(rarity) > 16 or len(url) > 500 or len(marker) > 64:
            problems.append(("printings", f"printing {i}: code ≤ 64, rarity ≤ 16, image_url ≤ 500, marker ≤ 64 characters"))
            continue
        if url:
            try:
                _url(url)
            except ValidationError:
                problems.append(("printings", f"printing {i}: image_url {url[:80]!r} is not an http(s) URL"))
                continue
        if (code, rarity) in seen:
            problems.append(("printings", f"printing {i}: {code} {rarity} is listed twice"))
            continue
        seen.add((code, rarity))
        rows.append((code, rarity, url, marker.strip()))
    return sorted(rows), problems


def card_check(card: Any, *, game: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Normalise and validate one card dict for ``game``: the stored form and ``(field, message)`` problems."""
    normal, problems = card_normalize(card)
    if problems:
        return normal, problems
    if normal["game"] != game:
        return normal, [("game", f"this is a {normal['game'] or '(no game)'} card but the import is for {game}")]
    for name, limit in _MAX_LENGTH.items():
        if len(normal[name]) > limit:
            problems.append((name, f"{name} is too long ({len(normal[name])} characters, at most {limit})"))
    problems += validate_card(normal)
    return normal, problems


@dataclass
class _Good:
    number: int
    source: str
    card: dict[str, Any]
    printings: list[PrintingRow] | None  # None = the record says nothing about printings


@dataclass
class ImportPass:
    """One source read in an import: its records and how they go into the catalog."""

    records: Iterable[ImportRecord]
    merge: bool = False
    repair_names: bool = False  # afterwards, repair names cut short from other printings (catalog.importers.merge)
    label: str = ""  # e.g. the files, for the report


def card_import(
    *, records: Iterable[ImportRecord], game: str, dry_run: bool = False, allow_skips: bool = False,
    merge: bool = False, repair_names: bool = False,
) -> ImportSummary:
    """Validate ``records`` and upsert them by (game, code) in one transaction.

    Every bad record is reported with its number and field. Without ``allow_skips`` one bad record
    means nothing is written; with it, bad records are skipped and the rest imported. ``dry_run``
    does all the work, including the database writes, inside a transaction that is rolled back.
    Problems marked ``warning`` are reported in ``summary.warnings`` and do not refuse the record.
    ``merge``: a card already in the catalog is merged with the incoming one
    (``catalog.importers.merge.merge_card``: empty fields filled, full names kept, printings united)
    instead of overwritten, and every field disagreement is listed in ``summary.disagreements``.
    ``repair_names``: then names cut short in one source are repaired from the other printings of the
    same card (``catalog.importers.merge.repair_names``), listed in ``summary.repairs``.
    """
    return card_import_passes(passes=[ImportPass(records, merge=merge, repair_names=repair_names)], game=game,
                              dry_run=dry_run, allow_skips=allow_skips)


class _Refused(Exception):
    """A pass has bad records (without ``allow_skips``) or an unreadable file: roll everything back."""


def card_import_passes(*, passes: Sequence[ImportPass], game: str, dry_run: bool = False,
                       allow_skips: bool = False) -> ImportSummary:
    """Import several sources in order, in one transaction, as that many ``card_import`` calls would
    one after the other (``import_cards A.jsonl B.txt``: B merges into what A wrote) — except that
    a refused pass writes nothing of any pass. One pass: ``card_import``'s summary; several: their
    sums, lists joined, and each pass's own summary in ``summary.passes``."""
    if game not in g.GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
    started = time.perf_counter()
    summaries: list[ImportSummary] = []
    try:
        with transaction.atomic():
            for one in passes:
                summary = ImportSummary(game=game, dry_run=dry_run, allow_skips=allow_skips, merge=one.merge,
                                        label=one.label)
                summaries.append(summary)
                good = _checked(one.records, game, summary)
                if (summary.errors and not allow_skips) or any(e.record == 0 for e in summary.errors):
                    # (a file that could not be read at all is never "skipped")
                    raise _Refused
                _upsert(good, game, summary, merge=one.merge)
                if one.repair_names:
                    _repair_names(game, summary)
            if dry_run:
                transaction.set_rollback(True)
    except _Refused:
        for summary in summaries:
            summary.created = summary.updated = summary.unchanged = summary.printings = summary.facets = 0
            summary.repairs = []
        result = _combined(summaries, game, dry_run, allow_skips)
        result.seconds = time.perf_counter() - started
        return result
    except (IntegrityError, DatabaseError) as exc:
        for summary in summaries:
            summary.created = summary.updated = summary.unchanged = summary.printings = summary.facets = 0
            summary.repairs = []
        result = _combined(summaries, game, dry_run, allow_skips)
        result.errors.append(RecordError("", 0, "", "database", f"the database refused the import: {exc}"))
        result.seconds = time.perf_counter() - started
        return result
    result = _combined(summaries, game, dry_run, allow_skips)
    result.written = not dry_run
    if result.written:
        result.analyzed = catalog_analyze(changed=result.created + result.updated + len(result.repairs))
    result.seconds = time.perf_counter() - started
    return result


def _combined(summaries: list[ImportSummary], game: str, dry_run: bool, allow_skips: bool) -> ImportSummary:
    if len(summaries) == 1:
        return summaries[0]
    out = ImportSummary(game=game, dry_run=dry_run, allow_skips=allow_skips,
                        merge=any(s.merge for s in summaries), passes=summaries)
    for s in summaries:
        for name in ("read", "created", "updated", "unchanged", "skipped", "printings", "facets"):
            setattr(out, name, getattr(out, name) + getattr(s, name))
        out.errors += s.errors
        out.warnings += s.warnings
        out.disagreements += s.disagreements
        out.repairs += s.repairs
    return out


def _checked(records: Iterable[ImportRecord], game: str, summary: ImportSummary) -> list[_Good]:
    """The valid records of one pass; every problem goes to ``summary`` (errors, warnings, counts)."""
    good: list[_Good] = []
    by_code: dict[str, tuple[str, int]] = {}
    bad_records = 0
    for rec in records:
        if rec.number:
            summary.read += 1
        code = str((rec.card or {}).get("code") or "").strip() if isinstance(rec.card, dict) else ""
        problems = [(p.field, p.message) for p in rec.problems if not getattr(p, "warning", False)]
        warn_code = str((rec.card or {}).get("code") or "").strip() if isinstance(rec.card, dict) else ""
        summary.warnings.extend(
            RecordError(rec.source, rec.number, warn_code, p.field, p.message)
            for p in rec.problems if getattr(p, "warning", False)
        )
        normal: dict[str, Any] = {}
        printings: list[PrintingRow] | None = None
        if rec.card is not None:
            normal, card_problems = card_check(rec.card, game=game)
            problems += card_problems
            if rec.printings:
                printings, p_problems = _printing_problems(rec.printings)
                problems += p_problems
            if code and not problems:
                if code in by_code:
                    src, num = by_code[code]
                    problems.append(("code", f"code {code} already appears in {src + ' ' if src != rec.source else ''}record {num}"))
                else:
                    by_code[code] = (rec.source, rec.number)
        elif not problems:
            problems.append(("card", "the record could not be read"))
        if problems:
            if rec.number:
                bad_records += 1
            for fld, msg in problems:
                summary.errors.append(RecordError(rec.source, rec.number, code, fld, msg))
            continue
        good.append(_Good(rec.number, rec.source, normal, printings))
    summary.skipped = bad_records if summary.allow_skips else 0
    return good


_REPAIR_FIELDS = ("code", "name", "card_type", "level", "cost", "power", "soul", "colors", "triggers", "traits", "text")


def _repair_names(game: str, summary: ImportSummary) -> None:
    """Repair the names of ``game`` cut short in one source from the other printings of the same card
    (``catalog.importers.merge.repair_names``); each repair is listed in ``summary.repairs``."""
    from .importers.merge import repair_names

    rows = [dict(zip(_REPAIR_FIELDS, row, strict=True))
            for row in Card.objects.filter(game=game).values_list(*_REPAIR_FIELDS)]
    repairs = repair_names(rows)
    if not repairs:
        return
    new = {r.code: r.new for r in repairs}
    cards = []
    for chunk in _chunks(sorted(new)):
        cards += list(Card.objects.filter(game=game, code__in=chunk))
    now = timezone.now()
    for card in cards:
        card.name = new[card.code]
        card.updated = now
        card.fold_fields()
    _bulk_update_rows(cards, ["name", *FOLDED_FIELDS, "updated"])
    summary.repairs += [r.as_dict() for r in repairs]


def _upsert(good: list[_Good], game: str, summary: ImportSummary, merge: bool = False) -> None:
    codes = [r.card["code"] for r in good]
    existing: dict[str, Card] = {}
    for chunk in _chunks(codes):
        existing.update({c.code: c for c in Card.objects.filter(game=game, code__in=chunk)})
    old_printings: dict[int, list[PrintingRow]] = {}
    old_images: dict[tuple[int, str, str], Any] = {}  # a curator's uploaded picture survives a re-import
    with_printings = [existing[r.card["code"]].pk for r in good if r.printings is not None and r.card["code"] in existing]
    for chunk in _chunks(with_printings):
        for p in CardPrinting.objects.filter(card_id__in=chunk).order_by("code", "rarity"):
            old_printings.setdefault(p.card_id, []).append((p.code, p.rarity, p.image_url, p.marker))
            if getattr(p, "image", None):
                old_images[(p.card_id, p.code, p.rarity)] = p.image

    created: list[Card] = []
    updated: list[Card] = []
    changed_fields: set[str] = set()
    printing_cards: list[tuple[Card, list[PrintingRow]]] = []
    now = timezone.now()
    for r in good:
        card = existing.get(r.card["code"])
        if card is None:
            card = Card(**r.card)
            created.append(card)
            if r.printings:
                printing_cards.append((card, r.printings))
            continue
        current = card.to_dict()
        if merge:
            r.card, r.printings = _merge_into(current, r, old_printings.get(card.pk, []), summary)
        diff = [k for k in CARD_FIELDS if current[k] != r.card[k]]
        printings_changed = r.printings is not None and sorted(old_printings.get(card.pk, [])) != r.printings
        if diff:
            for k in diff:
                setattr(card, k, r.card[k])
            card.updated = now
            changed_fields.update(diff)
            if FOLD_SOURCES.intersection(diff):
                card.fold_fields()
                changed_fields.update(FOLDED_FIELDS)
            updated.append(card)
        if printings_changed:
            printing_cards.append((card, r.printings or []))
        if not diff and not printings_changed:
            summary.unchanged += 1
    summary.updated = len(updated) + sum(1 for c, _ in printing_cards if c.pk is not None and c not in updated)
    # The compiled abilities, effect kinds and coverage follow the text (catalog.abilities; each
    # distinct text compiled once); a card whose data is unchanged is rewritten only when they differ.
    derived_only = _derive_imported(created, updated, [existing[code] for code in codes if code in existing])
    if updated:
        changed_fields.update(DERIVED_FIELDS)

    bulk_insert(created)
    if any(c.pk is None for c in created):  # databases that cannot return ids from a bulk insert
        ids: dict[str, int] = {}
        for chunk in _chunks([c.code for c in created]):
            ids.update(Card.objects.filter(game=game, code__in=chunk).values_list("code", "id"))
        for c in created:
            c.pk = ids[c.code]
    summary.created = len(created)
    if updated:
        _bulk_update_rows(updated, sorted(changed_fields) + ["updated"])
    if derived_only:
        _bulk_update_rows(derived_only, list(DERIVED_FIELDS))
    summary.facets = card_sync_facets(cards=created + updated + derived_only)

    if printing_cards:
        for chunk in _chunks([c.pk for c, _ in printing_cards]):
            CardPrinting.objects.filter(card_id__in=chunk).delete()
        rows = [
            CardPrinting(card=c, game=game, code=code, rarity=rarity, image_url=url, marker=marker,
                         **({"image": old_images[(c.pk, code, rarity)]} if (c.pk, code, rarity) in old_images else {}))
            for c, printings in printing_cards for code, rarity, url, marker in printings
        ]
        bulk_insert(rows)
        summary.printings = len(rows)


def _derive_imported(created: list[Card], updated: list[Card], existing: list[Card]) -> list[Card]:
    """Set the derived columns (``Card.derive_abilities``) of the cards an import read; the
    existing cards not otherwise updated whose derived columns changed."""
    for card in created + updated:
        card.derive_abilities()
    written = {id(c) for c in updated}
    return [card for card in existing if id(card) not in written and card.derive_abilities()]


def _bulk_update_rows(cards: list[Card], names: list[str]) -> None:
    """``UPDATE card SET … FROM (VALUES …)`` in batches: the same effect as ``bulk_update`` without
    its per-row ``CASE WHEN`` expressions, which cost seconds per thousand cards to build.
    Works on PostgreSQL and SQLite ≥ 3.33 (``UPDATE … FROM``)."""
    from django.db import connection

    fields = [Card._meta.get_field(name) for name in names]
    pk = Card._meta.pk
    qn = connection.ops.quote_name
    table = qn(Card._meta.db_table)
    pg = connection.vendor == "postgresql"
    columns = [pk, *fields]
    cell = ", ".join(f"CAST(%s AS {f.db_type(connection)})" if pg else "%s" for f in columns)
    per_batch = max(1, min(BATCH, 30000 // len(columns)))
    aliases = ", ".join(f"column{i} AS {qn(f.column)}" for i, f in enumerate(columns, start=1))
    sets = ", ".join(f"{qn(f.column)} = v.{qn(f.column)}" for f in fields)
    with connection.cursor() as cursor:
        for batch in _chunks(cards, per_batch):
            params: list[Any] = []
            for card in batch:
                params.extend(f.get_db_prep_save(getattr(card, f.attname), connection) for f in columns)
            values = ", ".join(f"({cell})" for _ in batch)
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (SELECT {aliases} FROM (VALUES {values}) AS vv) AS v "
                f"WHERE {table}.{qn(pk.column)} = v.{qn(pk.column)}",
                params,
            )


def _merge_into(current: dict[str, Any], r: _Good, old_printings: list[PrintingRow],
                summary: ImportSummary) -> tuple[dict[str, Any], list[PrintingRow] | None]:
    """Merge the incoming card ``r`` into the stored ``current`` (see ``card_import(merge=True)``)."""
    from .importers.merge import merge_card, merge_printings, name_marker

    merged, found = merge_card(current, r.card)
    summary.disagreements.extend({"source": r.source, "record": r.number, **d.as_dict()} for d in found)
    normal, problems = card_normalize(merged)
    problems = problems or validate_card(normal)
    if problems:  # the merged card would be invalid: keep the stored one, say why
        summary.disagreements.extend(
            {"source": r.source, "record": r.number, "code": current["code"], "field": fld, "kind": "merge_refused",
             "kept": None, "other": msg} for fld, msg in problems)
        normal = current
    printings = r.printings
    if printings is not None:
        old = [dict(zip(PRINTING_KEYS, p, strict=True)) for p in old_printings]
        new = [dict(zip(PRINTING_KEYS, p, strict=True)) for p in printings]
        # A name one source gives with a trailing marker (merge ``name_marker``): the marker goes on
        # that source's printings.
        for d in found:
            if d.kind == "name_marker" and normal is not current:
                marker = name_marker(str(d.other), str(d.kept))
                for p in (new if d.other == r.card.get("name") else old):
                    p["marker"] = p.get("marker") or marker
        united = merge_printings(old, new)
        printings = sorted((p.get("code") or "", p.get("rarity") or "", p.get("image_url") or "", p.get("marker") or "")
                           for p in united)
    return normal, printings


def cards_create_missing(*, game: str, cards: Iterable[dict[str, Any]]) -> int:
    """Insert the cards (card JSON dicts, trusted: not checked, no facets or printings) whose codes
    ``game`` does not have yet; returns how many were made. For test pools (``decks.testing``), not
    for imports (``card_import`` checks and reports every record)."""
    existing = set(Card.objects.filter(game=game).values_list("code", flat=True))
    new = [Card(**c) for c in cards if c["code"] not in existing]
    Card.objects.bulk_create(new)
    return len(new)


# -- export -------------------------------------------------------------------------------------

def card_export_rows(*, game: str) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every card of ``game`` in code order as ``(card dict, printings)``, streamed in chunks."""
    # Byte order of the code on every database (PostgreSQL's default collation may be locale-aware).
    order = Collate("code", "C") if connection.vendor == "postgresql" else "code"
    cards = Card.objects.filter(game=game).order_by(order).prefetch_related("printings")
    for card in cards.iterator(chunk_size=2000):
        printings = sorted(
            ({"code": p.code, "rarity": p.rarity, "image_url": p.image_url, **({"marker": p.marker} if p.marker else {})}
             for p in card.printings.all()),
            key=lambda p: (p["code"], p["rarity"]),
        )
        yield card.to_dict(), printings


def card_export(*, game: str, fmt: str, fh: IO[str]) -> int:
    """Write every card of ``game`` to ``fh`` in the registered format ``fmt``; returns the card count."""
    if game not in g.GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
    load_all()
    writer = FORMATS.get(fmt)
    if writer is None or not hasattr(writer, "write"):
        can = sorted(n for n, f in FORMATS.items() if hasattr(f, "write"))
        raise ValueError(f"cannot export as {fmt!r}; export formats: {', '.join(can)}")
    return writer.write(card_export_rows(game=game), fh, game)
