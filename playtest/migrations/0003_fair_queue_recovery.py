# Issue 19: fair queuing (chunks sent a few at a time per player) and recovery of lost chunks.
from django.db import migrations, models


def sent_everything(apps, schema_editor):
    """Jobs queued before this migration had every chunk sent at once."""
    PlaytestJob = apps.get_model("playtest", "PlaytestJob")
    PlaytestJob.objects.update(chunks_sent=models.F("chunks_total"))


class Migration(migrations.Migration):

    dependencies = [
        ("playtest", "0002_chunk_examples"),
    ]

    operations = [
        migrations.AddField(
            model_name="playtestjob",
            name="chunks_sent",
            field=models.PositiveIntegerField(default=0, help_text="Chunks handed to the queue so far (0..chunks_sent-1)"),
        ),
        migrations.AddField(
            model_name="playtestjob",
            name="requeues",
            field=models.PositiveSmallIntegerField(default=0, help_text="Times lost chunks were queued again"),
        ),
        migrations.AddField(
            model_name="playtestjob",
            name="notes",
            field=models.JSONField(blank=True, default=list, help_text='What happened to the job: [{"at", "code", "params"}] (chunks lost and queued again)'),
        ),
        migrations.RunPython(sent_everything, migrations.RunPython.noop),
    ]
