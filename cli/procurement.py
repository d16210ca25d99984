"""`gosterge generate procurement`, `load procurement` and `releases`: weekly procurement releases."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from cli.common import open_store, say
from store.db import session_scope


def cmd_generate(args: argparse.Namespace) -> int:
    from loaders.procurement.generate import generate_release

    path = generate_release(args.scale, seed=args.seed, out=Path(args.out))
    say(f"wrote synthetic release ({args.scale}, seed {args.seed})")
    print(path)
    return 0


def cmd_load(args: argparse.Namespace) -> int:
    from loaders.procurement.load import load_release
    from loaders.procurement.release import ReleaseRejectedError
    from loaders.settings import load_settings

    _, sessions = open_store(upgrade_schema=True)
    try:
        result = load_release(Path(args.path), sessions, activate=not args.no_activate,
                              keep=load_settings().keep_releases)
    except ReleaseRejectedError as exc:
        say(f"release rejected: {exc.total} problem(s)")
        for p in exc.problems:
            where = ":".join(str(x) for x in (p.file, p.row, p.column) if x is not None)
            say(f"  {where}: {p.message}")
        return 1
    say(f"loaded release {result.name} as id {result.release_id}: {result.items} items in {result.seconds:.1f} s"
        + ("" if args.no_activate else "; now served"))
    if not args.no_activate and not args.no_digests:
        from cli.digests import send_after_load

        send_after_load(sessions)
    return 0


def cmd_releases_list(args: argparse.Namespace) -> int:
    from store.releases import list_releases

    _, sessions = open_store()
    with session_scope(sessions) as session:
        for r in list_releases(session):
            print(f"{r.id}\t{r.name}\tloaded {r.loaded_at:%Y-%m-%d %H:%M}\trows={r.total_rows}\tby={r.uploaded_by}\t"
                  f"{'synthetic' if r.synthetic else 'real'}\t{_state(r)}")
    return 0


def _state(release) -> str:  # noqa: ANN001
    if release.is_active:
        return "ACTIVE"
    return f"pruned {release.pruned_at:%Y-%m-%d %H:%M}" if release.pruned_at else ""


def cmd_releases_prune(args: argparse.Namespace) -> int:
    from loaders.procurement.retention import prune_releases

    _, sessions = open_store(upgrade_schema=True)
    pruned = prune_releases(sessions, args.keep)
    say(f"pruned {len(pruned)} release(s), keeping the last {args.keep} and the one served")
    for release_id in pruned:
        print(release_id)
    return 0


def cmd_releases_activate(args: argparse.Namespace) -> int:
    from store.errors import NotFoundError, ReleasePrunedError
    from store.keys import record_audit
    from store.releases import activate_release

    _, sessions = open_store()
    try:
        with session_scope(sessions) as session:
            release = activate_release(session, args.release_id)
            record_audit(session, actor="cli", action="release.activate", target=str(release.id),
                         detail=release.name, now=datetime.now(UTC))
    except (NotFoundError, ReleasePrunedError) as refused:
        say(f"not activated: {refused}")
        return 2
    say(f"release {release.id} ({release.name}) is now served")
    return 0


def add_commands(sub: argparse._SubParsersAction, *, generate: argparse._SubParsersAction,
                 load: argparse._SubParsersAction) -> None:
    proc = generate.add_parser("procurement", help="a synthetic weekly procurement release (ZIP)")
    proc.add_argument("--scale", choices=["tiny", "demo", "national"], default="demo")
    proc.add_argument("--seed", type=int, default=1)
    proc.add_argument("--out", required=True)
    proc.set_defaults(func=cmd_generate)

    lp = load.add_parser("procurement", help="validate, compute and serve a weekly release (ZIP or directory)")
    lp.add_argument("path")
    lp.add_argument("--no-activate", action="store_true", help="store it without serving it")
    lp.add_argument("--no-digests", action="store_true",
                    help="leave the watchlists' digests to the API's senders (or `gosterge digests send`)")
    lp.set_defaults(func=cmd_load)

    releases = sub.add_parser("releases", help="procurement releases").add_subparsers(dest="action", required=True)
    releases.add_parser("list", help="list loaded releases").set_defaults(func=cmd_releases_list)
    activate = releases.add_parser("activate", help="serve an earlier or later release")
    activate.add_argument("release_id", type=int)
    activate.set_defaults(func=cmd_releases_activate)
    prune = releases.add_parser("prune", help="remove the tables of releases past the last N (never the one served)")
    prune.add_argument("--keep", type=_at_least_one, required=True, help="how many of the latest releases to keep")
    prune.set_defaults(func=cmd_releases_prune)


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("must be a whole number of at least 1")
    return int(text)
