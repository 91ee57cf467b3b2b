"""Settings for the card database, read from the environment.

Embedded default: SQLite file under ``var/`` and no external service. ``DATABASE_URL`` switches to
PostgreSQL (psycopg 3); ``CELERY_BROKER_URL`` switches playtest jobs to real Celery workers.
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TCGDB_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Where the public card data lives (tests and benchmarks only; never copied into the repository).
SHARED_DIR = Path(os.environ.get("TCGDB_SHARED_DIR", BASE_DIR.parent / "shared"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
if not DEBUG and SECRET_KEY.startswith("dev-only"):
    raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI / Redoc served locally (works offline)
    "django_htmx",  # request.htmx; {% htmx_script %} serves the vendored htmx.min.js (deck builder)
    "imagekit",  # thumbnails of the card images curators upload (catalog.CardPrinting.image)
    "catalog",
    "decks",
    "accounts",
    "playtest",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",  # Content-Security-Policy with a nonce per request
    # Static files in production (DJANGO_DEBUG=0) from STATIC_ROOT after `manage.py collectstatic`,
    # compressed and cached, with no web server in front needed; runserver serves them in development.
    *([] if DEBUG else ["whitenoise.middleware.WhiteNoiseMiddleware"]),
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.RejectNulMiddleware",  # %00 in the address, a parameter or a form field: a 400
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
# An optional PostgreSQL connection pool (psycopg_pool) per server process (DATABASE_POOL_MAX); the
# production server's request threads keep their connections anyway (config/asgi.py).
_POOL_MAX = int(os.environ.get("DATABASE_POOL_MAX", "0"))
if _POOL_MAX and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": _POOL_MAX, "timeout": 10}
# PostgreSQL: server-side prepared statements for what asks for them (the cards API's kept searches,
# catalog.selectors.card_rows_from_statement): parsed and planned once per connection, not on every
# request. Django's own queries use client-side binding and are never prepared. Set
# DATABASE_PREPARED_STATEMENTS=0 behind a pooler that cannot keep them (pgbouncer in transaction mode
# before 1.21, or without max_prepared_statements).
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        5 if env_bool("DATABASE_PREPARED_STATEMENTS", True) else None)
# The embedded SQLite default: several writers (web requests, in-process playtest threads, Celery
# workers on one machine) share the file. They wait for each other (timeout, seconds) instead of
# failing, and a transaction takes the write lock when it begins (BEGIN IMMEDIATE): a transaction
# that reads, then writes (count the active jobs, then insert one) while another connection writes
# would otherwise fail at once with "database is locked", which SQLite answers without waiting
# because the two would deadlock.
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Password reset mails: printed on the console unless EMAIL_BACKEND names a real backend (smtp...).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tcgdb@localhost")
API_TOKEN_TTL = int(os.environ.get("API_TOKEN_TTL", str(30 * 24 * 3600)))  # seconds an API token is accepted
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("ja", "日本語")]
LANGUAGE_COOKIE_NAME = "tcgdb_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
LOCALE_PATHS = [BASE_DIR / "locale"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
# Uploaded files (card images): Django's default storage under MEDIA_ROOT; served by the site itself
# when SERVE_MEDIA is on (development and tests; in production a web server or other storage does).
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", VAR_DIR / "media"))
SERVE_MEDIA = os.environ.get("DJANGO_SERVE_MEDIA", "1" if DEBUG else "0") == "1"
# Thumbnails are made when an image is saved and then trusted to exist (no file check per page).
IMAGEKIT_DEFAULT_CACHEFILE_STRATEGY = "imagekit.cachefiles.strategies.Optimistic"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # gzip copies written by collectstatic; names unhashed so pages render before collectstatic.
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG
                    else "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "accounts.tokens.ExpiringTokenAuthentication",  # DRF's tokens, refused after API_TOKEN_TTL
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "DEFAULT_RENDERER_CLASSES": ["config.renderers.FastJSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "PAGE_SIZE": 50,
    # JSON too deep, NUL characters and unpaired surrogates are a 400 naming the field (config/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.StrictJSONParser", "config.parsers.StrictFormParser",
                               "rest_framework.parsers.MultiPartParser"],
    # One error object on every endpoint (config/errors.py, docs/api-errors.md).
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "TCG card database API",
    "DESCRIPTION": "Cards, decks and goldfish playtests for pc, phantasma, ws, chaos and lycee.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
# Errors every operation can answer (401/403/404/406/415/429, ...) documented in one place.
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"] = [
    "drf_spectacular.hooks.postprocess_schema_enums",
    "config.schema.add_error_responses",
]

# --- Rate limiting (DRF throttling) and the cache that counts it (docs/security.md) ---
# Throttle counters live in the default cache, so the cache must be shared by every process that
# serves requests: with REDIS_URL or CACHE_URL (redis://...) it is Redis. The embedded default is a
# single `runserver` process whose threads share one local-memory cache, which is exact there.
# Several gunicorn workers without Redis would each count separately (the limit times the number
# of workers): set CACHE_URL=redis://... or CACHE_URL=file:///path (one machine) for them.
_CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
if _CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _CACHE_URL,
                          "KEY_PREFIX": "tcgdb"}}
elif _CACHE_URL.startswith("file://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": _CACHE_URL.removeprefix("file://")}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tcgdb"}}
REST_FRAMEWORK.update({
    # Anonymous clients are counted per address, signed-in ones per user; above the rate a 429 with
    # Retry-After. Playtest job creation has its own, lower rate (playtest/throttles.py).
    # DRF's AnonRateThrottle and UserRateThrottle with a compact history (config/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonRateThrottle",
        "config.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "1200/minute"),
        "auth": os.environ.get("API_THROTTLE_AUTH", "10/minute"),  # POST /api/v1/auth/token/
    },
    # The client address is REMOTE_ADDR unless DJANGO_NUM_PROXIES trusted proxies set X-Forwarded-For
    # (None would let any client pick its own address by sending that header).
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0")),
})

# Celery. No broker configured -> embedded default: tasks run in-process (see playtest docs).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Playtest jobs (docs/playtest.md; defaults and the full list in playtest/conf.py).
# Executor: "celery" with a broker, else "thread" = an in-process background thread, so a single
# `./dev serve` runs jobs with live progress and nothing else to start.
PLAYTEST_EXECUTOR = os.environ.get("PLAYTEST_EXECUTOR") or (
    "celery" if not CELERY_BROKER_URL.startswith("memory://") else "thread"
)
PLAYTEST_CHUNK_SIZE = int(os.environ.get("PLAYTEST_CHUNK_SIZE", "1000"))
# Lost chunks (issue 19): a chunk runs at most PLAYTEST_CHUNK_TIME_LIMIT seconds (0.1 s a game, at
# least a minute); Redis hands an unacknowledged chunk to another worker after twice that; a job
# with no chunk started or finished for PLAYTEST_STALE_SECONDS gets its lost chunks queued again by
# the workers themselves (every PLAYTEST_RECOVER_INTERVAL seconds; playtest/runner.py).
PLAYTEST_CHUNK_TIME_LIMIT = int(os.environ.get("PLAYTEST_CHUNK_TIME_LIMIT", str(max(60, PLAYTEST_CHUNK_SIZE // 10))))
PLAYTEST_STALE_SECONDS = int(os.environ.get("PLAYTEST_STALE_SECONDS", str(PLAYTEST_CHUNK_TIME_LIMIT + 30)))
PLAYTEST_RECOVER_INTERVAL = int(os.environ.get("PLAYTEST_RECOVER_INTERVAL", "30"))
PLAYTEST_PLAYER_CHUNKS = int(os.environ.get("PLAYTEST_PLAYER_CHUNKS", "2"))  # fair queuing, per player
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * PLAYTEST_CHUNK_TIME_LIMIT}
# Workers queue chunks too (fair queuing, lost chunks): the queue they send to is the one they read.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
PLAYTEST_MAX_GAMES_USER = int(os.environ.get("PLAYTEST_MAX_GAMES_USER", "100000"))
PLAYTEST_MAX_GAMES_ANON = int(os.environ.get("PLAYTEST_MAX_GAMES_ANON", "10000"))
PLAYTEST_MAX_ACTIVE_USER = int(os.environ.get("PLAYTEST_MAX_ACTIVE_USER", "3"))
PLAYTEST_MAX_ACTIVE_ANON = int(os.environ.get("PLAYTEST_MAX_ACTIVE_ANON", "1"))

# Production hardening (DJANGO_DEBUG=0): HTTPS-only cookies, HSTS, no sniffing, no framing.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the page scripts read it to send X-CSRFToken
# The language cookie (no script reads it): never sent cross-site, Secure in production (issue 19).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
