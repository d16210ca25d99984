"""Engine and session set-up: SQLite (WAL, foreign keys, a statement time limit) or PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import ColumnElement, MetaData, create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import QueuePool

from store.errors import StoreUnavailableError, classify_database_error
from store.release_db import attach_current, releases_folder

# One naming convention so that constraint names are the same on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

SQLITE_BUSY_TIMEOUT_MS = 10_000
# Execution option of a session that writes after it reads (a request that changes something). On
# SQLite its transactions begin IMMEDIATE, taking the write lock first: a deferred transaction that
# has read cannot write once another connection has committed (SQLITE_BUSY_SNAPSHOT, which no busy
# timeout waits out), as an upload's loading process recording its stage does at any moment.
# PostgreSQL's read-committed transactions have no such limit and ignore it.
WRITES = "gosterge_writes"
# How many SQLite virtual-machine steps pass between two checks of the deadline.
SQLITE_PROGRESS_STEPS = 20_000


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class StorePool(QueuePool):
    """The connection pool, whose wait for a free connection ends in the store's own error (`_do_get`
    is QueuePool's internal step: tests/test_library_canaries.py fails when SQLAlchemy drops it)."""

    def _do_get(self):  # noqa: ANN202  (QueuePool's own hook)
        try:
            return super()._do_get()
        except PoolTimeoutError as error:
            raise StoreUnavailableError("no database connection free in time") from error


def _wrap_driver_errors(engine: Engine) -> Engine:
    """Every failure of the database driver leaves the store as one of its own errors
    (store/errors.py), so that no caller handles SQLAlchemy's exceptions."""

    @event.listens_for(engine, "handle_error")
    def _store_error(context):  # noqa: ANN001, ANN202
        error = classify_database_error(context.sqlalchemy_exception or context.original_exception)
        # A connection that died in the pool (the server restarted): SQLAlchemy drops it and every
        # connection opened before it, so a read may be tried again at once on a new one.
        error.connection_lost = bool(context.is_disconnect and context.connection is not None)
        return error

    return engine


def create_store_engine(url: str, *, statement_timeout_ms: int | None = None, pool_size: int = 5,
                        max_overflow: int | None = None) -> Engine:
    """Create an engine for `url` with the pragmas and limits the service relies on. On PostgreSQL
    `pool_size` connections are kept, and up to `max_overflow` (twice as many unless given) more are
    opened while they are all in use and closed again when given back."""
    if url.startswith("sqlite"):
        # URI file names, so that a release's file is attached read-only (a plain path stays one).
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000,
                                                  "uri": True})
        _configure_sqlite(engine, statement_timeout_ms)
        _attach_release_files(engine)
        return _wrap_driver_errors(engine)
    parsed = make_url(url)
    connect_args: dict = {"connect_timeout": 3}
    options = [str(parsed.query["options"])] if "options" in parsed.query else []
    if statement_timeout_ms:
        options.append(f"-c statement_timeout={int(statement_timeout_ms)}")
    if options:
        connect_args["options"] = " ".join(options)
    return _wrap_driver_errors(create_engine(
        parsed.difference_update_query(["options"]),
        connect_args=connect_args,
        poolclass=StorePool,
        # No ping before every checkout (a round trip per request): a connection that died in the pool
        # (PostgreSQL restarted) fails on first use, SQLAlchemy then drops every connection of the pool
        # opened before that moment, and reads are tried again once (api/keycache.py).
        pool_size=pool_size,
        max_overflow=pool_size * 2 if max_overflow is None else max_overflow,
        pool_timeout=5,
    ))


def _configure_sqlite(engine: Engine, statement_timeout_ms: int | None) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, record):  # noqa: ANN001
        # pysqlite opens transactions lazily on its own; let SQLAlchemy's BEGIN decide instead.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        # Takes effect only on a file that has no table yet: a new store can hand the pages of a
        # pruned release back to the file system a few at a time (store/retention.py).
        cursor.execute("PRAGMA auto_vacuum=INCREMENTAL")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()
        state = {"deadline": None}
        record.info["deadline"] = state
        if statement_timeout_ms:
            # SQLite has no statement_timeout; a progress handler that returns non-zero
            # aborts the running statement with "interrupted".
            def _check() -> int:
                deadline = state["deadline"]
                return 1 if deadline is not None and time.monotonic() > deadline else 0

            dbapi_conn.set_progress_handler(_check, SQLITE_PROGRESS_STEPS)

    @event.listens_for(engine, "begin")
    def _on_begin(conn):  # noqa: ANN001
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITES) else "BEGIN")

    if statement_timeout_ms:
        @event.listens_for(engine, "before_cursor_execute")
        def _arm(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
            conn.info["deadline"]["deadline"] = time.monotonic() + statement_timeout_ms / 1000

        @event.listens_for(engine, "after_cursor_execute")
        def _disarm(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
            conn.info["deadline"]["deadline"] = None


def _attach_release_files(engine: Engine) -> None:
    """Every connection taken from the pool for a Connection or a Session (not a debit's raw one,
    store/debits.py, which writes the main file only) has the complete releases' files attached
    (store/release_db.py): checked before its transaction begins, since ATTACH cannot run inside one."""
    folder = releases_folder(engine)
    if folder is None:
        return

    @event.listens_for(engine, "engine_connect")
    def _attach(conn):  # noqa: ANN001, ANN202
        attach_current(conn.connection.dbapi_connection, conn.info, folder)


class unindexed(ColumnElement):  # noqa: N801  (reads like the SQL function it stands for)
    """A column that SQLite may not use an index for (`+column`); other databases see the column itself."""

    inherit_cache = True

    def __init__(self, column: Any):
        self.column = column
        self.type = column.type


@compiles(unindexed)
def _unindexed(element: unindexed, compiler: Any, **kw: Any) -> str:
    return compiler.process(element.column, **kw)


@compiles(unindexed, "sqlite")
def _unindexed_sqlite(element: unindexed, compiler: Any, **kw: Any) -> str:
    return "+" + compiler.process(element.column, **kw)


@contextmanager
def single_statements(engine: Engine) -> Iterator[Connection]:
    """A pooled connection, without an ORM session, for statements that each stand alone (a read of a
    key, one conditional UPDATE). On PostgreSQL each is its own transaction (autocommit): one round
    trip, with no BEGIN before it and no COMMIT after it. On SQLite they share a transaction that
    commits when the block ends, which costs nothing over a network."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        yield connection
        connection.commit()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def session_scope(factory: Callable[[], Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on error (driver failures are store errors already)."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
