from django.apps import AppConfig


class PlaytestConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "playtest"
