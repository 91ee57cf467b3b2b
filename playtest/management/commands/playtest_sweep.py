from django.core.management.base import BaseCommand

from playtest.models import PlaytestJob
from playtest.services import playtest_recover


class Command(BaseCommand):
    help = ("Queue lost playtest chunks again, or fail jobs that stopped making progress (lost worker, restarted "
            "server). The Celery workers do this by themselves every PLAYTEST_RECOVER_INTERVAL seconds.")

    def handle(self, *args, **options):
        before = set(PlaytestJob.objects.filter(status__in=PlaytestJob.ACTIVE).values_list("pk", flat=True))
        playtest_recover()
        failed = PlaytestJob.objects.filter(pk__in=before, status=PlaytestJob.Status.FAILED).count()
        self.stdout.write(f"{failed} stale playtest job(s) marked failed")
