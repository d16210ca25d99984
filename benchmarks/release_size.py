"""The size of each table and index of a release's own SQLite file (store/release_db.py), largest
first, from SQLite's dbstat table: what a loaded release costs on disk, and where.

    .venv/bin/python benchmarks/release_size.py PATH/store.db.releases/r1.sqlite

Reads the file only (opened read-only). dbstat counts every page of a table or index, overflow pages
included, so the sizes add up to the file's size less its free pages.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path


def sizes(path: Path) -> tuple[list[tuple[str, int, int]], int]:
    """Each table's and index's (name, bytes, rows or entries) largest first, and the file's size."""
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        # A table without rowid is a tree of keys, as an index is: its interior cells are rows too.
        keyed = {name for name, kind, sql in con.execute("SELECT name, type, sql FROM sqlite_schema")
                 if kind == "index" or "WITHOUT ROWID" in (sql or "").upper()}
        counted = []
        for name, size, leaf, internal in con.execute(
                "SELECT name, SUM(pgsize), SUM(CASE WHEN pagetype = 'leaf' THEN ncell ELSE 0 END),"
                " SUM(CASE WHEN pagetype = 'internal' THEN ncell ELSE 0 END) FROM dbstat GROUP BY name ORDER BY 2 DESC"):
            # A rowid table's rows are the cells of its leaves; its interior cells are rowids only.
            counted.append((name, int(size), int(leaf) + (int(internal) if name in keyed else 0)))
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        page_count = con.execute("PRAGMA page_count").fetchone()[0]
    finally:
        con.close()
    return counted, page_size * page_count


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", type=Path, help="a release's file: <store>.releases/r<id>.sqlite")
    args = parser.parse_args()
    counted, total = sizes(args.file)
    for name, size, cells in counted:
        print(f"{name:48} {size / 1e6:10.1f} MB {cells:12,}")
    print(f"{'file':48} {total / 1e6:10.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
