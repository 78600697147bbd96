from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    label = "decks"
    verbose_name = "Cards, collections and decks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from decks import signals  # noqa: F401  (connects the new-account starter grant)
