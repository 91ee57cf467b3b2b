"""``manage.py goldfish``: play a deck alone against the game's goldfish, N times, in-process.

    python manage.py goldfish --game ws --deck fixtures/decks/ws-skylark.txt --games 2000 --seed 1
    python manage.py goldfish --game pc --deck my.txt --games 500 --json
    python manage.py goldfish --game ws --deck my.txt --seed 1 --log 17      # one game's event log
    python manage.py goldfish --game ws --deck Da_Capo.txt --games 1000     # CODE RARITY lines work too

Works for every game with a registered engine (``rules.<game>.engine``). The deck file is read by
``decks.reader.read_deck`` and its codes resolved through the catalog selectors
(``card_records_by_codes``); the engine's catalog-derived options (if any) are computed from every
card of the game (``catalog_card_records``) and overridden by ``--option``.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.selectors import card_records_by_codes, catalog_card_records
from decks.reader import DECK_TEXT, DeckReading, read_deck
from rules import games as g
from rules.deckformats import FORMATS
from rules.engine.core import DEFAULT_TURN_CAP, Deck, get_engine, play_game, run_games, run_report

MAX_GAMES = 1_000_000


def _parse_value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw


def load_deck(game: str, text: str, fmt: str | None = None) -> Deck:
    """Read a deck file (``decks.reader.read_deck``) and resolve its codes from the catalog;
    ``CommandError`` names every problem.

    The project's deck text format (``COUNT CODE`` lines) is read by default; the formats players
    exchange (``CODE RARITY`` lines, AlphaC2 ``<deck>`` XML, the Chaos textproto — see
    ``rules.deckformats``) are detected from the content or named with ``fmt``."""
    reading = read_deck(game=game, text=text, fmt=fmt)
    if reading.format != DECK_TEXT:
        return _load_exchange_format(game, reading)
    if reading.problems:
        lines = "\n".join(f"  line {e['line']}: {e['message']}" + (f" ({e['text']!r})" if e["text"] else "")
                          for e in reading.problems)
        raise CommandError(f"the deck file has {len(reading.problems)} error(s):\n{lines}")
    if not reading.lines:
        raise CommandError("the deck file lists no cards")
    allowed = g.GAME_ZONES[game]
    bad_zone = [e for e in reading.lines if e.zone not in allowed]
    if bad_zone:
        lines = "\n".join(f"  line {e.line}: section '# {e.zone}'" for e in bad_zone)
        raise CommandError(f"{g.GAME_NAMES[game]} decks have no such section (allowed: {', '.join(allowed)}):\n{lines}")
    codes = {e.code for e in reading.lines}
    # a printing's own code (a parallel version) resolves to its card
    cards = card_records_by_codes(game=game, codes=codes, printings=True)
    missing = codes - set(cards)
    if missing:
        lines = "\n".join(f"  line {e.line}: {e.code}" for e in reading.lines if e.code in missing)
        raise CommandError(f"unknown {game} card code(s) — not in the catalog:\n{lines}")
    return Deck.from_counts(game, reading.zones, cards)


def _load_exchange_format(game: str, reading: DeckReading) -> Deck:
    """A deck read in a format players exchange (its printed codes already mapped to card codes)."""
    if reading.problems:
        lines = "\n".join(f"  line {e['line']}: {e['message']}" for e in reading.problems)
        raise CommandError(f"the deck file ({reading.format}) has {len(reading.problems)} error(s):\n{lines}")
    allowed = g.GAME_ZONES[game]
    bad = [z for z in reading.zones if z not in allowed]
    if bad:
        raise CommandError(f"{g.GAME_NAMES[game]} decks have no {', '.join(bad)} section (allowed: {', '.join(allowed)})")
    codes = {c for zone in reading.zones.values() for c in zone}
    cards = card_records_by_codes(game=game, codes=codes)
    missing = sorted(codes - set(cards))
    if missing:
        raise CommandError(f"unknown {game} card code(s) — not in the catalog: {', '.join(missing)}")
    if not codes:
        raise CommandError("the deck file lists no cards")
    return Deck.from_counts(game, reading.zones, cards)


class Command(BaseCommand):
    help = "Goldfish-test a deck: play it N times against the game's goldfish and print the statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, choices=list(g.GAMES), help="game short code")
        parser.add_argument("--deck", required=False,
                            help="deck file: deck text (COUNT CODE lines, '# zone' headers) or a format players "
                                 "exchange (CODE RARITY lines, <deck> XML, Chaos textproto), detected")
        parser.add_argument("--format", dest="fmt", choices=("text", *FORMATS), default=None,
                            help="deck file format (default: detected from the content)")
        parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
        parser.add_argument("--seed", default="1", help="job seed; game i uses the RNG seeded f'{seed}:{i}'")
        parser.add_argument("--start", type=int, default=0, help="index of the first game (default 0)")
        parser.add_argument("--pilot", default=None, help="pilot policy (default: the engine's first)")
        parser.add_argument("--first", default=None, help="who goes first: random (default), alternate, me, opp")
        parser.add_argument("--turn-cap", type=int, default=None, help=f"own-turn cap (default {DEFAULT_TURN_CAP})")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="an engine option, e.g. dummy_climaxes=6 (repeatable)")
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument("--describe", action="store_true",
                            help="print the game's engine options, their defaults and its pilots, then stop")
        parser.add_argument("--log", type=int, default=None, metavar="INDEX",
                            help="play only game INDEX and print its event log")

    def handle(self, *args: Any, **opts: Any) -> None:
        game = opts["game"]
        try:
            engine = get_engine(game)
        except KeyError as exc:
            raise CommandError(f"no goldfish engine for {game!r} yet") from exc
        if opts["describe"]:
            self.stdout.write(describe_engine(engine))
            return
        if not opts["deck"]:
            raise CommandError("--deck FILE is required (or --describe)")
        path = Path(opts["deck"])
        if not path.is_file():
            raise CommandError(f"deck file not found: {path}")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise CommandError(f"deck file {path} is not UTF-8 text: {exc}") from exc
        deck = load_deck(game, text, opts["fmt"])
        size = g.CONSTANTS[game].deck_size
        if len(deck.main) != size:
            self.stderr.write(f"warning: the main deck has {len(deck.main)} cards; {g.GAME_NAMES[game]} "
                              f"decks have exactly {size}")
        if len(deck.main) <= g.CONSTANTS[game].opening_hand:
            raise CommandError(f"the main deck has only {len(deck.main)} cards: too few to play")

        options: dict[str, Any] = {}
        if engine.catalog_options is not None:
            options.update(engine.catalog_options(catalog_card_records(game=game)))
        for item in opts["option"]:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise CommandError(f"--option expects KEY=VALUE, got {item!r}")
            options[key.strip()] = _parse_value(value.strip())
        if opts["first"] is not None:
            options["first"] = opts["first"]
        if opts["turn_cap"] is not None:
            if opts["turn_cap"] < 1:
                raise CommandError("--turn-cap must be at least 1")
            options["turn_cap"] = opts["turn_cap"]
        pilot = opts["pilot"]
        if pilot is not None and pilot not in engine.pilots:
            raise CommandError(f"unknown pilot {pilot!r} for {game}; available: {', '.join(engine.pilots)}")
        n = opts["games"]
        if not 1 <= n <= MAX_GAMES:
            raise CommandError(f"--games must be between 1 and {MAX_GAMES}")
        seed = opts["seed"]

        try:
            if opts["log"] is not None:
                result, log = play_game(deck, seed, opts["log"], options=options, pilot=pilot, log=True)
                assert log is not None
                if opts["json"]:
                    self.stdout.write(json.dumps({"index": result.index, "outcome": result.outcome,
                                                  "turn": result.turn, "reason": result.reason,
                                                  "events": log.as_list()}, indent=2, ensure_ascii=False))
                else:
                    self.stdout.write(log.as_text())
                    self.stdout.write(f"\ngame {result.index}: {result.outcome} on own turn {result.turn} "
                                      f"({result.reason})")
                return
            t0 = time.perf_counter()
            stats = run_games(deck, seed, range(opts["start"], opts["start"] + n), options=options, pilot=pilot)
            elapsed = time.perf_counter() - t0
        except ValueError as exc:
            raise CommandError(f"bad option: {exc}") from exc
        report = run_report(deck, stats, options)
        report["seed"] = seed
        report["pilot"] = pilot or engine.default_pilot
        report["first_index"] = opts["start"]
        if opts["json"]:
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
            return
        self.stdout.write(format_report(report, deck, elapsed))


def describe_engine(engine: Any) -> str:
    lines = [f"{g.GAME_NAMES[engine.game]} goldfish engine ({engine.game})",
             f"pilots: {', '.join(engine.pilots)} (default {engine.default_pilot})", "options (--option KEY=VALUE):"]
    defaults = {"turn_cap": DEFAULT_TURN_CAP, **engine.default_options}
    for key in sorted(set(defaults) | set(engine.describe_options)):
        default = defaults.get(key, "-")
        lines.append(f"  {key} (default {default}): {engine.describe_options.get(key, '')}")
    if engine.catalog_options is not None:
        lines.append("  (some defaults are computed from the whole catalog of the game)")
    return "\n".join(lines)


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.3f}"
    return str(x)


def format_report(r: dict[str, Any], deck: Deck, elapsed: float) -> str:
    names = {c.code: c.name for c in deck.main + tuple(c for z in deck.zones.values() for c in z)}
    out: list[str] = []
    w = out.append
    w(f"{g.GAME_NAMES[r['game']]} goldfish: {r['games']} games, seed {r['seed']}, pilot {r['pilot']} "
      f"({r['games'] / elapsed:,.0f} games/s)" if elapsed > 0 else "")
    w("options: " + ", ".join(f"{k}={v}" for k, v in r["options"].items()))
    w(f"wins {r['wins']}  losses {r['losses']}  draws {r['draws']}  capped {r['capped']}  "
      f"win rate {r['win_rate']:.1%}")
    tw = r["turn_of_win"]
    if tw:
        w(f"turn of win: mean {tw['mean']:.2f} (95% CI {tw['ci95'][0]:.2f}-{tw['ci95'][1]:.2f}), "
          f"median {tw['median']:g}, p10 {tw['p10']:g}, p90 {tw['p90']:g}, stdev {tw['stdev']:.2f}")
    out.extend(coverage_lines(r["coverage"]))
    if tw:
        w("")
        w(" turn   wins  share  cumulative")
        peak = max(int(v) for v in r["win_histogram"].values())
        for t, p in r["cumulative_win_probability"].items():
            wins = r["win_histogram"].get(t, 0)
            bar = "#" * round(30 * wins / peak) if peak else ""
            w(f" {t:>4} {wins:>6} {wins / r['games']:>6.1%} {p:>10.1%}  {bar}")
    if r["reasons"]:
        w("")
        w("how games ended: " + "; ".join(f"{k}: {v}" for k, v in r["reasons"].items()))
    ex = r["extras"]
    if ex["ratios"]:
        w("")
        w("rates:")
        for name, v in ex["ratios"].items():
            w(f"  {name:<32} {_fmt(v['value'])}  ({v['n']}/{v['d']})")
    if ex["per_turn"]:
        for series, values in ex["per_turn"].items():
            w(f"{series} per own turn (mean over games that played it): "
              + "  ".join(f"T{t} {v:.2f}" for t, v in list(values.items())[:12]))
    shown = {k: v for k, v in ex["counters"].items()
             if k != "games" and not k.endswith(("_games", "_wins", "_win_turns"))}  # those feed the rates
    if shown:
        w("per game: " + ", ".join(f"{k} {v['per_game']:.2f}" for k, v in shown.items()))
    if r["first_playable"]:
        w("")
        w("first turn each card could be played (share of games, mean, median, earliest):")
        for code, fp in sorted(r["first_playable"].items(), key=lambda kv: kv[1]["mean_turn"]):
            w(f"  {code:<14} {names.get(code, '')[:32]:<32} {fp['share']:>6.1%}  mean {fp['mean_turn']:.2f}  "
              f"median {fp['median_turn']:g}  earliest {fp['earliest']}")
    return "\n".join(out)


def coverage_lines(cov: dict[str, Any]) -> list[str]:
    """The report's coverage block (``rules.coverage.deck_coverage``): the share first, then each card
    that is not fully modelled with its copies and what the engine does not understand or play."""
    head = (f"modelled: {cov['cards_modelled']} of {cov['cards']} cards fully modelled "
            f"({cov['copies_share']:.1%} of copies)")
    if not cov["not_modelled"]:
        return [head + ": every card's text in this deck is modelled"]
    lines = [head + "; not modelled (copies, card, why):"]
    for c in cov["not_modelled"]:
        lines.append(f"  {c['copies']:>2}  {c['code']:<14} {c['name'][:32]}")
        if c["never_played"]:
            lines.append(f"        never played: {c['never_played']}")
        for a in c["abilities"]:
            if a["status"] in ("played", "no_effect"):
                continue
            why = f"not understood: {a.get('phrase') or a['reason']}" if a["status"] == "not_understood" else \
                f"not played: {a['reason'] or '-'}"
            lines.append(f"        {why[:110]}")
            if a["status"] != "not_understood":
                lines.append(f"          {a['text'][:100]}")
    return lines
