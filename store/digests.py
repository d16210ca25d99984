"""Digests of watchlists: one row per watchlist and release (unique), planned once a release is
served, claimed by a sender with a conditional UPDATE (so several workers or hosts never send one
twice), and finished as sent, empty, capped, skipped or failed with its attempts and last error."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, and_, exists, literal, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from store.models import ApiKey, Release, Watchlist, WatchlistDigest
from store.server_keys import get_or_create_server_key
from store.watchlists import LINK_KEY, previous_release

MAX_ATTEMPTS = 5
# A claim lasts this long: a sender that died mid-send leaves its digest to another after it.
LEASE = timedelta(minutes=5)


def plan_digests(session: Session, release_id: int, *, now: datetime) -> int:
    """One pending digest of `release_id` for every watchlist that should get one: its address
    confirmed and not unsubscribed, its key not revoked, and created while an earlier release was
    served. Idempotent (unique per watchlist and release); how many were added."""
    release = session.get(Release, release_id)
    if release is None:
        return 0
    # The key the unsubscribe links are derived from exists before a digest is built (which only reads).
    get_or_create_server_key(session, LINK_KEY)
    before = previous_release(session, release)
    w = Watchlist
    eligible = (select(w.seq, literal(release_id), literal(before.id if before else None), literal("pending"),
                       literal(0), literal(now), literal(""), literal(0))
                .join(ApiKey, ApiKey.id == w.key_id)
                .where(w.notify.is_not(None), w.confirmed.is_(True), w.unsubscribed.is_(False),
                       w.baseline_release_id < release_id, ApiKey.revoked_at.is_(None),
                       ~exists().where(and_(WatchlistDigest.watchlist_seq == w.seq,
                                            WatchlistDigest.release_id == release_id))))
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    columns = ["watchlist_seq", "release_id", "since_release_id", "status", "attempts", "next_attempt_at",
               "last_error", "matches"]
    done = session.execute(insert(WatchlistDigest).from_select(columns, eligible)
                           .on_conflict_do_nothing(index_elements=["watchlist_seq", "release_id"]))
    return max(cast(CursorResult[Any], done).rowcount, 0)


def _due(now: datetime) -> Any:
    d = WatchlistDigest
    return or_(and_(d.status == "pending", d.next_attempt_at <= now),
               and_(d.status == "sending", d.claimed_until < now))


def due_release_ids(session: Session, *, now: datetime) -> list[int]:
    """The releases that have digests waiting, oldest first."""
    return list(session.scalars(select(WatchlistDigest.release_id).where(_due(now)).distinct()
                                .order_by(WatchlistDigest.release_id)))


@dataclass(frozen=True)
class Claimed:
    id: int
    watchlist_seq: int
    release_id: int
    since_release_id: int | None
    attempts: int


def claim_digests(session: Session, release_id: int, *, now: datetime, limit: int) -> list[Claimed]:
    """Claim up to `limit` due digests of one release, each with a conditional UPDATE: of several
    senders at once exactly one gets each digest (PostgreSQL re-checks the condition on the locked
    row; SQLite runs one writer at a time)."""
    d = WatchlistDigest
    ids = list(session.scalars(select(d.id).where(d.release_id == release_id, _due(now)).order_by(d.id).limit(limit)))
    claimed = []
    for digest_id in ids:
        taken = session.execute(update(d).where(d.id == digest_id, _due(now))
                                .values(status="sending", claimed_until=now + LEASE, attempts=d.attempts + 1)
                                .execution_options(synchronize_session=False))
        if cast(CursorResult[Any], taken).rowcount == 1:
            row = session.execute(select(d.watchlist_seq, d.release_id, d.since_release_id, d.attempts)
                                  .where(d.id == digest_id)).one()
            claimed.append(Claimed(digest_id, *row))
    return claimed


def finish_digest(session: Session, digest_id: int, status: str, *, now: datetime, matches: int = 0,
                  error: str = "") -> None:
    """Record how a claimed digest ended: sent, empty, capped or skipped."""
    session.execute(update(WatchlistDigest).where(WatchlistDigest.id == digest_id)
                    .values(status=status, matches=matches, last_error=error[:1000], claimed_until=None,
                            sent_at=now if status == "sent" else None)
                    .execution_options(synchronize_session=False))


def retry_digest(session: Session, digest: Claimed, error: str, *, now: datetime) -> str:
    """A send that failed: pending again after a backoff (1, 2, 4, 8 minutes), or `failed` once
    MAX_ATTEMPTS were used; the status it was left in."""
    status = "failed" if digest.attempts >= MAX_ATTEMPTS else "pending"
    session.execute(update(WatchlistDigest).where(WatchlistDigest.id == digest.id)
                    .values(status=status, last_error=error[:1000], claimed_until=None,
                            next_attempt_at=now + timedelta(minutes=2 ** (digest.attempts - 1)))
                    .execution_options(synchronize_session=False))
    return status
