"""Times as the service writes them: UTC, whole seconds, RFC 3339 with a `Z`."""

from __future__ import annotations

from datetime import UTC, datetime

RFC3339_UTC = "%Y-%m-%dT%H:%M:%SZ"


def as_utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored as UTC); PostgreSQL aware ones in its own zone."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def format_utc(value: datetime) -> str:
    return as_utc(value).strftime(RFC3339_UTC)
