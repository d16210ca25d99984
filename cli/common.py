"""What every command group shares: the store's sessions, messages to standard error, argument types."""

from __future__ import annotations

import argparse
import re
import sys
from datetime import timedelta

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from api.config import ensure_sqlite_dir, load_config
from store.db import create_store_engine, make_session_factory
from store.reference.apis import APIS


def say(*parts: object) -> None:
    """Everything but a command's one result goes to standard error."""
    print(*parts, file=sys.stderr)


def open_store(*, upgrade_schema: bool = False) -> tuple[Engine, sessionmaker[Session]]:
    """The configured store's engine and sessions; with `upgrade_schema`, the schema brought up to date first."""
    config = load_config()
    ensure_sqlite_dir(config["DATABASE_URL"])
    engine = create_store_engine(config["DATABASE_URL"])
    if upgrade_schema:
        from store.schema import upgrade

        upgrade(engine)
    return engine, make_session_factory(engine)


def duration(text: str) -> timedelta:
    match = re.fullmatch(r"(\d+)([smhd])", text)
    if not match:
        raise argparse.ArgumentTypeError("use a number with s, m, h or d, e.g. 30d")
    unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[match.group(2)]
    return timedelta(**{unit: int(match.group(1))})


def api_list(text: str) -> list[str]:
    names = [a.strip() for a in text.split(",") if a.strip()]
    unknown = [a for a in names if a not in APIS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"APIs are a comma-separated subset of {', '.join(APIS)}")
    return names
