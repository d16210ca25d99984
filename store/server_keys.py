"""Secrets the service makes for itself: generated once, kept in the store, read by every worker."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from store.models import ServerKey

KEY_BYTES = 32
CURSOR_KEY = "cursor"  # signs paging cursors (api/transport/paging.py)


def _new_key(dialect: str, name: str):  # noqa: ANN202  (a dialect's INSERT … ON CONFLICT DO NOTHING)
    insert_ = postgresql_insert if dialect == "postgresql" else sqlite_insert
    return (insert_(ServerKey).values(name=name, value=secrets.token_hex(KEY_BYTES))
            .on_conflict_do_nothing(index_elements=["name"]))


def create_server_keys(conn: Connection) -> None:
    """Generate every key the service needs, keeping any that exists: run by the schema step that
    creates the table (an upgrade may run it over a table made by the first step)."""
    conn.execute(_new_key(conn.dialect.name, CURSOR_KEY))


def get_server_key(session: Session, name: str) -> bytes | None:
    value = session.scalar(select(ServerKey.value).where(ServerKey.name == name))
    return bytes.fromhex(value) if value else None


def get_or_create_server_key(session: Session, name: str) -> bytes:
    """The key called `name`, stored now if it is missing. Workers doing this together may race: the
    insert that loses is ignored, and every worker reads the one that won."""
    session.execute(_new_key(session.get_bind().dialect.name, name))
    return get_server_key(session, name) or b""
