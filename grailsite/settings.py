"""Settings. Embedded defaults (SQLite, in-memory channel layer, in-process timer sweep)
unless DATABASE_URL / REDIS_URL say otherwise; production sets both plus SECRET_KEY."""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret-change-me-in-production")
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
# Behind the compose proxy (nginx), trust its X-Forwarded-Proto for https detection.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

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
    "grailsite.accounts",
    "games",
    "decks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "grailsite.urls"
ASGI_APPLICATION = "grailsite.asgi.application"
WSGI_APPLICATION = "grailsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.notifications",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")))}
# Parallel test runs on one server (several developers, CI) each name their own test database.
# The embedded default (SQLite) takes concurrent writers: a request, a chat line and the timer
# thread. WAL lets readers run beside the one writer; every transaction takes the write lock
# when it begins (IMMEDIATE), so two never deadlock upgrading from read to write, and a writer
# that finds the lock taken waits up to ``timeout`` seconds instead of failing "database is locked".
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"})
if os.environ.get("GRAILSITE_TEST_DB"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["GRAILSITE_TEST_DB"]}
# Under ASGI every request's synchronous code runs in a thread of its own, so persistent
# per-thread connections do not help; a psycopg pool does (see docs/performance.md).
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DB_POOL", False):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")), "max_size": int(os.environ.get("DB_POOL_MAX", "20"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# The channel prefix keeps parallel test runs sharing one Redis apart.
CHANNEL_PREFIX = os.environ.get("GRAILSITE_CHANNEL_PREFIX", os.environ.get("GRAILSITE_TEST_DB", "grailsite"))
if REDIS_URL:
    # Pub/sub: a group message is one PUBLISH however many sockets listen, membership never
    # expires, and nothing queues up for sockets that went away (docs/performance.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: Redis broker in production and tests; in the embedded default no broker is needed,
# because the in-process sweep thread (games.embedded_worker) fires every timer.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-deadlines": {"task": "games.tasks.deadlines_sweep", "schedule": 60.0},
    "send-notification-emails": {"task": "games.tasks.notification_emails_send", "schedule": 300.0},
}
# Parallel test runs on one Redis each use their own queue, so no run takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("GRAILSITE_CELERY_QUEUE", f"{CHANNEL_PREFIX}-tasks")
TIMERS_USE_CELERY = bool(REDIS_URL)
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
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = True
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
