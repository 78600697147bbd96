"""Settings. Embedded defaults (SQLite, in-memory channel layer, in-process timer sweep)
unless DATABASE_URL / REDIS_URL say otherwise.

Production is an explicit switch, ``GRAILSITE_PRODUCTION=1`` (the Docker image sets it): it
turns debug off whatever else is said, refuses to start without a real SECRET_KEY, and turns
on HTTPS-only cookies, HSTS and the HTTPS redirect, so ``manage.py check --deploy`` is clean.
Without it (``make run``, ``make test``) nothing needs to be set."""
from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


PRODUCTION = env_bool("GRAILSITE_PRODUCTION", False)
DEV_SECRET_KEY = "dev-only-not-secret-change-me-in-production"
if PRODUCTION:
    DEBUG = False
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50 or SECRET_KEY == DEV_SECRET_KEY or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "GRAILSITE_PRODUCTION is set: SECRET_KEY must be set to a random string of at least 50 characters "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))').")
else:
    DEBUG = env_bool("DJANGO_DEBUG", True)
    SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
if PRODUCTION:
    # As compose and `make prod` say them: a production site names its hosts and the origins
    # its forms are posted from, never the development defaults above.
    for _name in ("ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"):
        if not [v for v in os.environ.get(_name, "").split(",") if v.strip()]:
            raise ImproperlyConfigured(
                f"GRAILSITE_PRODUCTION is set: {_name} must be set (comma-separated; e.g. "
                + ("'grail.example.org'" if _name == "ALLOWED_HOSTS" else "'https://grail.example.org'") + ").")
# Behind the compose proxy (nginx), trust its X-Forwarded-Proto for https detection.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# Websocket origins allowed besides this site's own (scheme, host and port are compared).
WEBSOCKET_ALLOWED_ORIGINS = [o for o in os.environ.get("WEBSOCKET_ALLOWED_ORIGINS", "").split(",") if o]

if PRODUCTION:
    # The site is served over HTTPS (TLS ends at the proxy or in front of it). An operator
    # trying compose on plain http://localhost sets GRAILSITE_HTTPS=false, and check --deploy
    # then rightly warns.
    _https = env_bool("GRAILSITE_HTTPS", True)
    SECURE_SSL_REDIRECT = _https
    SESSION_COOKIE_SECURE = _https
    CSRF_COOKIE_SECURE = _https
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600) if _https else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    # /readyz's checks (grailsite/health.py) and /metrics (grailsite/metrics.py).
    "health_check",
    "django_prometheus",
    "grailsite.accounts",
    "games",
    "decks",
]

