"""Settings: defaults overridden by GOSTERGE_* environment variables; the only reader of os.environ for the API."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from store.private import private_sqlite_file
from store.release_files import default_root

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("GOSTERGE_VAR_DIR", PROJECT_ROOT / "var"))

MAX_KEY_CACHE_MS = 900  # under one second, with room for the request itself
# name -> (default, parser); every setting the service reads, in one table (also in the README).
SETTINGS: dict[str, tuple[Any, type]] = {
    "DATABASE_URL": (f"sqlite:///{VAR_DIR / 'gosterge.db'}", str),
    "RATELIMIT_STORAGE_URI": ("memory://", str),
    "PROBLEM_BASE": ("https://gosterge.example/problems", str),
    "UPGRADE_URL": ("https://gosterge.example/pricing", str),
    "DEFAULT_RATE": ("60/minute", str),
    "STATEMENT_TIMEOUT_MS": (5000, int),
    "DB_POOL_SIZE": (5, int),
    "ANSWER_CACHE_BYTES": (64 * 1024 * 1024, int),
    # How long a worker trusts what it read of a key and of the data versions (api/keycache.py): a
    # revocation, a top-up or a new release reaches every worker within it. At most 900 (the
    # promise: a revoked key stops answering within one second); 0 reads them on every request.
    "KEY_CACHE_MS": (250, int),
    # Empty: absolute URLs are built from each request's scheme and host (api/transport/urls.py).
    "PUBLIC_BASE_URL": ("", str),
    # How many proxies in front may set X-Forwarded-*; 0 ignores those headers (a client could forge them).
    "TRUSTED_PROXIES": (0, int),
    # Comma-separated host names the service answers to (Flask's TRUSTED_HOSTS); empty: any.
    "TRUSTED_HOSTS": ("", str),
    "MAX_QUERY_STRING_BYTES": (4096, int),
    "MAX_UPLOAD_BYTES": (200 * 1024 * 1024, int),
    # Every request body must arrive within this many seconds of its headers (408 past it; the
    # release upload: each read of up to 64 KiB within it, api/transport/bodydeadline.py).
    "BODY_SECONDS": (5, int),
    # The slowest release upload accepted: the whole must arrive within BODY_SECONDS + size / this.
    "UPLOAD_MIN_BYTES_PER_SECOND": (64 * 1024, int),
    "UPLOAD_DIR": (str(VAR_DIR / "uploads"), str),
    # Each release's download files, built by its load (the loaders read the same variable).
    "RELEASE_FILES_DIR": (str(default_root(VAR_DIR)), str),
    "CURSOR_SECRET": ("", str),
    "DECISION_RATE_PER_ADDRESS": ("60/hour", str),
    "LOG_LEVEL": ("INFO", str),
    "SMTP_URL": ("", str),
    "MAIL_FROM": ("Gösterge <no-reply@gosterge.example>", str),
    "SIGNUP_REQUEST_HOURS": (24, int),
    "SIGNUP_KEY_HOURS": (24, int),
    "SIGNUP_CREDITS": (100, int),
    "SIGNUP_KEY_RATE": ("60/minute", str),
    "SIGNUP_RATE_PER_ADDRESS": ("10/hour", str),
    "SIGNUP_RATE_PER_KEY": ("300/hour", str),
    "SIGNUP_PER_EMAIL_PER_DAY": (3, int),
    # Watchlist digests: mails per address a day (apart from the sign-up's), how often each API process
    # looks for digests to send (0: never; `gosterge digests send` then does it), and the dashboard's
    # public address for their link to its awards view (empty: no link).
    "DIGESTS_PER_ADDRESS_PER_DAY": (20, int),
    "DIGEST_SENDER_SECONDS": (30, int),
    # The API's sender waits this long after each digest, leaving the process and the store to requests.
    "DIGEST_PAUSE_MS": (5, int),
    "DASHBOARD_URL": ("", str),
    # Comma-separated ids of the keys (the dashboard's) that may name visitors with X-Gosterge-Visitor.
    "SIGNUP_VISITOR_KEYS": ("", str),
}


def _parse(name: str, value: str, kind: type) -> Any:
    if kind is not int:
        return value
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"GOSTERGE_{name} must be a whole number, not {value!r}") from None


def load_config(overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Defaults, then GOSTERGE_<NAME> from the environment, then explicit overrides (tests)."""
    env = os.environ if environ is None else environ
    config: dict[str, Any] = {}
    for name, (default, kind) in SETTINGS.items():
        raw = env.get(f"GOSTERGE_{name}")
        config[name] = _parse(name, raw, kind) if raw not in (None, "") else default
    config.update(overrides or {})
    if not 0 <= config["KEY_CACHE_MS"] <= MAX_KEY_CACHE_MS:
        raise ValueError(f"GOSTERGE_KEY_CACHE_MS must be 0 to {MAX_KEY_CACHE_MS}, not {config['KEY_CACHE_MS']}: "
                         "a revoked key must stop answering within one second on every worker")
    if config["TRUSTED_PROXIES"] < 0:
        raise ValueError(f"GOSTERGE_TRUSTED_PROXIES must be 0 or more, not {config['TRUSTED_PROXIES']}")
    visitor_keys = [part.strip() for part in str(config["SIGNUP_VISITOR_KEYS"]).split(",") if part.strip()]
    if not all(part.isdigit() for part in visitor_keys):
        raise ValueError("GOSTERGE_SIGNUP_VISITOR_KEYS must be key ids separated by commas (gosterge keys list), "
                         f"not {config['SIGNUP_VISITOR_KEYS']!r}")
    for name in ("BODY_SECONDS", "UPLOAD_MIN_BYTES_PER_SECOND"):
        if config[name] < 1:  # no deadline at all would let a stalled body hold its connection for ever
            raise ValueError(f"GOSTERGE_{name} must be 1 or more, not {config[name]}")
    return config


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file so that a fresh checkout runs without set-up, private to
    the service's user, and the file itself 0600 (store/private.py)."""
    if url.startswith("sqlite:///") and ":memory:" not in url:
        private_sqlite_file(Path(url.removeprefix("sqlite:///").split("?", 1)[0]))
