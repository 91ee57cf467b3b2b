# Issue 19: legality stored when a deck is saved (findings 3), the first version others may see once a
# deck is public (finding 14). Existing decks are checked here; existing public decks keep showing their
# whole history (public_from_version stays None), as they did before.
import logging

from django.db import migrations, models, transaction

log = logging.getLogger(__name__)


def backfill_legality(apps, schema_editor):
    """Check every existing deck once (``decks.selectors.deck_validate``, the same check a save runs).
    A catalog that cannot be read with today's code (an old database migrated across later catalog
    changes) leaves ``legal`` empty; ``manage.py revalidate_decks`` fills it in later."""
    Deck = apps.get_model("decks", "Deck")
    if not Deck.objects.exists():
        return
    try:
        from decks.selectors import deck_validate
    except Exception:  # noqa: BLE001 - leave the decks unchecked
        log.warning("deck legality not backfilled; run manage.py revalidate_decks", exc_info=True)
        return
    for deck in Deck.objects.only("pk", "game", "zones").iterator(chunk_size=200):
        try:
            with transaction.atomic():
                report = deck_validate(game=deck.game, zones=deck.zones or {})
        except Exception:  # noqa: BLE001 - the savepoint keeps the migration's transaction usable
            log.warning("deck legality not backfilled; run manage.py revalidate_decks", exc_info=True)
            return
        Deck.objects.filter(pk=deck.pk).update(legal=report["valid"], problems=len(report["errors"]))


class Migration(migrations.Migration):

    dependencies = [
        ("decks", "0003_deck_cards"),
        ("catalog", "0009_card_code_folded"),
    ]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="legal",
            field=models.BooleanField(blank=True, help_text="The latest version passed the game's construction rules when saved (None: not checked yet)", null=True),
        ),
        migrations.AddField(
            model_name="deck",
            name="problems",
            field=models.PositiveIntegerField(default=0, help_text="Construction problems of the latest version"),
        ),
        migrations.AddField(
            model_name="deck",
            name="public_from_version",
            field=models.PositiveIntegerField(blank=True, help_text="First version others may see while the deck is public: versions saved before it was made public stay the owner's unless the owner chose to publish them (None: every version)", null=True),
        ),
        migrations.RunPython(backfill_legality, migrations.RunPython.noop),
    ]
