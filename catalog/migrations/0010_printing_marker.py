"""``CardPrinting.marker``: a printing marker (``ホロ``, ``エラッタ前``, ``サイン入り``) the sources print
after the card's name is kept on the printing, not in the name (copy limits go by name)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0009_card_code_folded"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardprinting",
            name="marker",
            field=models.CharField(blank=True, help_text="Printing marker, e.g. ホロ (holo) or エラッタ前", max_length=64),
        ),
    ]
