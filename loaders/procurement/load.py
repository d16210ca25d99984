"""Loading a release end to end: open, validate, compute, store and switch in one transaction."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from sqlalchemy.orm import Session, sessionmaker

from loaders.procurement.compute import build_typed_tables, served_items
from loaders.procurement.release import open_release
from loaders.procurement.validate import validate_release
from store.db import session_scope
from store.releases import activate_release, create_release

log = logging.getLogger("gosterge.loaders.procurement")
DUCKDB_MEMORY_LIMIT = "4GB"


@dataclass(frozen=True)
class LoadResult:
    release_id: int
    name: str
    synthetic: bool
    rows: dict[str, int]
    items: int
    seconds: float


def load_release(
    path: Path, sessions: sessionmaker[Session], *, uploaded_by: str = "cli", activate: bool = True,
    now: datetime | None = None,
) -> LoadResult:
    """Validate and compute in DuckDB, then write the release and (optionally) switch to it atomically.

    Raises ReleaseRejectedError before anything is written; a failure while writing rolls the whole
    transaction back, so the release served before stays served.
    """
    started = time.perf_counter()
    with open_release(Path(path)) as opened:
        con = duckdb.connect()
        try:
            con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
            con.execute("SET preserve_insertion_order = true")
            validate_release(con, opened)
            latest_year = build_typed_tables(con)
            manifest = opened.manifest
            counter = {"items": 0}

            def counted():
                for item in served_items(con, latest_year):
                    counter["items"] += 1
                    yield item

            with session_scope(sessions) as session:
                release = create_release(
                    session, name=manifest.release, published_at=manifest.published_at,
                    loaded_at=now or datetime.now(UTC), synthetic=manifest.synthetic, latest_year=latest_year,
                    datasets=manifest.datasets, items=counted(), uploaded_by=uploaded_by,
                )
                if activate:
                    activate_release(session, release.id)
                release_id = release.id
        finally:
            con.close()
    seconds = time.perf_counter() - started
    log.info("loaded release %s (%s) with %d items in %.1f s", manifest.release, release_id, counter["items"], seconds)
    return LoadResult(release_id, manifest.release, manifest.synthetic,
                      {d["file"]: int(d["rows"]) for d in manifest.datasets}, counter["items"], seconds)
