"""Celery application.

With ``CELERY_BROKER_URL`` set (e.g. ``redis://127.0.0.1:6379/0``) tasks go to real workers started
with ``celery -A config worker``; without it the project runs on the embedded default (see settings).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tcgdb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Lost playtest chunks are queued again (or their jobs failed) by every worker on its own, every
# PLAYTEST_RECOVER_INTERVAL seconds (playtest/tasks.py); `celery beat` running this task is optional.
app.conf.beat_schedule = {
    "playtest-sweep-stale": {"task": "playtest.tasks.playtest_sweep_task", "schedule": 300.0},
}
