"""The project: settings, the Celery app, and the foundations every part stands on (errors,
the API's edge, database pool, client address, rate limits, metrics, logs, health, accounts'
models). It imports nothing of games or decks, but for ``asgi``, the composition root that
routes websockets to games' live part; the URLs include the parts by name."""
MAY_IMPORT: tuple[str, ...] = ()
COMPOSITION_ROOT = ("grailsite.asgi",)

from .celery import app as celery_app

__all__ = ["celery_app"]
