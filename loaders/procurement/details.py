"""A release's awards, parties, profiles and discount benchmarks: computed in DuckDB, then written
to the release's own tables (store/details.py; on SQLite in the release's own file) in batches of
their own transactions and indexed one index per transaction, before the release is completed."""

from __future__ import annotations

import logging
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
    for table, source in sources:
        started = _now()
        columns, rows = source(con)
        for batch in item_batches(counted(rows)):
            with session_scope(sessions) as session:
                insert_detail_rows(session, table, columns, batch)
        log.info("%s written in %s", table.name, _took(started))
    started = _now()
    for step in index_steps(release_id):
        with session_scope(sessions) as session:
            step(session)
    log.info("release %s indexed in %s", release_id, _took(started))
