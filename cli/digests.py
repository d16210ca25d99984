"""`gosterge digests send`: mail the watchlists' digests that are due (the API's processes send them
too, every GOSTERGE_DIGEST_SENDER_SECONDS; several senders never send one twice)."""

from __future__ import annotations

import argparse
import logging

from sqlalchemy.orm import Session, sessionmaker

from cli.common import open_store, say

log = logging.getLogger("gosterge.digests")


def send_now(sessions: sessionmaker[Session]) -> dict[str, int]:
    """Every due digest, by the API's settings (SMTP or the outbox, the public address for the links)."""
    from api.config import load_config
    from api.digests import send_all_digests

    return send_all_digests(sessions, load_config()).counts


def describe(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {status}" for status, count in sorted(counts.items())) or "none due"


def cmd_send(args: argparse.Namespace) -> int:
    _, sessions = open_store(upgrade_schema=True)
    if args.every:
        return _send_every(sessions, args.every)
    say(f"digests: {describe(send_now(sessions))}")
    return 0


def _send_every(sessions: sessionmaker[Session], seconds: int) -> int:
    """Send what is due every `seconds` until SIGTERM or SIGINT (gunicorn's master runs this,
    api/digest_process.py)."""
    import signal

    from api.config import load_config
    from api.digests import DigestSender

    sender = DigestSender(sessions, load_config(), seconds)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: sender.stopped.set())
    say(f"digests: sending what is due every {seconds} s")
    sender.run()
    return 0


def send_after_load(sessions: sessionmaker[Session]) -> None:
    """The digests of a release just loaded; a failure is reported and never fails the load."""
    try:
        say(f"digests: {describe(send_now(sessions))}")
    except Exception as error:  # noqa: BLE001  (the release is loaded; the API's senders try again)
        log.exception("sending digests failed")
        say(f"digests not sent now ({error}); the API's senders or `gosterge digests send` send them later")


def add_commands(sub: argparse._SubParsersAction) -> None:
    digests = sub.add_parser("digests", help="watchlist digests").add_subparsers(dest="action", required=True)
    send = digests.add_parser("send", help="mail the digests that are due (SMTP, or the outbox folder without it)")
    send.add_argument("--every", type=_positive, metavar="SECONDS",
                      help="keep running, sending what is due every SECONDS (as gunicorn.conf.py runs it)")
    send.set_defaults(func=cmd_send)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
