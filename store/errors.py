"""Errors the store raises; callers never see SQLAlchemy's own exceptions for these cases."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises."""


class NotFoundError(StoreError):
    """The row asked for does not exist."""


class DetailsMissingError(NotFoundError):
    """The release was loaded before its awards, parties and benchmarks were kept: load it again."""


class InsufficientCreditsError(StoreError):
    """The key does not hold enough credits for the call."""


class StoreUnavailableError(StoreError):
    """The database cannot be reached."""


class StoreAuthError(StoreError):
    """The database refused the service's own credential."""


class StoreTimeoutError(StoreError):
    """A statement ran past the configured time limit."""


class StoreConflictError(StoreError):
    """A write broke a unique rule of the schema (a second running upload, say); callers that expect
    it say what it means, any other answers as the database failing."""


class ReleasePrunedError(StoreError):
    """The release was pruned: its tables are gone, so it cannot be served again."""


def classify_database_error(exc: BaseException) -> StoreError:
    """Map a driver-level failure to the store error that names its cause.

    PostgreSQL reports a cancelled statement with SQLSTATE 57014 and a refused login with
    class 28; SQLite reports our own progress-handler abort as "interrupted".
    """
    orig = getattr(exc, "orig", exc)
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None) or ""
    text = str(orig).lower()
    if sqlstate == "57014" or "statement timeout" in text or "interrupted" in text:
        return StoreTimeoutError(str(orig))
    if sqlstate.startswith("28") or "password authentication failed" in text or (
        "role" in text and "does not exist" in text
    ):
        return StoreAuthError(str(orig))
    if sqlstate == "23505" or "unique constraint failed" in text:
        return StoreConflictError(str(orig))
    return StoreUnavailableError(str(orig))
