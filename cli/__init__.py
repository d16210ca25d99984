"""The `gosterge` command: the one place that composes the API, the store, the loaders and the
dashboard. Each command group lives in a module of its own; nothing imports this package."""

from __future__ import annotations

import argparse
import logging
import sys

from cli import db, digests, ekap, export, keys, news, procurement, run
from store.errors import NotFoundError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gosterge", description="Gösterge: procurement statistics and finance news.")
    sub = parser.add_subparsers(dest="command", required=True)
    db.add_commands(sub)
    run.add_commands(sub)
    keys.add_commands(sub)
    generate = sub.add_parser("generate", help="generate synthetic data").add_subparsers(dest="what", required=True)
    load = sub.add_parser("load", help="load data").add_subparsers(dest="what", required=True)
    procurement.add_commands(sub, generate=generate, load=load)
    news.add_commands(sub, load=load)
    ekap.add_commands(sub)
    export.add_commands(sub)
    digests.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except NotFoundError as exc:  # one clear line, not a traceback, for a person at a terminal
        print(f"error: {exc}", file=sys.stderr)
        return 1