MIDDLEWARE = [
    # First and last: request counts and latencies for /metrics (django-prometheus).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "grailsite.middleware.BoundedRequestMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The request id, user and match of every log line (grailsite/logs.py).
    "grailsite.logs.RequestContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A view that finds the database out of reach answers 503, not 500 (grailsite/middleware.py).
    "grailsite.middleware.DatabaseDownMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "grailsite.urls"
ASGI_APPLICATION = "grailsite.asgi.application"
WSGI_APPLICATION = "grailsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Each game's room brings its own templates (games/kinds/<kind>/templates).
            "loaders": [("django.template.loaders.cached.Loader", [
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
                "games.kinds.assets.RoomTemplateLoader",
            ])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.notifications",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))}
# A connection that died with its server (a restart, a failover) is noticed before a request
# gets it, not by the request's first query.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Parallel test runs on one server (several developers, CI) each name their own test database.
# The embedded default (SQLite) takes concurrent writers: a request, a chat line and the timer
# thread. WAL lets readers run beside the one writer; every transaction takes the write lock
# when it begins (IMMEDIATE), so two never deadlock upgrading from read to write, and a writer
# that finds the lock taken waits up to ``timeout`` seconds instead of failing "database is locked".
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"})
# The move path's own statements (games/table/persistence.py, server-side binding) are prepared
# after their second use on a connection: parsing and planning its CTE cost PostgreSQL about
# three quarters of its CPU per move, unprepared (docs/performance.md, 2026-11-25 evening).
# Django's own queries bind on the client and are never prepared. Behind a pooler in
# transaction mode (PgBouncer before 1.21), set DB_PREPARE_THRESHOLD=-1 to turn this off.
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    threshold = env_int("DB_PREPARE_THRESHOLD", 2)
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None if threshold < 0 else threshold
    # Django's backend, which logs prepared statements with their SQL (grailsite/postgresql).
    DATABASES["default"]["ENGINE"] = "grailsite.postgresql"
    # A server that does not answer at all (a failover's address not up yet) fails a connect
    # in this many seconds, not the system's two minutes: the request gets its 503 to retry.
    DATABASES["default"]["OPTIONS"]["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 5)
if os.environ.get("GRAILSITE_TEST_DB"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["GRAILSITE_TEST_DB"]}
# Under ASGI every request's synchronous code runs in a thread of its own, so connections
# would grow with concurrency until PostgreSQL refuses them: production takes each from a
# pool of at most DB_POOL_MAX per process (checked on checkout, above), and a request waits
# up to DB_POOL_TIMEOUT seconds for one rather than opening another (docs/reliability.md).
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DB_POOL", PRODUCTION):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The backend's pool checks each connection on checkout without a round trip to the
    # server for a live one (grailsite/postgresql/base.py, grailsite/dbpool.py).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN", 2), "max_size": env_int("DB_POOL_MAX", 10),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
        # Connections older than this are replaced, so a pool does not pin one server of a
        # failover pair for ever.
        "max_lifetime": float(os.environ.get("DB_POOL_MAX_LIFETIME", "1800"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# The channel layer's Redis, sharded over several servers when REDIS_URLS lists more than one
# (channels_redis's own consistent hashing of each group and channel; games/live/publisher.py
# publishes to the same shard); the cache, the rate limits and Celery's broker stay on
# REDIS_URL. Unset: the layer is on REDIS_URL too.
REDIS_URLS = [u.strip() for u in os.environ.get("REDIS_URLS", "").split(",") if u.strip()] or (
    [REDIS_URL] if REDIS_URL else [])
# The channel prefix keeps parallel test runs sharing one Redis apart.
CHANNEL_PREFIX = os.environ.get("GRAILSITE_CHANNEL_PREFIX", os.environ.get("GRAILSITE_TEST_DB", "grailsite"))
if REDIS_URL:
    # Pub/sub: a group message is one PUBLISH however many sockets listen, membership never
    # expires, and nothing queues up for sockets that went away (docs/performance.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": REDIS_URLS, "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Shared counters (rate limits): Redis when there is one, so every web process counts
# together; the embedded default is one process, where memory is shared enough.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": CHANNEL_PREFIX,
                          "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The proxies in front of the site whose X-Forwarded-For is believed (addresses or CIDRs,
# comma-separated): a client's address is the right-most one in that header not among them
# (grailsite/client_address.py). Empty, the default: nobody's, and the socket's peer is the
# client. Compose sets the proxy's fixed address (docker-compose.yml); add a load balancer's
# address if one stands in front of it.
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an address or a CIDR network.") from None
# Rate limits (grailsite/ratelimits.py: sliding windows in the cache's Redis). Rates per
# signed-in user and per address; the address is client_address's, never X-Forwarded-For as
# the client sent it.
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATE_LIMITS = {
    "signup": {"ip": os.environ.get("RATE_SIGNUP_IP", "30/h")},
    "login": {"ip": os.environ.get("RATE_LOGIN_IP", "60/m")},
    "move": {"user": os.environ.get("RATE_MOVE_USER", "600/m"), "ip": os.environ.get("RATE_MOVE_IP", "3000/m")},
    "chat": {"user": os.environ.get("RATE_CHAT_USER", "30/m"), "ip": os.environ.get("RATE_CHAT_IP", "300/m")},
    "match_create": {"user": os.environ.get("RATE_MATCH_CREATE_USER", "120/h")},
    # Deck analyses and sample openings: the builder asks after each pause in editing, about
    # one a second at the most for a person; an address may hold a classroom.
    "deck_analysis": {"user": os.environ.get("RATE_DECK_ANALYSIS_USER", "60/m"),
                      "ip": os.environ.get("RATE_DECK_ANALYSIS_IP", "300/m")},
    # "Check this game": a finished game's check replays it once and is then kept (one cache
    # read); the limit bounds the replays someone could ask for across many games.
    "game_check": {"user": os.environ.get("RATE_GAME_CHECK_USER", "30/m"),
                   "ip": os.environ.get("RATE_GAME_CHECK_IP", "120/m")},
    # Bots' streams (games/bots/): a stream is opened once per game and kept; a bot that
    # reconnects in a loop is held back.
    "stream": {"user": os.environ.get("RATE_STREAM_USER", "120/m"), "ip": os.environ.get("RATE_STREAM_IP", "600/m")},
}
# Websocket connects, counted in each web process before any other work (games/live/connect_gate.py):
# (at once, then a second) per address (IPv6 by /64) and per game. A page opens one socket,
# and again with backoff after a drop; a game's spectators arrive over seconds.
WS_CONNECT_LIMITS = {
    "address": (env_int("WS_CONNECT_BURST_ADDRESS", 30), float(os.environ.get("WS_CONNECTS_PER_SECOND_ADDRESS", "3"))),
    "game": (env_int("WS_CONNECT_BURST_GAME", 100), float(os.environ.get("WS_CONNECTS_PER_SECOND_GAME", "20"))),
}
# Websocket messages a socket may send: a burst, then this many a second.
WS_MESSAGE_BURST = env_int("WS_MESSAGE_BURST", 10)
WS_MESSAGES_PER_SECOND = float(os.environ.get("WS_MESSAGES_PER_SECOND", "2"))
# Moves over a game's socket: their own allowance (the HTTP move limit is 600 a minute).
WS_MOVE_BURST = env_int("WS_MOVE_BURST", 20)
WS_MOVES_PER_SECOND = float(os.environ.get("WS_MOVES_PER_SECOND", "10"))
# Bots (games/bots/): a blank line on every stream after this many quiet seconds, so the
# connection stays open through proxies and a bot can tell a silent server from a dead one;
# a game stream checks its game's version after this many quiet seconds (a lost push).
BOT_STREAM_KEEPALIVE = float(os.environ.get("BOT_STREAM_KEEPALIVE", "5"))
BOT_STREAM_RECHECK = float(os.environ.get("BOT_STREAM_RECHECK", "60"))
# A bot's games: "unrated", or "pool" (rated when every person seated is a bot: their own pool).
BOT_GAMES_RATED = os.environ.get("BOT_GAMES_RATED", "unrated")
# Moves over a game's websocket are made on the event loop, in batches (games/live/live_moves.py),
# on PostgreSQL with the Redis pub/sub layer; False sends each through the synchronous
# service, as the HTTP API does (kept for comparison: bench/move_roundtrip.py --ordinary).
MOVES_IN_BATCHES = env_bool("MOVES_IN_BATCHES", True)
# The API's moves sent with a token are answered on the event loop and made in the same
# batches (games/web/api_moves.py); False leaves them to Django's view, one transaction each.
API_MOVES_ON_LOOP = env_bool("API_MOVES_ON_LOOP", True)
# Ratings (docs/ratings.md): rated games of two between the same two accounts count for at
# most this many a day (24 hours); beyond it a game is played but not rated.
RATED_PAIR_DAILY = env_int("RATED_PAIR_DAILY", 3)
# Check each state the move path keeps between moves against its JSON when it is used
# (games/table/persistence.py, _Recent): on in the test suite, off in production (it costs a dump).
CHECK_HELD_STATES = env_bool("GRAILSITE_CHECK_HELD_STATES", False)
# A folder to stamp each socket move's stages into (games/live/move_trace.py), for
# bench/move_stages.py; unset (the default), nothing is stamped.
MOVE_TRACE = os.environ.get("GRAILSITE_MOVE_TRACE") or None

# Celery: Redis broker in production and tests; in the embedded default no broker is needed,
# because the in-process sweep thread (games.embedded_worker) fires every timer.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Keep retrying the broker for ever (at startup too): Redis coming back is the normal case.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Publishing a deadline task is the fast path only (the beat sweep is the guarantee), so a
# move never waits long on a broker that is down: one quick retry, then it goes on without.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_TIMEZONE = "UTC"
# The timers' guarantee (deadlines and computer moves whose task was lost fire within this
# many seconds): a Redis restart drops the ETA tasks a worker holds, and a
# sweep once a minute left them up to a minute late. A sweep that finds nothing due is two
# index reads (bench/faults.py --only sweep_cost); a sweep message older than its interval
# is dropped (``expires``), so a worker that was down does not run a backlog of them.
TIMERS_SWEEP_SECONDS = float(os.environ.get("TIMERS_SWEEP_SECONDS", "5"))
CELERY_BEAT_SCHEDULE = {
    "fire-due-timers": {"task": "games.tasks.timers_sweep", "schedule": TIMERS_SWEEP_SECONDS,
                        "options": {"expires": TIMERS_SWEEP_SECONDS}},
    "sweep-overdue-deadlines": {"task": "games.tasks.deadlines_sweep", "schedule": 60.0},
    "send-notification-emails": {"task": "games.tasks.notification_emails_send", "schedule": 300.0},
}
# Two lanes, each a queue with workers of its own (docs/deploy.md): the clocks' lane takes
# deadlines, computer players' moves, the timers' sweeps and the tournaments' timers (a round's
# start and close, and the pairing that starts the next), and nothing else, so no side work
# ever waits in front of a clock (one shared queue once let deadlines run 72-100 s late under
# a flood of moves); the side lane takes pushes, reminders and e-mail. Every task is routed
# by name, so a task sent from any process (a web process, a worker of either lane) goes to
# its lane. Parallel test runs on one Redis each use their own queue names.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("GRAILSITE_CELERY_QUEUE", f"{CHANNEL_PREFIX}-tasks")
LANE_QUEUES = {"side": CELERY_TASK_DEFAULT_QUEUE, "clocks": f"{CELERY_TASK_DEFAULT_QUEUE}-clocks"}
CLOCK_TASKS = ("games.tasks.deadline_fire", "games.tasks.timers_sweep", "games.tasks.deadlines_sweep",
               "games.tasks.computer_move", "games.tasks.tournament_start", "games.tasks.tournament_advance",
               "games.tasks.tournament_round_close", "games.tasks.tournaments_sweep")
CELERY_TASK_ROUTES = {**{name: {"queue": LANE_QUEUES["clocks"]} for name in CLOCK_TASKS},
                      "games.tasks.*": {"queue": LANE_QUEUES["side"]}}
# Both queues declared, so a purge empties both; a worker consumes only the lanes its -Q names
# (grailsite/deploy/worker.sh), or both when it names none (the tests' workers).
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in LANE_QUEUES.values()]
# Tournaments' timers (games/tournaments/): starts, round deadlines, and their sweep.
CELERY_BEAT_SCHEDULE["tournaments-sweep"] = {"task": "games.tasks.tournaments_sweep", "schedule": 60.0,
                                             "options": {"expires": 60.0}}
TIMERS_USE_CELERY = bool(REDIS_URL)
# How long a game set up as it is created (the rest computers) waits for its creator's page to
# send a contribution before it is dealt with zeros in its place (games/table/services.py,
# match_contribute): a page sends it as soon as it opens, a bot through the API need not.
DEAL_WAIT_SECONDS = int(os.environ.get("DEAL_WAIT_SECONDS", "20"))
# The next round of a tournament, once the last game of a round ends: paired by a task in the
# clocks' lane (so the last mover does not wait for it), or in that request without Celery.
TOURNAMENT_ROUNDS_BY_TASK = TIMERS_USE_CELERY
EMBEDDED_SWEEP_SECONDS = float(os.environ.get("EMBEDDED_SWEEP_SECONDS", "5"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "grailsite <noreply@grailsite.local>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Each game's room serves its own static/ as games/<kind>/ (games/kinds/assets.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.kinds.assets.RoomStaticFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# JSON lines with the request id, user id and match id where they apply (grailsite/logs.py);
# production's default. LOG_REQUESTS: one line a request.
from grailsite.logs import logging_config  # noqa: E402

LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "text")
LOGGING = logging_config(LOG_FORMAT, os.environ.get("LOG_LEVEL", "WARNING"),
                         requests=env_bool("LOG_REQUESTS", PRODUCTION))
# Celery logs through the handler above rather than replacing it with its own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Health and metrics (grailsite/health.py, grailsite/metrics.py). The probes answer over
# plain HTTP from inside (a container's healthcheck, the proxy), as does /metrics, so they are
# not redirected to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^sweepz$", r"^metrics$"]
# Beat's timer sweep (every TIMERS_SWEEP_SECONDS) is late when it last ran longer ago than this:
# /sweepz says 503, the metric grailsite_timers_sweep_age_seconds passes it, a warning is
# logged. Never a reason for /readyz to fail (grailsite/health.py).
TIMERS_SWEEP_MAX_AGE = float(os.environ.get("TIMERS_SWEEP_MAX_AGE", os.environ.get("READY_SWEEP_MAX_AGE", "120")))
# Who may read /metrics: addresses or CIDRs, the client's address as client_address reads it.
METRICS_ALLOWED = [a.strip() for a in os.environ.get("METRICS_ALLOWED", "127.0.0.1,::1").split(",") if a.strip()]
for _net in METRICS_ALLOWED:
    try:
        ipaddress.ip_network(_net, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"METRICS_ALLOWED: {_net!r} is not an address or a CIDR network.") from None

# Web Push (games/inbox/push.py). The VAPID key pair identifies this site to the browsers' push
# services: `manage.py vapid_keys` makes one. Production sets VAPID_PRIVATE_KEY (without it
# push is simply off); the embedded default reads the file `make run` writes.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", BASE_DIR / ".vapid_private_key"))
if not VAPID_PRIVATE_KEY and not PRODUCTION and VAPID_KEY_FILE.is_file():
    VAPID_PRIVATE_KEY = VAPID_KEY_FILE.read_text().strip()
# Who runs the site, for the push services (a mailto: or https: URL).
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@grailsite.local")
# A person's notices within this many seconds make one push; each web process hands a
# change's notices to the side lane at most once a window (games/inbox/push.py), so a push
# comes within a second of its change and a flood of moves sends a few messages a second.
PUSH_BATCH_SECONDS = float(os.environ.get("PUSH_BATCH_SECONDS", "0.5"))
PUSH_TTL_SECONDS = env_int("PUSH_TTL_SECONDS", 12 * 3600)   # how long a push service keeps one for an offline device
# One exchange with a push service: the connect, each read, and the whole of it (a server that
# trickles its answer is cut off); a delivery run takes no new send after PUSH_RUN_SECONDS,
# and at most PUSH_PER_USER_PER_RUN of its sends are one person's (games/inbox/push.py).
PUSH_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("PUSH_CONNECT_TIMEOUT_SECONDS", "3"))
PUSH_READ_TIMEOUT_SECONDS = float(os.environ.get("PUSH_READ_TIMEOUT_SECONDS", "5"))
PUSH_SEND_SECONDS = float(os.environ.get("PUSH_SEND_SECONDS", "10"))
PUSH_RUN_SECONDS = float(os.environ.get("PUSH_RUN_SECONDS", "20"))
PUSH_PER_USER_PER_RUN = env_int("PUSH_PER_USER_PER_RUN", 5)
# An endpoint that failed this many times in a row is paused for PUSH_PAUSE_SECONDS, doubling
# with each failure after (a day at most); one success clears it.
PUSH_PAUSE_AFTER_FAILURES = env_int("PUSH_PAUSE_AFTER_FAILURES", 5)
PUSH_PAUSE_SECONDS = float(os.environ.get("PUSH_PAUSE_SECONDS", "3600"))
# The push endpoints the site calls (grailsite/outbound.py, games/inbox/push.py): https on these
# ports, to these hosts ("*.x" is any name under x; "*" any public host), and every address a
# host resolves to must be public, checked when a browser subscribes and again at each push.
PUSH_ENDPOINT_HOSTS = [h.strip() for h in os.environ.get(
    "PUSH_ENDPOINT_HOSTS", "fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,"
    "web.push.apple.com").split(",") if h.strip()]
PUSH_ENDPOINT_PORTS = [int(p) for p in os.environ.get("PUSH_ENDPOINT_PORTS", "443").split(",") if p.strip()]
# Tests and benches only: their push service listens on loopback (tests/push_service.py). Off
# by default, and refused in production.
PUSH_ALLOW_LOOPBACK = env_bool("PUSH_ALLOW_LOOPBACK", False)
# A benchmark of the production shape (bench/clock_lateness.py points pushes at a loopback
# listener that never answers) says so; a deployment never does.
BENCH = env_bool("GRAILSITE_BENCH", False)
if PRODUCTION and PUSH_ALLOW_LOOPBACK and not BENCH:
    raise ImproperlyConfigured("PUSH_ALLOW_LOOPBACK is for tests and benches: production never pushes to loopback.")
CELERY_BEAT_SCHEDULE["push-sweep"] = {"task": "games.tasks.push_sweep", "schedule": TIMERS_SWEEP_SECONDS,
                                      "options": {"expires": TIMERS_SWEEP_SECONDS}}
# Reminders before a deadline (games/inbox/reminders.py): timer rows, fired by their own sweep.
CELERY_BEAT_SCHEDULE["reminders-sweep"] = {"task": "games.tasks.reminders_sweep", "schedule": TIMERS_SWEEP_SECONDS,
                                           "options": {"expires": TIMERS_SWEEP_SECONDS}}
CELERY_BEAT_SCHEDULE["reminders-forget"] = {"task": "games.tasks.reminders_forget", "schedule": 3600.0}
