"""Versioned schema upgrades: each step moves an existing database one version on without losing data."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import inspect, select, text
from sqlalchemy.engine import Connection, Engine

from store import models  # noqa: F401  (registers the tables on Base.metadata)
from store.db import Base
from store.models import (
    ORDER_INDEX,
    RUNNING_JOB_INDEX,
    AccountRequest,
    Article,
    DataVersion,
    DownloadCharge,
    ReleaseJob,
    SchemaVersion,
    ServerKey,
    SignupAllowance,
    Watchlist,
    WatchlistDigest,
)
from store.problems import internal
from store.server_keys import create_server_keys

STOPPED_BEFORE_UPGRADE = internal("The load stopped before the store was upgraded; nothing was switched. "
                                  "Upload the release again.").to_json()


def _v1_initial(conn: Connection) -> None:
    Base.metadata.create_all(conn)


def _v2_data_versions(conn: Connection) -> None:
    # A fresh database already has the table from step 1 (it creates every current table).
    DataVersion.__table__.create(conn, checkfirst=True)


def _v3_article_order_index(conn: Connection) -> None:
    next(i for i in Article.__table__.indexes if i.name == ORDER_INDEX).create(conn, checkfirst=True)


def _v4_account_requests(conn: Connection) -> None:
    AccountRequest.__table__.create(conn, checkfirst=True)


def _v5_release_jobs(conn: Connection) -> None:
    ReleaseJob.__table__.create(conn, checkfirst=True)


def _v6_server_keys(conn: Connection) -> None:
    ServerKey.__table__.create(conn, checkfirst=True)
    create_server_keys(conn)


def _v7_signup_allowances(conn: Connection) -> None:
    SignupAllowance.__table__.create(conn, checkfirst=True)


def _v8_release_complete(conn: Connection) -> None:
    # Releases stored before this step were written whole, in one transaction.
    if "complete" not in {c["name"] for c in inspect(conn).get_columns("releases")}:
        conn.execute(text("ALTER TABLE releases ADD COLUMN complete BOOLEAN NOT NULL DEFAULT TRUE"))


def _v9_release_details(conn: Connection) -> None:
    # Releases stored before this step have no tables of awards, parties and benchmarks (details 0)
    # and no tender names; loading them again gives them both.
    columns = {c["name"] for c in inspect(conn).get_columns("releases")}
    if "details" not in columns:
        conn.execute(text("ALTER TABLE releases ADD COLUMN details INTEGER NOT NULL DEFAULT 0"))
    if "tender_names" not in columns:
        conn.execute(text("ALTER TABLE releases ADD COLUMN tender_names BOOLEAN NOT NULL DEFAULT FALSE"))


def _v10_retention_and_one_upload(conn: Connection) -> None:
    # Pruned releases (store/retention.py) keep their row and lose their tables.
    if "pruned_at" not in {c["name"] for c in inspect(conn).get_columns("releases")}:
        conn.execute(text("ALTER TABLE releases ADD COLUMN pruned_at TIMESTAMP"))
    # At most one running upload. Uploads are refused while one runs from now on; of those running
    # before, all but the newest are recorded as failed (an upgrade runs with the server stopped, so
    # they were loads left by processes that ended).
    newest = conn.execute(select(ReleaseJob.id).where(ReleaseJob.status == "running")
                          .order_by(ReleaseJob.created_at.desc()).limit(1)).scalar()
    conn.execute(ReleaseJob.__table__.update().where(ReleaseJob.status == "running", ReleaseJob.id != newest)
                 .values(status="failed", stage="done", problem=STOPPED_BEFORE_UPGRADE))
    next(i for i in ReleaseJob.__table__.indexes if i.name == RUNNING_JOB_INDEX).create(conn, checkfirst=True)


def _download_charges(conn: Connection) -> None:
    # When each key last paid for each release file: its resumed downloads are free for a day.
    DownloadCharge.__table__.create(conn, checkfirst=True)


def _watchlists(conn: Connection) -> None:
    # Saved filters of keys and the digests sent for them, one per watchlist and release.
    Watchlist.__table__.create(conn, checkfirst=True)
    WatchlistDigest.__table__.create(conn, checkfirst=True)


def _release_tenders(conn: Connection) -> None:
    # Releases stored before this step have no table of their tenders: loading them again gives one.
    if "tenders" not in {c["name"] for c in inspect(conn).get_columns("releases")}:
        conn.execute(text("ALTER TABLE releases ADD COLUMN tenders BOOLEAN NOT NULL DEFAULT FALSE"))


# Append a step for every change of the schema; never edit a step that has shipped.
STEPS: list[Callable[[Connection], None]] = [_v1_initial, _v2_data_versions, _v3_article_order_index,
                                             _v4_account_requests, _v5_release_jobs,
                                             _v6_server_keys, _v7_signup_allowances, _v8_release_complete,
                                             _v9_release_details, _v10_retention_and_one_upload,
                                             _download_charges, _watchlists,
                                             _release_tenders]
CURRENT_VERSION = len(STEPS)


def current_version(engine: Engine) -> int:
    """The schema version of the database, 0 when it is empty."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(SchemaVersion.__tablename__):
            return 0
        return conn.execute(select(SchemaVersion.version)).scalar() or 0


def upgrade(engine: Engine) -> tuple[int, int]:
    """Apply every missing step in one transaction; return (version before, version after)."""
    before = current_version(engine)
    with engine.begin() as conn:
        for step in STEPS[before:]:
            step(conn)
        if before == 0:
            conn.execute(SchemaVersion.__table__.insert().values(id=1, version=CURRENT_VERSION))
        elif before < CURRENT_VERSION:
            conn.execute(SchemaVersion.__table__.update().values(version=CURRENT_VERSION))
    return before, CURRENT_VERSION
