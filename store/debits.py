"""A paid answer's debit: the one statement it makes when the key and the answer are known in the
worker's memory (api/keycache.py, api/answers.py). The rule itself, one conditional UPDATE that never
takes more credits than a key holds, is `store/keys.py` `DEBIT`; here is only how it reaches the store."""

from __future__ import annotations

import functools
import os
import threading
from typing import Any

from sqlalchemy.engine import Dialect, Engine

from store.checkpoints import Checkpointer
from store.db import create_store_engine
from store.errors import InsufficientCreditsError, classify_database_error
from store.keys import DEBIT


class Debits:
    """The debits of one engine's store, each its own committed transaction.

    On PostgreSQL a pooled connection in autocommit: one round trip, during which the worker's other
    requests go on. On SQLite one connection of this process, kept open and used by one request at a
    time: SQLite lets one connection write at a time anyway, and its calls hold the worker until they
    return, so a pool's checkout and its reset on checkin (a large part of the debit's own cost) would buy
    nothing. That connection leaves the log's checkpoints to a thread of their own (store/checkpoints.py)."""

    def __init__(self, engine: Engine, *, owns_engine: bool = False):
        self._engine = engine
        self._owns_engine = owns_engine
        self._sql, names = _debit_sql(engine.dialect)
        # Where each positional parameter comes from: (key_id, cost)[i]; None where taken by name.
        self._order = tuple(("key_id", "cost").index(name) for name in names) if names else None
        self._own = engine.dialect.name == "sqlite"
        self._lock = threading.Lock()
        self._connection: Any = None  # the detached pool connection (SQLite), with the pid that opened it
        self._pid = 0
        database = engine.url.database if self._own else None
        self.checkpointer = Checkpointer(database) if database and database != ":memory:" else None

    def take(self, key_id: int, cost: int) -> int:
        """Debit `cost` credits of key `key_id`; the credits left. InsufficientCreditsError when the key
        holds fewer (nothing is taken), a StoreError when the store fails."""
        values = (key_id, cost)
        parameters = [values[i] for i in self._order] if self._order is not None else {"key_id": key_id, "cost": cost}
        row = self._on_own_connection(parameters) if self._own else self._pooled(parameters)
        if row is None:
            raise InsufficientCreditsError(f"key {key_id} holds fewer than {cost} credits")
        return int(row[0])

    def _on_own_connection(self, parameters: Any) -> Any:
        error_type = self._engine.dialect.loaded_dbapi.Error
        with self._lock:
            try:
                if self._connection is None or self._pid != os.getpid():  # a forked worker opens its own
                    # Opened through the engine, so its pragmas (WAL, busy timeout, autocommit) apply.
                    connection = self._engine.raw_connection()
                    connection.detach()
                    self._connection, self._pid = connection, os.getpid()
                    if self.checkpointer is not None and self.checkpointer.start():
                        connection.dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")
                cursor = self._connection.dbapi_connection.execute(self._sql, parameters)
                try:
                    return cursor.fetchone()
                finally:
                    cursor.close()
            except error_type as error:
                # Opened again for the next debit, whatever failed: a locked or lost file, a full disk.
                self._close()
                raise classify_database_error(error) from error

    def close(self) -> None:
        """Close what this object opened (its connection, or its engine's pool)."""
        with self._lock:
            self._close()
        if self.checkpointer is not None:
            self.checkpointer.stop()
        if self._owns_engine:
            self._engine.dispose()

    def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except self._engine.dialect.loaded_dbapi.Error:
                pass

    def _pooled(self, parameters: Any) -> Any:
        engine = self._engine
        error_type = engine.dialect.loaded_dbapi.Error
        try:
            connection = engine.raw_connection()
        except error_type as error:  # the server refuses or is away
            raise classify_database_error(error) from error
        # On PostgreSQL in autocommit: the UPDATE is one round trip, with no BEGIN or COMMIT around it
        # (SQLite's connections commit each statement already, store/db.py).
        autocommit = engine.dialect.name == "postgresql"
        try:
            if autocommit:
                connection.dbapi_connection.autocommit = True
            cursor = connection.cursor()
            try:
                cursor.execute(self._sql, parameters)
                row = cursor.fetchone()
            finally:
                cursor.close()
            if autocommit:
                connection.dbapi_connection.autocommit = False
        except error_type as error:
            if engine.dialect.is_disconnect(error, connection.dbapi_connection, None):
                # The server went away (a restart): this connection and every other the pool holds are
                # dead; start the pool afresh, as SQLAlchemy does when a statement of its own finds one.
                connection.invalidate(error)
                engine.dispose(close=False)
            raise classify_database_error(error) from error
        finally:
            connection.close()  # back to the pool
        return row


def open_debits(url: str, engine: Engine, *, statement_timeout_ms: int | None, pool_size: int) -> Debits:
    """The debits of the store at `url`, whose other work goes through `engine`.

    On PostgreSQL they have a pool of their own, of `pool_size` connections and no overflow. Each
    debit waits for its commit to reach the disk, so under load more debits are in flight at once
    than a shared pool keeps: every one past it opened a connection (a new server process) and
    closed it again on its way back, and that churn cost more than the answers. Waiting for one of
    the pool's connections instead costs nothing while other requests go on, and a debit never
    holds a second connection, so the wait always ends. On SQLite the engine's own file is used."""
    if engine.dialect.name == "sqlite":
        return Debits(engine)
    own = create_store_engine(url, statement_timeout_ms=statement_timeout_ms, pool_size=pool_size, max_overflow=0)
    return Debits(own, owns_engine=True)


@functools.lru_cache(maxsize=16)
def _debit_sql(dialect: Dialect) -> tuple[str, tuple[str, ...] | None]:
    """The debit compiled once for the dialect: its SQL and the order of its positional parameters
    (None where the driver takes them by name)."""
    compiled = DEBIT.compile(dialect=dialect)
    return compiled.string, tuple(compiled.positiontup) if compiled.positiontup else None
