"""Logs as JSON lines, each with the request id, user id and match id it concerns.

What a line concerns is kept in context variables, set where it becomes known: the request
middleware below (request id, then the user once authentication has run, the match from the
URL), a game socket's connect (games/live/consumers.py), a Celery task's arguments
(grailsite/celery.py). Context variables follow each asyncio task and each thread of
``sync_to_async``, so two requests served at once never mix their ids.

``LOG_FORMAT=json`` (the production default) formats every line with ``JsonFormatter``;
``text`` keeps the plain lines of development, ids appended when there are any.
"""
from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import re
import threading
import time
import uuid

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
user_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("user_id", default=None)
match_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("match_id", default=None)
CONTEXT = {"request_id": request_id, "user_id": user_id, "match_id": match_id}

# An id the proxy (nginx's $request_id) or a client sent is kept only when it looks like one:
# it is written into every line, so it must not carry quotes, newlines or a novel.
_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def new_request_id(offered: str | None = None) -> str:
    return offered if offered and _ID.match(offered) else uuid.uuid4().hex


class ContextFilter(logging.Filter):
    """Adds request_id, user_id and match_id (None when not known) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in CONTEXT.items():
            if not hasattr(record, name):
                setattr(record, name, var.get())
        return True


class JsonFormatter(_JsonFormatter):
    """One JSON object a line: time, level, logger, message, the ids that apply, and the
    ``extra`` a call passed; ids that do not apply are left out rather than written null."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger", "asctime": "time"})
        kwargs.setdefault("timestamp", False)
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s", *args, **kwargs)

    def add_fields(self, log_record, record, message_dict):
        super().add_fields(log_record, record, message_dict)
        for name in CONTEXT:
            if log_record.get(name) is None:
                log_record.pop(name, None)
        log_record.pop("color_message", None)  # uvicorn's terminal copy of the message

    def formatTime(self, record, datefmt=None):  # noqa: N802 - logging's name
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"


