"""An index on ``(game, work, number)`` for the card page's "the same card elsewhere"
(``catalog.selectors.card_same_identity``: the same name, or the same work and card number). The
name half of the OR had its index; the work/number half had none, so PostgreSQL read every card of
the game for each card page (70 ms for a pc card at 20,000 pc cards; 3 ms with the index)."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("catalog", "0013_card_facet_keys")]

    operations = [
        migrations.AddIndex(
            model_name="card",
            index=models.Index(fields=["game", "work", "number"], name="card_game_work_number_idx"),
        ),
    ]
