"""The request's database session, opened on first use and closed when the request ends."""

from __future__ import annotations

from flask import current_app, g
from sqlalchemy.orm import Session


def db_session() -> Session:
    if "db_session" not in g:
        g.db_session = current_app.extensions["gosterge.sessions"]()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
