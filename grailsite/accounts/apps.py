from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "grailsite.accounts"
    label = "accounts"

    def ready(self):
        from django_prometheus.middleware import Metrics

        from . import signals  # noqa: F401

        # django-prometheus makes its request metrics on the first middleware that asks, with
        # no lock: two handlers loading their middleware at once (the embedded default's
        # threads) registered them twice and the second failed its request. Made here, once,
        # while the site is set up on one thread.
        Metrics.get_instance()
