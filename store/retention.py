"""Retention of procurement releases: which to prune, and pruning one a short transaction at a time.

A pruned release keeps its row (and its datasets), so that the history of what was served stays
listed, and loses everything it was served from: its own tables (store/details.py), or on SQLite
the file that holds them (store/release_db.py), and its items.
It is never served again. On SQLite the pages freed go to the file's free list, which the next load
fills before the file grows; a database created with incremental auto-vacuum (every one created
since schema step 10) also hands them back to the file system (`reclaim_step`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select, update
from sqlalchemy.orm import Session

from store.details import drop_next_detail_table
from store.models import Release, StatItem
from store.release_db import FILE_LAYOUT
from store.releases import bump_generation

DELETE_BATCH_ROWS = 5000
# Pages handed back per transaction (4 KiB each): a step moves at most this many pages, a few
# milliseconds of write lock, so debits go on between steps.
RECLAIM_PAGES = 2000


def releases_to_prune(session: Session, keep: int) -> list[int]:
    """The complete releases beyond the `keep` most recently loaded, never the active one, that are
    not pruned yet; oldest first."""
    complete = list(session.execute(select(Release.id, Release.is_active, Release.pruned_at)
                                    .where(Release.complete.is_(True)).order_by(Release.id.desc())))
    return sorted(r.id for r in complete[keep:] if not r.is_active and r.pruned_at is None)


def mark_pruned(session: Session, release_id: int, *, now: datetime) -> bool:
    """Take a release out of service for good; False when it is the active one (activated meanwhile)."""
    done = session.execute(update(Release).where(Release.id == release_id, Release.is_active.is_(False))
                           .values(pruned_at=now).execution_options(synchronize_session=False))
    if cast(CursorResult[Any], done).rowcount != 1:
        return False
    if session.scalar(select(Release.details).where(Release.id == release_id)) == FILE_LAYOUT:
        bump_generation(session)  # connections detach its file from their next checkout on
    return True


def prune_step(session: Session, release_id: int) -> bool:
    """Drop one of a pruned release's tables, else delete one batch of its items; True while there
    is more to remove."""
    if drop_next_detail_table(session, release_id):
        return True
    ids = select(StatItem.id).where(StatItem.release_id == release_id).limit(DELETE_BATCH_ROWS).scalar_subquery()
    return bool(cast(CursorResult[Any], session.execute(delete(StatItem).where(StatItem.id.in_(ids)))).rowcount)


def reclaim_step(session: Session) -> bool:
    """Hand up to RECLAIM_PAGES free pages of a SQLite file back to the file system; True while
    there are more. Nothing to do on PostgreSQL (a dropped table's files are removed at once) nor on
    a SQLite file created before incremental auto-vacuum, whose free pages the next load reuses."""
    connection = session.connection()
    if connection.dialect.name != "sqlite" or connection.exec_driver_sql("PRAGMA auto_vacuum").scalar() != 2:
        return False
    if not connection.exec_driver_sql("PRAGMA freelist_count").scalar():
        return False
    # Each step of the statement frees one page: the driver's cursor is read to its end to run them all.
    raw = connection.connection.dbapi_connection
    assert raw is not None  # a connection checked out of the pool holds its driver connection
    cursor = raw.cursor()
    try:
        cursor.execute(f"PRAGMA incremental_vacuum({RECLAIM_PAGES})").fetchall()
    finally:
        cursor.close()
    return bool(connection.exec_driver_sql("PRAGMA freelist_count").scalar())


def pruned_releases(session: Session) -> list[int]:
    """Every pruned release: a prune stopped halfway (a killed process) is finished by the next."""
    return list(session.scalars(select(Release.id).where(Release.pruned_at.is_not(None)).order_by(Release.id)))
