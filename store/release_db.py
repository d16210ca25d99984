"""Each release's own SQLite file: where it lives, how the loader writes it, and how every connection
of the store sees it (docs/decisions.md, "Answers during a load on SQLite").

On SQLite a release's own tables (store/details.py) and its name index (store/name_index.py) live in
a file of their own beside the main database, `<main>.releases/r<id>.sqlite`. The loader writes it
through a connection of its own that never touches the main file, so that building its indexes
(seconds each on the national release) holds no lock a credit debit waits for. Once it is complete
the release row says so (`details` FILE_LAYOUT) and a counter (`data_versions`, GENERATION) moves on;
every connection of the store compares that counter with its own when it is taken from the pool, and
attaches the files that became complete (read-only, as schema `r<id>`) and detaches those pruned.
ATTACH cannot run inside a transaction, hence at that moment. A store in memory, and PostgreSQL, keep
the tables in the main database as before (`details` DETAILS_VERSION).

SQLite attaches at most SQLITE_LIMIT_ATTACHED files to a connection (10 as built): the served
release and the most recently loaded ones are attached, and a release beyond them answers as one
whose tables are missing (`is_attached`). Removing a file (pruning, or a failed load) first takes
the release out of that list, then unlinks the file: a connection that still has it attached keeps
reading it, and its space returns to the file system once every connection has let it go (detached
at its next checkout, or closed).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from store.private import private_sqlite_file

# Release.details of a release whose own tables are in a file of their own (SQLite).
FILE_LAYOUT = 2
# The counter bumped whenever the set of complete, unpruned release files changes.
GENERATION = "release-files"
FOLDER_SUFFIX = ".releases"
# Where a connection's record keeps the generation it attached for, and the releases attached.
_SEEN, _ATTACHED = "gosterge_release_files", "gosterge_attached_releases"


def schema_name(release_id: int) -> str:
    """The name a release's file is attached under: its tables read as `r<id>.awards_r<id>`."""
    return f"r{int(release_id)}"


def releases_folder(engine: Engine) -> Path | None:
    """The folder of a SQLite store's release files; None on PostgreSQL and for a store in memory."""
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    main = Path(database).resolve()
    return main.with_name(main.name + FOLDER_SUFFIX)


def release_file(folder: Path, release_id: int) -> Path:
    return folder / f"{schema_name(release_id)}.sqlite"


# --- every connection of the store -----------------------------------------------------------------

def attach_current(dbapi_connection: sqlite3.Connection, info: dict[str, Any], folder: Path) -> None:
    """Bring the files attached to a connection just taken from the pool up to date: one read of the
    counter when nothing changed since the connection last looked. A file that cannot be attached
    (missing, or no descriptor left) is tried again at the next checkout; meanwhile its release
    answers as one whose tables are missing, rather than the connection failing."""
    limit = dbapi_connection.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED)
    try:
        row = dbapi_connection.execute("SELECT version FROM data_versions WHERE name = ?", (GENERATION,)).fetchone()
        generation = row[0] if row else 0
        if info.get(_SEEN) == generation:
            return
        wanted = [r[0] for r in dbapi_connection.execute(
            "SELECT id FROM releases WHERE details = ? AND pruned_at IS NULL ORDER BY is_active DESC, id DESC LIMIT ?",
            (FILE_LAYOUT, limit))]
    except sqlite3.OperationalError:  # a store whose schema is not created yet
        return
    attached: set[int] = info.setdefault(_ATTACHED, set())
    for release_id in sorted(attached - set(wanted)):
        dbapi_connection.execute(f"DETACH DATABASE {schema_name(release_id)}")
        attached.discard(release_id)
    complete = True
    for release_id in wanted:
        if release_id in attached:
            continue
        try:
            # Read-only: a transaction that begins IMMEDIATE (a debit) takes no lock on these files.
            dbapi_connection.execute(f"ATTACH DATABASE ? AS {schema_name(release_id)}",
                                     (release_file(folder, release_id).as_uri() + "?mode=ro",))
            attached.add(release_id)
        except sqlite3.Error:
            complete = False
    info[_SEEN] = generation if complete else None


def is_attached(session: Session, release_id: int) -> bool:
    """Whether the session's connection has the release's file attached."""
    return release_id in session.connection().info.get(_ATTACHED, ())


def remove_file(folder: Path, release_id: int) -> bool:
    """Unlink a release's file and any journal beside it; False when there was no file."""
    path = release_file(folder, release_id)
    removed = path.exists()
    for leftover in (path, path.with_name(path.name + "-journal")):
        leftover.unlink(missing_ok=True)
    return removed


# --- the loader's own connection to a release's file -----------------------------------------------

class ReleaseFileWriter:
    """A release's file being written: sessions on it alone, never on the main file. Until it is
    published nothing attaches it, so it is written without a journal on disk nor a sync (an
    unfinished file is simply removed); `finish` syncs it to disk before it is published."""

    def __init__(self, folder: Path, release_id: int):
        self.path = path = release_file(folder, release_id)
        remove_file(folder, release_id)  # a killed load's, whose release id was given again
        # The service's own, as the main file is: the folder 0700 and the file 0600 from their creation.
        private_sqlite_file(path)
        self.engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
        event.listen(self.engine, "connect", _writer_pragmas)
        event.listen(self.engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN"))
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def finish(self) -> None:
        self.close()
        for target in (self.path, self.path.parent):
            descriptor = os.open(target, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)


def _writer_pragmas(dbapi_connection: sqlite3.Connection, record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's BEGIN decides, as in store/db.py
    for pragma in ("journal_mode=MEMORY", "synchronous=OFF", "foreign_keys=OFF"):
        dbapi_connection.execute(f"PRAGMA {pragma}")


@contextmanager
def release_file_writer(engine: Engine, release_id: int) -> Iterator[ReleaseFileWriter | None]:
    """A writer of the release's own file, closed on the way out; None where the store keeps a
    release's tables in its main database (PostgreSQL, SQLite in memory)."""
    folder = releases_folder(engine)
    if folder is None:
        yield None
        return
    writer = ReleaseFileWriter(folder, release_id)
    try:
        yield writer
    finally:
        writer.close()
