"""`gosterge export ocds`: a release as an OCDS 1.1 release package (docs/ocds.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import open_store, say
from store.db import session_scope


def cmd_export_ocds(args: argparse.Namespace) -> int:
    from loaders.ocds.export import ExportError, check_output, export_package
    from loaders.settings import SettingError, load_settings
    from store.release_files import read_release_files
    from store.releases import find_release

    out = Path(args.out)
    try:
        settings = load_settings()
        check_output(out)
    except (SettingError, ExportError) as exc:
        say(f"error: {exc}")
        return 2
    _, sessions = open_store(upgrade_schema=True)
    with session_scope(sessions) as session:
        release = find_release(session, args.release)
        found = None if release is None else (release.id, release.name)
    if found is None:
        say(f"error: no release named {args.release!r} is loaded" if args.release else "error: no release is served")
        return 1
    files = read_release_files(settings.release_files_dir, found[0])
    tables = files.by_kind("tables") if files else None
    if tables is None:
        say(f"error: release {found[1]} (id {found[0]}) has no stored tables in {settings.release_files_dir} "
            "(loaded before they were kept, or removed): load its ZIP again")
        return 1
    try:
        count = export_package(tables.path, out, settings)
    except ExportError as exc:
        say(f"error: {exc}")
        return 1
    say(f"wrote release {found[1]} as an OCDS release package: {count} releases (one per tender)")
    print(out)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser("export", help="export data").add_subparsers(dest="what", required=True)
    ocds = export.add_parser("ocds", help="a release as an OCDS 1.1 release package (docs/ocds.md)")
    ocds.add_argument("--release", help="the release's name, e.g. 2026-W47 (default: the release served)")
    ocds.add_argument("--out", required=True, help="the file to write: .json, or .json.gz for gzip")
    ocds.set_defaults(func=cmd_export_ocds)
