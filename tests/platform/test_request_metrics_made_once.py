"""django-prometheus's request metrics exist once the site is set up, so two handlers that load
their middleware at the same moment (the embedded default's threads) never both make them:
the second would fail its request with a duplicated time series."""
import threading

from django.core.handlers.asgi import ASGIHandler
from django_prometheus.middleware import Metrics


def test_the_request_metrics_are_made_at_setup_and_handlers_loaded_at_once_share_them():
    made = Metrics._instance
    assert made is not None
    failures = []

    def load():
        try:
            ASGIHandler().load_middleware(is_async=True)
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            failures.append(exc)

    threads = [threading.Thread(target=load) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and Metrics._instance is made
