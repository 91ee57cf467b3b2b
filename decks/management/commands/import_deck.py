"""``manage.py import_deck FILE (--owner USER [--name NAME] | --check) [--game GAME] [--format FMT] [--json]``.

Reads a deck in a format players exchange (``CODE RARITY`` lines, the AlphaC2 ``<deck>`` XML, the
Chaos ``mainDeck { … }`` textproto; detected from the content), resolves printings to catalog cards,
validates it with the game's construction rules and prints the deck in the project's deck text
format with every problem. ``--owner USER`` saves it as a new deck of that user (invalid decks
too: they can be fixed in the builder); ``--check`` only checks it. One of the two is required:
without either the command stops before reading the file and says so (a deck has an owner; there is
no default one). Exit codes: 0 legal; 1 not legal (parse errors, unknown cards, rule violations);
2 usage error (neither --owner nor --check, unreadable file, unknown user).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.deckfiles import deck_file_check
from rules import games as g
from rules.deckformats import FORMATS


class Command(BaseCommand):
    help = "Check (and optionally save) a deck file in a real-world deck format against the catalog."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--game", choices=g.GAMES, help="default: from the format (ws; chaos for textproto)")
        parser.add_argument("--format", dest="fmt", choices=FORMATS, help="default: detected from the content")
        parser.add_argument("--owner", help="save as a new deck of this user (username)")
        parser.add_argument("--check", action="store_true", help="only check the file; save nothing")
        parser.add_argument("--name", help="deck name when saving (default: the file name)")
        parser.add_argument("--json", dest="as_json", action="store_true", help="print the result as JSON")

    def handle(self, *args, file: str, game: str | None, fmt: str | None, owner: str | None, name: str | None,
               as_json: bool = False, check: bool = False, **options) -> None:
        if not owner and not check:
            raise CommandError(
                f"{file}: nothing saved: a deck needs an owner; pass --owner USERNAME to save it as a new deck "
                "of that user, or --check to only check the file", returncode=2)
        if owner and check:
            raise CommandError("--owner saves the deck and --check saves nothing: pass one of them", returncode=2)
        path = Path(file)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}: cannot read: {exc}", returncode=2) from None
        result = deck_file_check(text=text, fmt=fmt, game=game)
        validation = result["validation"]
        if owner:
            from django.contrib.auth import get_user_model

            from decks.services import DeckInputError, deck_create

            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"no user {owner!r}", returncode=2)
            try:
                deck = deck_create(owner=user, game=result["game"], name=name or path.stem, zones=result["zones"],
                                   note=f"imported from {path.name} ({result['format']})")
            except DeckInputError as exc:
                raise CommandError(f"{exc.field}: {exc.message}", returncode=2) from None
            result["deck_id"] = deck.pk
        if as_json:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, default=str))
        else:
            self.stdout.write(f"{path.name}: {result['format']} deck, {g.GAME_NAMES[result['game']]}")
            self.stdout.write(result["text"].rstrip())
            for note in result["notes"]:
                self.stdout.write(f"note: {note}")
            for w in validation.get("warnings", []):
                self.stdout.write(f"warning: {w['code']}: {w['message']}")
            for e in validation["errors"]:
                where = f"line {e['line']}: " if e.get("line") else ""
                self.stderr.write(f"error: {e['code']}: {where}{e['message']}")
            if "deck_id" in result:
                self.stdout.write(f"saved as deck {result['deck_id']}")
            self.stdout.write("legal" if validation["valid"] else "not legal")
        if not validation["valid"]:
            raise CommandError(f"{path.name}: {len(validation['errors'])} problem(s); the deck is not legal", returncode=1)
