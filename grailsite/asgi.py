"""HTTP and websockets in one ASGI application."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
django_asgi = get_asgi_application()  # sets Django up before the consumers import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.live.connect_gate import ConnectGate  # noqa: E402
from games.live.consumers import DatabaseDownGuard  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.web.api_moves import MoveFront  # noqa: E402
from grailsite.origins import SameOriginValidator  # noqa: E402

from grailsite import gctuning, gil, metrics  # noqa: E402

application = ProtocolTypeRouter({
    # The API's token moves are answered on the loop, in the socket moves' batches; every
    # other request, and any such move this path would not answer as Django does, goes to
    # Django unchanged (games/web/api_moves.py).
    "http": MoveFront(django_asgi),
    # Connects over their limits are refused before anything else (games/live/connect_gate.py); the
    # origin is checked before the session is read: scheme, host and port (grailsite/origins.py);
    # a database out of reach while the session and user are read closes the socket with 1013.
    "websocket": ConnectGate(SameOriginValidator(DatabaseDownGuard(AuthMiddlewareStack(
        URLRouter(websocket_urlpatterns))))),
})
# Everything above lives as long as the process: out of the collector's way (gctuning.py).
gctuning.tune()
# The event loop gets the interpreter back quickly from threads doing ORM work (gil.py).
gil.tune()
# A restarted process's sockets are no longer open (grailsite/metrics.py).
metrics.forget_dead_processes()
