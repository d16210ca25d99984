"""`gosterge ekap import`: turn records saved from EKAP into a weekly release (docs/ekap.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import say


def cmd_import(args: argparse.Namespace) -> int:
    from loaders.ekap.base import BaseReleaseError
    from loaders.ekap.files import InputError
    from loaders.ekap.importer import NOTHING_TO_RELEASE, ImportRefusedError, import_ekap
    from loaders.procurement.release import ReleaseRejectedError

    try:
        result = import_ekap([Path(p) for p in args.paths], Path(args.out), release=args.release,
                             base=Path(args.base) if args.base else None,
                             report_path=Path(args.report) if args.report else None, strict=args.strict,
                             exclude=args.exclude, goods_unplaced=args.goods_unplaced)
    except (InputError, ImportRefusedError, BaseReleaseError) as exc:
        say(f"error: {exc}")
        return 2
    except ReleaseRejectedError as exc:
        say(f"error: the base release is not a valid release: {exc.total} problem(s)")
        for p in exc.problems:
            say("  " + ":".join(str(x) for x in (p.file, p.row, p.column) if x is not None) + f": {p.message}")
        return 2
    for line in result.report.lines():
        say(line)
    say(f"report: {result.report_path}")
    if result.empty:
        counts = result.report.counts
        say(f"error: {NOTHING_TO_RELEASE} ({counts['tendersKeptOut']} kept out, {result.report.unmapped_count} "
            f"unmapped item(s), of {counts['files']} file(s)); no release written; why each was left out: "
            f"{result.report_path}")
        return 2
    if not result.written:
        refused = result.report.by_reason("unmapped").get("release-refused")
        say(f"the loader would refuse the release ({refused} problem(s) in the report); no release written"
            if refused else f"--strict: {result.report.unmapped_count} unmapped item(s) in "
            f"{_files(result.report.unmapped_files())}; no release written")
        return 1
    say(f"release {result.release} (publishedAt {result.published:%Y-%m-%dT%H:%M:%SZ}) written")
    print(result.out)
    return 0


SHOWN_FILES = 5  # the summary is one line: past this many files, the report lists the rest


def _files(files: list[str]) -> str:
    shown = ", ".join(files[:SHOWN_FILES])
    more = len(files) - SHOWN_FILES
    return f"{shown} and {more} more file(s) (the report lists them)" if more > 0 else shown


def add_commands(sub: argparse._SubParsersAction) -> None:
    ekap = sub.add_parser("ekap", help="EKAP records").add_subparsers(dest="action", required=True)
    imp = ekap.add_parser("import", help="build a weekly release from saved EKAP tenders and result notices")
    imp.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (walked recursively)")
    imp.add_argument("--out", required=True, help="the release ZIP to write")
    imp.add_argument("--release", help="ISO week of the release, e.g. 2026-W47 (default: this week)")
    imp.add_argument("--base", help="the previous week's release: its tables are kept and merged with the new records")
    imp.add_argument("--report", help="where to write the JSON report (default: beside the release)")
    imp.add_argument("--strict", action="store_true", help="write no release when anything could not be mapped")
    imp.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                     help="leave out files whose name or path matches this glob (repeatable); the report lists them")
    from loaders.ekap.goods import GOODS_UNPLACED

    imp.add_argument("--goods-unplaced", choices=GOODS_UNPLACED, default=GOODS_UNPLACED[0],
                     help="goods with no OKAS code whose name names no one sector: released in the goods fallback "
                     "sector (default, noted as sector-by-kind-fallback) or kept out of the release")
    imp.set_defaults(func=cmd_import)
