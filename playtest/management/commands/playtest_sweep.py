from django.core.management.base import BaseCommand

from playtest.runner import playtest_sweep_stale


class Command(BaseCommand):
    help = "Fail playtest jobs that stopped making progress (lost worker, restarted server)."

    def handle(self, *args, **options):
        n = playtest_sweep_stale()
        self.stdout.write(f"{n} stale playtest job(s) marked failed")
