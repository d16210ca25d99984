"""API keys: create, look up by hash, revoke, top up, and the atomic credit debit."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from store.errors import NotFoundError
from store.models import ApiKey, AuditEntry, DataVersion, Release, api_names
from store.news import NEWS
from store.times import as_utc

KEY_PREFIX = "gk_"
KEY_RANDOM_BYTES = 32
# A key's rate: 1 to a billion requests per window of 1 second to 1 day. Longer horizons are what
# credits are for; a window of years would send Retry-After values no client can use.
MAX_RATE_AMOUNT = 10**9
MAX_RATE_WINDOW_SECONDS = 86_400


def check_rate(text: str) -> str:
    """`text` if it is one rate such as 60/minute within the bounds above; ValueError otherwise."""
    from limits import parse

    try:
        item = parse(text)
    except ValueError:
        raise ValueError("must be a rate such as 60/minute") from None
    if not 1 <= item.amount <= MAX_RATE_AMOUNT or not 1 <= item.get_expiry() <= MAX_RATE_WINDOW_SECONDS:
        raise ValueError(f"must allow 1 to {MAX_RATE_AMOUNT} requests per window of 1 second to 1 day")
    return text


def hash_key(key: str) -> str:
    """Digest under which a key is stored; keys carry 256 random bits, so no salt is needed."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(KEY_RANDOM_BYTES)


def create_key(
    session: Session,
    *,
    apis: list[str],
    credits: int,
    rate: str,
    now: datetime,
    expires_at: datetime | None = None,
    is_admin: bool = False,
    label: str = "",
) -> tuple[ApiKey, str]:
    """Store a new key and return it with the clear key, which is never stored."""
    key = new_key()
    row = ApiKey(
        key_hash=hash_key(key),
        prefix=key[:10],
        label=label,
        apis=",".join(sorted(set(apis))),
        credits=credits,
        rate=rate,
        is_admin=is_admin,
        created_at=now,
        expires_at=expires_at,
    )
    session.add(row)
    session.flush()
    return row, key


def find_key(session: Session, key: str) -> ApiKey | None:
    """The key row for a clear key, or None; expiry and revocation are the caller's to judge."""
    return session.scalars(select(ApiKey).where(ApiKey.key_hash == hash_key(key))).first()


@dataclass(frozen=True)
class KeyState:
    """What the guarded path needs of a key row: its scopes, rate, credits, expiry and revocation."""

    id: int
    apis: str
    rate: str
    credits: int
    is_admin: bool
    expires_at: datetime | None
    revoked: bool


@dataclass(frozen=True)
class Versions:
    """The versions of the data a request may read: the active release and the news."""

    release_id: int | None
    news_version: int


@dataclass(frozen=True)
class Caller(KeyState):
    """The calling key as one request sees it, with the versions of the data it may read."""

    release_id: int | None
    news_version: int

    @classmethod
    def of(cls, key: KeyState, versions: Versions) -> Caller:
        return cls(key.id, key.apis, key.rate, key.credits, key.is_admin, key.expires_at, key.revoked,
                   versions.release_id, versions.news_version)

    @property
    def api_list(self) -> list[str]:
        return api_names(self.apis)


_ACTIVE_RELEASE = select(Release.id).where(Release.is_active.is_(True)).limit(1).scalar_subquery()
_NEWS_VERSION = select(DataVersion.version).where(DataVersion.name == NEWS).scalar_subquery()
# Built once: a statement constructed per request costs more to build than to run on SQLite.
_CALLER = select(
    ApiKey.id, ApiKey.apis, ApiKey.rate, ApiKey.credits, ApiKey.is_admin, ApiKey.expires_at,
    ApiKey.revoked_at.is_not(None), _ACTIVE_RELEASE, _NEWS_VERSION,
).where(ApiKey.key_hash == bindparam("key_hash"))
_VERSIONS = select(_ACTIVE_RELEASE, _NEWS_VERSION)


def read_key(connection: Connection, key_hash: str) -> tuple[KeyState | None, Versions]:
    """The key stored under `key_hash` (None when unknown) and the data versions, in one statement."""
    row = connection.execute(_CALLER, {"key_hash": key_hash}).first()
    if row is None:
        return None, read_versions(connection)
    expires = as_utc(row[5]) if row[5] is not None else None
    key = KeyState(row[0], row[1], row[2], int(row[3]), bool(row[4]), expires, bool(row[6]))
    return key, Versions(row[7], int(row[8] or 0))


def read_versions(connection: Connection) -> Versions:
    """The active release and the news version, in one statement."""
    row = connection.execute(_VERSIONS).first()
    return Versions(row[0], int(row[1] or 0))


def get_key(session: Session, key_id: int) -> ApiKey:
    row = session.get(ApiKey, key_id)
    if row is None:
        raise NotFoundError(f"no key with id {key_id}")
    return row


def list_keys(session: Session) -> list[ApiKey]:
    return list(session.scalars(select(ApiKey).order_by(ApiKey.id)))


def revoke_key(session: Session, key_id: int, *, now: datetime) -> ApiKey:
    row = get_key(session, key_id)
    if row.revoked_at is None:
        row.revoked_at = now
    return row


def add_credits(session: Session, key_id: int, amount: int) -> ApiKey:
    get_key(session, key_id)
    session.execute(update(ApiKey).where(ApiKey.id == key_id).values(credits=ApiKey.credits + amount))
    session.flush()
    return get_key(session, key_id)


# The debit: one conditional UPDATE, so that concurrent calls never overspend; RETURNING gives the
# credits left after this debit, with no other request's debit between (store/debits.py runs it).
DEBIT = (
    update(ApiKey)
    .where(ApiKey.id == bindparam("key_id"), ApiKey.credits >= bindparam("cost"))
    .values(credits=ApiKey.credits - bindparam("cost"))
    .returning(ApiKey.credits)
    .execution_options(synchronize_session=False)
)


def get_credits(session: Session, key_id: int) -> int:
    """The credits a key holds now."""
    credits = session.scalar(select(ApiKey.credits).where(ApiKey.id == key_id))
    if credits is None:
        raise NotFoundError(f"no key with id {key_id}")
    return int(credits)


def record_audit(session: Session, *, actor: str, action: str, target: str, detail: str, now: datetime) -> None:
    session.add(AuditEntry(at=now, actor=actor, action=action, target=target, detail=detail))

