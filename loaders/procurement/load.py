"""Loading a release end to end: open, validate, compute, store and switch in one transaction."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
from sqlalchemy.orm import Session, sessionmaker

from loaders.procurement.compute import build_typed_tables, has_tender_names, served_items
from loaders.procurement.details import build_details, write_details
from loaders.procurement.release import open_release
from loaders.procurement.release_files import start_release_files
from loaders.procurement.retention import prune_releases
from loaders.procurement.validate import validate_release
from loaders.settings import LoaderSettings, load_settings
from store.db import session_scope
from store.digests import plan_digests
from store.release_files import remove_release_files
from store.releases import (
    activate_release,
    complete_release,
    create_release,
    insert_items,
    item_batches,
    list_incomplete_releases,
    purge_release,
)

log = logging.getLogger("gosterge.loaders.procurement")
DUCKDB_MEMORY_LIMIT = "4GB"
# progress(stage, items written so far): stages unpacking, validating, computing, writing.
Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class LoadResult:
    release_id: int
    name: str
    synthetic: bool
    rows: dict[str, int]
    items: int
    seconds: float


def _ignore_progress(stage: str, items: int) -> None:
    pass


# A release still incomplete this long after its load began was left by a load that was killed: no
# load takes this long, so its items are deleted by the next load.
ABANDONED_AFTER = timedelta(hours=6)


def purge(sessions: sessionmaker[Session], release_id: int) -> None:
    """Delete an incomplete release, a batch per transaction (a failed load's, or a killed one's)."""
    more = True
    while more:
        with session_scope(sessions) as session:
            more = purge_release(session, release_id)


def purge_abandoned_releases(sessions: sessionmaker[Session]) -> None:
    with session_scope(sessions) as session:
        abandoned = list_incomplete_releases(session, loaded_before=datetime.now(UTC) - ABANDONED_AFTER)
    for release_id in abandoned:
        log.warning("removing release %s, left incomplete by a load that stopped", release_id)
        purge(sessions, release_id)


def load_release(
    path: Path, sessions: sessionmaker[Session], *, uploaded_by: str = "cli", activate: bool = True,
    now: datetime | None = None, progress: Progress = _ignore_progress, workdir: Path | None = None,
    before_commit: Callable[[Session, int], None] | None = None, settings: LoaderSettings | None = None,
    keep: int = 0,
) -> LoadResult:
    """Validate and compute in DuckDB, then write the release and (optionally) switch to it atomically.

    Raises ReleaseRejectedError before anything is written. The items are written in batches, each
    in a short transaction of its own, into a release that is not complete: nothing lists or serves
    it until the last transaction completes and activates it. A failure while writing deletes what
    was written, so the release served before stays served, untouched. Every temporary file (the unpacked
    archive, DuckDB's spill files) goes under `workdir` when given, so that the caller can remove
    them all at once; `before_commit(session, release_id)` writes more in the same transaction. The
    files offered for download are built before the release completes, and removed if it fails.
    With `keep` > 0, releases past the last `keep` (never the one served) are pruned once it is loaded.
    """
    settings = settings or load_settings()
    started = time.perf_counter()
    progress("unpacking", 0)
    with open_release(Path(path), workdir=workdir) as opened:
        con = duckdb.connect()
        try:
            con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
            con.execute("SET preserve_insertion_order = true")
            if workdir is not None:
                con.execute("SET temp_directory = ?", [str(Path(workdir) / "duckdb")])
            progress("validating", 0)
            validate_release(con, opened)
            log.info("validated in %.1f s", time.perf_counter() - started)
            progress("computing", 0)
            latest_year = build_typed_tables(con)
            manifest = opened.manifest
            # Served items, and rows of the release's own tables; progress reports both together.
            counter = {"items": 0, "rows": 0}

            def counted(rows, key="rows"):
                for item in rows:
                    counter[key] += 1
                    if (counter["items"] + counter["rows"]) % 1000 == 0:
                        progress("writing", counter["items"] + counter["rows"])
                    yield item

            purge_abandoned_releases(sessions)
            with session_scope(sessions) as session:
                release_id = create_release(
                    session, name=manifest.release, published_at=manifest.published_at,
                    loaded_at=now or datetime.now(UTC), synthetic=manifest.synthetic, latest_year=latest_year,
                    datasets=manifest.datasets, uploaded_by=uploaded_by,
                ).id
            files = None
            try:
                # The download files first: a large release's are built by processes of their own
                # while the rest is computed and written, and waited for before the release completes.
                files = start_release_files(con, opened, release_id, settings)
                build_details(con)
                # Each batch in a transaction of its own: on SQLite the write lock is held for one
                # batch at a time, so the service's credit debits go on between them.
                written = time.perf_counter()
                for batch in item_batches(counted(served_items(con, latest_year), "items")):
                    with session_scope(sessions) as session:
                        insert_items(session, release_id, batch)
                log.info("statistics computed and written in %.1f s", time.perf_counter() - written)
                details = write_details(con, sessions, release_id, counted)
                files.publish()
                with session_scope(sessions) as session:
                    complete_release(session, release_id, details=details, tender_names=has_tender_names(con),
                                     tenders=True)
                    if activate:
                        activate_release(session, release_id)
                    if before_commit is not None:
                        before_commit(session, release_id)
            except BaseException:
                if files is not None:
                    files.discard()
                remove_release_files(settings.release_files_dir, release_id)
                try:
                    purge(sessions, release_id)
                except Exception:  # noqa: BLE001  (the store may be what failed; the first error is raised)
                    log.exception("release %s left incomplete; a later load removes it", release_id)
                raise
        finally:
            con.close()
    if activate:
        try:
            # One digest row per watchlist for this release; the API's sender (or `gosterge digests
            # send`) mails them. Never a reason for the load to fail.
            with session_scope(sessions) as session:
                plan_digests(session, release_id, now=datetime.now(UTC))
        except Exception:  # noqa: BLE001  (the senders plan the release served again)
            log.exception("planning the digests of release %s failed", release_id)
    seconds = time.perf_counter() - started
    log.info("loaded release %s (%s) with %d items in %.1f s", manifest.release, release_id, counter["items"], seconds)
    if keep > 0:
        try:
            # The pruned releases' files are removed from the folder this load wrote to, not the default one.
            prune_releases(sessions, keep, remove_files=lambda pruned: remove_release_files(
                settings.release_files_dir, pruned))
        except Exception:  # noqa: BLE001  (the release is loaded and served; the next load prunes again)
            log.exception("pruning after release %s failed", release_id)
    return LoadResult(release_id, manifest.release, manifest.synthetic,
                      {d["file"]: int(d["rows"]) for d in manifest.datasets}, counter["items"], seconds)
