"""`gosterge db`: the store's schema."""

from __future__ import annotations

import argparse

from cli.common import open_store, say


def cmd_upgrade(args: argparse.Namespace) -> int:
    from store.schema import upgrade

    engine, _ = open_store()
    before, after = upgrade(engine)
    say(f"schema at version {after}" + (f" (was {before})" if before != after else " (already current)"))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    db = sub.add_parser("db", help="database schema").add_subparsers(dest="action", required=True)
    db.add_parser("upgrade", help="create or migrate the schema").set_defaults(func=cmd_upgrade)