class OneLine(logging.Filter):
    """A record's traceback becomes the end of its line: for loggers whose failures are an
    outage's expected news (a readiness check that cannot reach Redis), said once a probe,
    where a traceback a probe would bury the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            said = [_first_line(exc)]
            if exc.__cause__ is not None:  # a check's own words often hide the reason (its cause)
                said.append(f"from {_first_line(exc.__cause__)}")
            record.msg = f"{record.getMessage()}: {' '.join(said)}"
            record.args = ()
            record.exc_info = record.exc_text = None
        return True


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class CountedLine:
    """A log line about something that may come in floods, written few times and never losing
    count: the first event after a quiet spell is written at once, as one; those that follow
    are only counted, and when ``interval`` seconds have passed the count is written, on a
    timer, whether or not another event comes (otherwise a flood's tail, with nothing after
    it, was never reported). While events keep coming there is a line an interval; an
    interval without any ends the spell. The counts written add up to the events.

    ``write(count, span, details)`` writes the line: ``span`` is how many seconds the count
    covers (None for the first of a spell), ``details`` what the last of them was given. It is
    called from the thread that adds the first event, and from a timer thread after that, so
    the callers may run on an event loop or off it. ``reset()`` forgets all (tests)."""

    def __init__(self, interval: float, write):
        self.interval = interval
        self._write = write
        self._lock = threading.Lock()
        self._count = 0
        self._details: tuple = ()
        self._written = 0.0
        self._timer: threading.Timer | None = None

    def add(self, *details) -> None:
        with self._lock:
            if self._timer is not None:  # inside an interval: counted, written at its end
                self._count += 1
                self._details = details
                return
            self._written = time.monotonic()
            self._start_interval()
        self._write(1, None, details)

    def _start_interval(self) -> None:
        self._timer = threading.Timer(self.interval, self._end_interval)
        self._timer.daemon = True  # a process that exits does not wait for a log line
        self._timer.start()

    def _end_interval(self) -> None:
        with self._lock:
            if self._timer is None or self._timer is not threading.current_thread():
                return  # reset() while this timer was about to run
            count, details, self._count = self._count, self._details, 0
            now = time.monotonic()
            span, self._written = now - self._written, now
            if count:
                self._start_interval()
            else:
                self._timer = None
        if count:
            self._write(count, span, details)

    def reset(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._count, self._details = None, 0, ()


class HandshakeLines(logging.Filter):
    """uvicorn's lines about websocket handshakes, made few (on ``uvicorn.error``, where
    uvicorn and the websockets library under it write them).

    Every refused handshake wrote two lines (uvicorn's ``"WebSocket /ws/…" 403`` and the
    library's "connection rejected (403 Forbidden)"): a flood of connects over the connect
    gate's limits wrote 16,000 lines in 20 s. Refusals are now counted into a ``CountedLine``
    of ``INTERVAL`` seconds (``HANDSHAKE_LOG_SECONDS`` in the environment, if set): the first
    after a quiet spell is a line at once, then one line an interval says how many came, the
    last from where to where. The library's "connection rejected", "connection open" and
    "connection closed" lines go: uvicorn's own line of the same event names the address and
    the path, they do not."""

    INTERVAL = 5.0
    TWINS = ("connection rejected (%d %s)", "connection open", "connection closed")
    MESSAGE = "websocket handshakes refused: %d %s (the last from %s to %s)"

    def __init__(self):
        super().__init__()
        # HANDSHAKE_LOG_SECONDS shortens the interval where a test must see a flood's tail.
        self.refusals = CountedLine(float(os.environ.get("HANDSHAKE_LOG_SECONDS", self.INTERVAL)), self._write)

    @staticmethod
    def _refusal(record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        if msg.endswith('"WebSocket %s" 403'):
            return True
        return msg.endswith('"WebSocket %s" %d') and isinstance(record.args, tuple) and bool(record.args) \
            and isinstance(record.args[-1], int) and record.args[-1] >= 400

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.TWINS:
            return False
        if not self._refusal(record):
            return True
        client, path = (record.args[:2] if isinstance(record.args, tuple) and len(record.args) >= 2
                        else ("?", "?"))
        # The refusal's own record goes; the counted line is written on the same logger, at
        # the same level (it passes this filter: it is not a refusal).
        self.refusals.add(record.name, record.levelno, client, path)
        return False

    def _write(self, count: int, span: float | None, details: tuple) -> None:
        logger, level, client, path = details
        said = f"in the last {round(span, 1):g} s" if span is not None else "after a quiet spell"
        logging.getLogger(logger).log(level, self.MESSAGE, count, said, client, path)


class TextFormatter(logging.Formatter):
    """Development's plain lines, with whichever ids apply at the end."""

    def format(self, record):
        line = super().format(record)
        ids = " ".join(f"{n}={getattr(record, n)}" for n in CONTEXT if getattr(record, n, None) is not None)
        return f"{line} [{ids}]" if ids else line


def logging_config(fmt: str, level: str, requests: bool) -> dict:
    """Django's LOGGING (settings.py) and uvicorn's --log-config (grailsite/deploy/).
    Python's warnings become log lines too (py.warnings), so nothing is written unformatted."""
    logging.captureWarnings(True)
    formatter = ({"()": "grailsite.logs.JsonFormatter"} if fmt == "json"
                 else {"()": "grailsite.logs.TextFormatter", "format": "%(asctime)s %(levelname)s %(name)s %(message)s"})
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "grailsite.logs.ContextFilter"}, "one_line": {"()": "grailsite.logs.OneLine"},
                    "handshakes": {"()": "grailsite.logs.HandshakeLines"}},
        "formatters": {"default": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "default", "filters": ["context"]}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # One line a request (RequestContextMiddleware), when asked for: production.
            "grailsite.request": {"level": "INFO" if requests else "WARNING"},
            # A failing readiness check: one line a check, no traceback (grailsite/health.py).
            "health_check": {"filters": ["one_line"]},
            # uvicorn's own lines through the same handler; refused websocket handshakes
            # counted into a line every few seconds, the library's twins of its lines dropped
            # (HandshakeLines).
            "uvicorn": {"handlers": ["console"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level, "filters": ["handshakes"]},
            # Its access log stays off (web.sh says --no-access-log, but this configuration
            # is applied after uvicorn's and would hand the logger back its parent's handler:
            # every request was logged twice): the request lines above carry the ids.
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


@contextlib.contextmanager
def bound(**ids):
    """Set some of the ids for the code inside (a Celery task, a test)."""
    tokens = [(CONTEXT[name], CONTEXT[name].set(value)) for name, value in ids.items()]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


request_log = logging.getLogger("grailsite.request")

# URL keyword arguments that name a match: the pages' match_id, and the API's {id} under
# /api/matches/ (the decks' API has ids of its own).
def _match_from(request, view_kwargs) -> int | None:
    value = view_kwargs.get("match_id")
    if value is None and request.path.startswith("/api/matches/"):
        value = view_kwargs.get("id")
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return int(value)
    return None


class RequestContextMiddleware:
    """Sets the request id (the proxy's X-Request-ID when it sent a sane one, else a new
    one) and, once known, the user and the match; answers with the id in X-Request-ID and
    logs one line a request to ``grailsite.request``.

    Placed after authentication, so ``request.user`` is there to be read; the user is read
    only when something already loaded it (no session query of its own)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        rid = new_request_id(request.headers.get("X-Request-ID"))
        request.request_id = rid
        with bound(request_id=rid, user_id=None, match_id=None):
            response = self.get_response(request)
            user = _loaded_user(request)
            if user is not None:
                user_id.set(user)
            response["X-Request-ID"] = rid
            if request_log.isEnabledFor(logging.INFO):
                request_log.info("%s %s %s", request.method, request.path, response.status_code,
                                 extra={"method": request.method, "path": request.path,
                                        "status": response.status_code,
                                        "duration_ms": round((time.perf_counter() - started) * 1000, 1)})
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = _match_from(request, view_kwargs)
        if match is not None:
            match_id.set(match)
        user = _loaded_user(request)
        if user is not None:
            user_id.set(user)
        return None


def _loaded_user(request) -> int | None:
    """The signed-in user's id if authentication already looked (never a query of its own)."""
    user = request.__dict__.get("user")
    if user is None or type(user).__name__ == "SimpleLazyObject":
        user = getattr(request, "_cached_user", None)
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None
