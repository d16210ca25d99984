"""The request's database session, opened on first use and closed when the request ends."""

from __future__ import annotations

import logging

from sqlalchemy.orm import Session

from api.context import request_state, this_app, this_request
from store.db import WRITES
from store.errors import StoreError

log = logging.getLogger("gosterge.db")


def db_session() -> Session:
    state = request_state()
    if "db_session" not in state:
        # A request that may change something writes after reading: its transactions take the
        # write lock first on SQLite (store/db.py, WRITES).
        writes = this_request().method not in ("GET", "HEAD")
        state.db_session = this_app().extensions["gosterge.sessions"](execution_options={WRITES: writes})
    return state.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = request_state().pop("db_session", None)
    if session is None:
        return
    try:
        session.close()
    except StoreError as error:
        # The database went away after the answer was read: closing rolls back on a dead connection.
        # The answer stands; the connection is dropped from the pool instead of returned to it.
        log.warning("session closed on a dead connection: %s", error)
        try:
            session.invalidate()
        except StoreError:
            pass


def forget_failed_read() -> None:
    """End the transaction of a read that failed (the store went away), so that the next read of the
    same request may try again instead of failing on the broken transaction."""
    db_session().rollback()
