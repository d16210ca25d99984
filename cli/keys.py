"""`gosterge keys`: create, list, revoke and top up API keys (only their hashes are stored)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from api.config import load_config
from cli.common import api_list, duration, open_store, say
from store.db import session_scope


def create_key_now(sessions: sessionmaker[Session], *, apis: list[str], credits: int, rate: str,
                   expires_in: timedelta | None = None, admin: bool = False, label: str = "") -> tuple[int, str]:
    """A new key in the store: its id and the clear key, which is shown once and never stored."""
    from store.keys import create_key

    now = datetime.now(UTC)
    with session_scope(sessions) as session:
        row, key = create_key(session, apis=apis, credits=credits, rate=rate, now=now, is_admin=admin, label=label,
                              expires_at=now + expires_in if expires_in else None)
        return row.id, key


def rate_argument(text: str) -> str:
    from store.keys import check_rate

    try:
        return check_rate(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_create(args: argparse.Namespace) -> int:
    _, sessions = open_store(upgrade_schema=True)
    key_id, key = create_key_now(sessions, apis=args.apis, credits=args.credits,
                                 rate=args.rate or load_config()["DEFAULT_RATE"], expires_in=args.expires_in,
                                 admin=args.admin, label=args.label)
    say(f"created key {key_id}; it is shown once, store it now")
    print(key)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from store.keys import list_keys

    _, sessions = open_store()
    with session_scope(sessions) as session:
        for k in list_keys(session):
            state = "revoked" if k.revoked_at else "active"
            expires = k.expires_at.strftime("%Y-%m-%d %H:%M") if k.expires_at else "never"
            print(f"{k.id}\t{k.prefix}…\t{k.apis}\tcredits={k.credits}\trate={k.rate}\t"
                  f"admin={'yes' if k.is_admin else 'no'}\texpires={expires}\t{state}\t{k.label}")
    return 0


def cmd_revoke(args: argparse.Namespace) -> int:
    from store.keys import record_audit, revoke_key

    _, sessions = open_store()
    with session_scope(sessions) as session:
        revoke_key(session, args.key_id, now=datetime.now(UTC))
        record_audit(session, actor="cli", action="key.revoke", target=str(args.key_id), detail="", now=datetime.now(UTC))
    say(f"key {args.key_id} revoked")
    return 0


def cmd_topup(args: argparse.Namespace) -> int:
    from store.keys import add_credits, record_audit

    _, sessions = open_store()
    with session_scope(sessions) as session:
        row = add_credits(session, args.key_id, args.credits)
        record_audit(session, actor="cli", action="key.topup", target=str(args.key_id), detail=str(args.credits),
                     now=datetime.now(UTC))
        say(f"key {row.id} now holds {row.credits} credits")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    keys = sub.add_parser("keys", help="API keys").add_subparsers(dest="action", required=True)
    create = keys.add_parser("create", help="create a key and print it once on standard output")
    create.add_argument("--apis", type=api_list, required=True, help="comma-separated: finance-news,public-procurement")
    create.add_argument("--credits", type=int, required=True)
    create.add_argument("--rate", type=rate_argument, help="e.g. 60/minute (default GOSTERGE_DEFAULT_RATE)")
    create.add_argument("--expires-in", type=duration, help="e.g. 30d, 12h")
    create.add_argument("--admin", action="store_true", help="may call /v1/admin/")
    create.add_argument("--label", default="")
    create.set_defaults(func=cmd_create)
    keys.add_parser("list", help="list keys (never the keys themselves)").set_defaults(func=cmd_list)
    revoke = keys.add_parser("revoke", help="revoke a key")
    revoke.add_argument("key_id", type=int)
    revoke.set_defaults(func=cmd_revoke)
    topup = keys.add_parser("topup", help="add credits to a key")
    topup.add_argument("key_id", type=int)
    topup.add_argument("credits", type=int)
    topup.set_defaults(func=cmd_topup)
