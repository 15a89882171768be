"""Scorekeeper settings, read from environment variables (see README for the list)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from scorekeeper.server.env import (
    env_bool,
    env_choice,
    env_database,
    env_int,
    env_list,
    env_networks,
    env_str,
    load_env_file,
)
from scorekeeper.server.release import release

BASE_DIR = Path(__file__).resolve().parent.parent

# A production box keeps its settings in one file (KEY=value lines, as systemd's
# EnvironmentFile reads them): ENV_FILE=/etc/scorekeeper.env. The environment wins over it.
load_env_file(os.environ.get("ENV_FILE", ""))

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "development-only-secret-key-not-for-production"
    elif os.environ.get("SCOREKEEPER_COMMAND_SIGNS_NOTHING") == "1":
        # Set by manage.py for the commands that sign nothing (score_deals, the exports):
        # a key of the moment, so that a shell on a production box needs no secret.
        SECRET_KEY = secrets.token_urlsafe(50)
    else:
        raise ImproperlyConfigured("SECRET_KEY: required when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "accounts",
    "scorekeeper",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
]
# The benchmark and the load test (tools/bench: manage.py benchmark, loadtest, rating_quality):
# a development app, installed with DEBUG or DEV_TOOLS=1; production's settings leave it out.
DEV_TOOLS = env_bool("DEV_TOOLS", DEBUG)
if DEV_TOOLS:
    INSTALLED_APPS.append("tools.bench")

MIDDLEWARE = [
    "scorekeeper.server.request_log.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "scorekeeper.server.security.PermissionsPolicyMiddleware",
    "scorekeeper.server.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "scorekeeper.server.parsing.RejectNulMiddleware",
    # HTML and htmx fragments compressed; Django adds random bytes to each gzip header, which
    # blurs the length BREACH reads (static files come compressed from whitenoise above).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.server.private_pages.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.server.security.DatabaseUnavailableMiddleware",
    # The app's worded refusals and the 405 as pages in the layout (server/error_pages.py).
    "scorekeeper.server.error_pages.ErrorPagesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

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
            ],
        },
    },
]

# Connections are kept between requests (CONN_MAX_AGE seconds, tested before reuse): opening
# one costs more than most requests. Each gunicorn worker keeps one; past a few machines, put
# pgbouncer in front of PostgreSQL (docs/operations.md, "Scale").
DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 600),
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
# Behind pgbouncer in transaction mode, server-side cursors cannot outlive a transaction.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool("DISABLE_SERVER_SIDE_CURSORS", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction starts, so that concurrent saves queue up.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS: list[dict[str, str]] = []

LANGUAGE_CODE = env_choice("LANGUAGE_CODE", "fr", {"fr", "en", "ru"})
LANGUAGES = [("fr", _("French")), ("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
try:
    import zoneinfo

    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE: {TIME_ZONE!r} is not a known time zone") from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Rendered score sheets, standings and season figures, keyed by the version of what they
# show. With REDIS_URL (redis://host:port/db) every worker on every machine shares them;
# without, each process keeps its own in memory (one machine, one worker is fine).
# Every key carries the release (docs/architecture.md, "The one caching rule"): RELEASE if
# the deployment names it, else a digest of the app's files. A new release reads no entry
# an older one wrote; those expire by themselves.
RELEASE = release(env_str("RELEASE", ""), BASE_DIR)
CACHE_KEY_PREFIX = f"{env_str('CACHE_KEY_PREFIX', 'scorekeeper')}.{RELEASE}"
REDIS_URL = env_str("REDIS_URL", "")
CACHE_MAX_ENTRIES = env_int("CACHE_MAX_ENTRIES", 2000, minimum=10)  # the in-memory cache's
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL: {REDIS_URL!r} is not a redis:// URL")
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.server.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "TIMEOUT": 86400,
        },
        # The sessions' copies (SESSION_ENGINE below), 5 minutes at most each.
        "sessions": {
            "BACKEND": "scorekeeper.server.redis_cache.SessionCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "TIMEOUT": 300,
        },
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {"MAX_ENTRIES": CACHE_MAX_ENTRIES},
        }
    }

# What one account may make the server compute in an hour (scorekeeper.services.costly):
# changes to evenings dated before its club's last one, each of which has the club's figures
# rated again from the first deal. 0: no limit (the load test's one member at every table).
OLD_EVENING_CHANGES_PER_HOUR = env_int("OLD_EVENING_CHANGES_PER_HOUR", 30)

# The live events (scorekeeper.asgi, the events process): how long a phone's stream lasts before
# its browser opens it again, and the streams one process holds at most (past them, and under
# WSGI, the pages poll). 0 streams: every page polls.
EVENT_STREAM_SECONDS = env_int("EVENT_STREAM_SECONDS", 1800, minimum=10)
EVENT_STREAMS_MAX = env_int("EVENT_STREAMS_MAX", 5000, minimum=0)

# E-mail: SMTP when EMAIL_HOST is set, otherwise printed to the console.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", bool(EMAIL_HOST))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: only one may be on")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Scorekeeper <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Sessions and cookies.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "scorekeeper.server.security.csrf_failure"
CSRF_COOKIE_HTTPONLY = True  # htmx sends the token from the page (hx-headers), not the cookie
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # two months: the phone at the table stays signed in
# With Redis, sessions are read from Redis and kept in the database too (Django's cached_db):
# a phone's poll every few seconds reads its session without a query. Without Redis each
# worker's cache is its own, where a sign-out in one would not reach the others: the
# database alone.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL
    else "django.contrib.sessions.backends.db"
)
SESSION_CACHE_ALIAS = "sessions" if REDIS_URL else "default"
BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", False)
# The proxies whose X-Forwarded-For names the client, for the sign-in limits per IP.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", [])
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_HTTPS_PROXY else None
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# HTTPS only, once the site is behind its HTTPS proxy (README, "Settings": "Security").
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", BEHIND_HTTPS_PROXY)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if BEHIND_HTTPS_PROXY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Being on the browsers' preload list is a decision of the domain's owner (who submits it);
# the header's flag alone does nothing, so its absence is not a deployment warning here.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# Content-Security-Policy (django-csp): every script, style, image and font from this site, no
# inline code or style attribute, no eval, no framing; data: images for inline SVG/QR pictures.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Permissions-Policy: the app uses none of these browser features.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

# Logs go to standard error: plain text, or one JSON object a line with LOG_FORMAT=json.
# LOG_REQUESTS: one line per request (method, path, status, milliseconds), on unless DEBUG.
LOG_FORMAT = env_choice("LOG_FORMAT", "text", {"text", "json"})
LOG_REQUESTS = env_bool("LOG_REQUESTS", not DEBUG)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "scorekeeper.server.request_log.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {
        "handlers": ["console"],
        "level": env_choice(
            "LOG_LEVEL", "WARNING", {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
        ),
    },
    "loggers": {
        "scorekeeper.requests": {
            "handlers": ["console"],
            "level": "INFO" if LOG_REQUESTS else "WARNING",
            "propagate": False,
        },
    },
}
