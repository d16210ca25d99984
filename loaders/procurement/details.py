"""A release's awards, parties, profiles and discount benchmarks: computed in DuckDB, then written
to the release's own tables (store/details.py; on SQLite in the release's own file) in batches of
their own transactions and indexed one index per transaction, before the release is completed."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
from sqlalchemy.orm import Session, sessionmaker

from loaders.procurement.awards import award_count_rows, award_rows, build_award_rows, tender_rows
from loaders.procurement.benchmarks import benchmark_rows
from loaders.procurement.parties import build_parties, party_rows, profile_rows, word_rows
from store.db import session_scope
from store.details import DETAILS_VERSION, create_detail_tables, index_steps, insert_detail_rows, tender_table
from store.release_db import FILE_LAYOUT, release_file_writer
from store.releases import item_batches, publish_release_file

log = logging.getLogger("gosterge.loaders.procurement")


def _took(started: tuple[float, float]) -> str:
    """Wall and CPU time since `started` (a `_now()`): on a shared machine the second says more."""
    return f"{time.perf_counter() - started[0]:.1f} s ({time.process_time() - started[1]:.1f} s CPU)"


def _now() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def build_details(con: duckdb.DuckDBPyConnection) -> None:
    """The DuckDB tables the release's own tables are written from (after `build_typed_tables`)."""
    started = _now()
    build_award_rows(con)
    log.info("awards and flags computed in %s", _took(started))
    started = _now()
    build_parties(con)
    log.info("parties and profiles computed in %s", _took(started))


def write_details(con: duckdb.DuckDBPyConnection, sessions: sessionmaker[Session], release_id: int,
                  counted: Callable[[Iterator[dict[str, Any]]], Iterator[dict[str, Any]]]) -> int:
    """Create the release's tables, fill them batch by batch and index them; `counted` wraps each
    source of rows (to report progress). Returns the layout to complete the release with: on SQLite
    they are written to the release's own file through a connection of its own, so that no step
    holds the main file's write lock (store/release_db.py), and published once complete. A failure
    leaves tables, or a file, that the caller's purge removes."""
    with release_file_writer(sessions.kw["bind"], release_id) as writer:
        _write_tables(con, writer.sessions if writer else sessions, release_id, counted)
        if writer is None:
            return DETAILS_VERSION
        writer.finish()
    with session_scope(sessions) as session:
        publish_release_file(session, release_id)
    return FILE_LAYOUT


def _write_tables(con: duckdb.DuckDBPyConnection, sessions: sessionmaker[Session], release_id: int,
                  counted: Callable[[Iterator[dict[str, Any]]], Iterator[dict[str, Any]]]) -> None:
    with session_scope(sessions) as session:
        tables = create_detail_tables(session, release_id)
    # Each source runs its query when its turn comes: a DuckDB connection holds one result at a time.
    sources = [(tables.awards, award_rows), (tables.counts, award_count_rows), (tables.parties, party_rows),
               (tables.words, word_rows), (tables.profiles, profile_rows), (tables.benchmarks, benchmark_rows)]
    sources.append((tender_table(release_id).table, tender_rows))
    steps = index_steps(release_id)
    # On PostgreSQL the awards' indexes, most of the build, are built by the server on a connection
    # of their own while the other tables are written: no other transaction touches the new table.
    # On SQLite one connection writes the release's file, so its indexes come after every row.
    beside = _Beside(sessions) if sessions.kw["bind"].dialect.name == "postgresql" else None
    try:
        for table, source in sources:
            started = _now()
            columns, rows = source(con)
            for batch in item_batches(counted(rows)):
                with session_scope(sessions) as session:
                    insert_detail_rows(session, table, columns, batch)
            log.info("%s written in %s", table.name, _took(started))
            if beside is not None and table is tables.awards:
                beside.start([step for step in steps if getattr(step, "table", None) == table.name])
        started = _now()
        for step in steps:
            if beside is None or not any(step is taken for taken in beside.steps):
                with session_scope(sessions) as session:
                    step(session)
        if beside is not None:
            beside.join()
        log.info("release %s indexed in %s", release_id, _took(started))
    finally:
        if beside is not None:
            beside.stop()


class _Beside:
    """Index steps run one after another by a thread, each in a transaction of its own; `join()`
    waits for them and raises what failed, `stop()` lets none more begin and waits for the one running."""

    def __init__(self, sessions: sessionmaker[Session]):
        self.sessions = sessions
        self.steps: list[Callable[[Session], None]] = []
        self.error: BaseException | None = None
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, steps: list[Callable[[Session], None]]) -> None:
        self.steps = steps
        self.started = _now()
        self.thread = threading.Thread(target=self._run, name="index-beside", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for step in self.steps:
                if self.stopping.is_set():
                    return
                with session_scope(self.sessions) as session:
                    step(session)
            log.info("%d indexes built beside the writing in %.1f s", len(self.steps),
                     time.perf_counter() - self.started[0])
        except BaseException as error:  # noqa: BLE001  (raised in the loading thread, by join())
            self.error = error

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join()
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join()
