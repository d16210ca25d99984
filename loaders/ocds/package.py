"""A release's OCDS 1.1 release package, streamed tender by tender from its tables in DuckDB.

Memory stays bounded at any size: DuckDB groups each tender's lots (spilling to disk past its
memory limit), and Python holds one batch of tenders at a time, writing each release as it is made.
"""

from __future__ import annotations

import gzip
import json
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import duckdb

from loaders.ocds.mapping import TenderRow, tender_release
from store.release_files import ocds_name

VERSION = "1.1"
EXTENSIONS = (
    "https://raw.githubusercontent.com/open-contracting-extensions/ocds_lots_extension/v1.1.5/extension.json",
    "https://raw.githubusercontent.com/open-contracting-extensions/ocds_bid_extension/v1.1.5/extension.json",
)
BATCH = 5000
# Level 5 of zlib: within a few per cent of level 9's size on this JSON, at about twice its speed.
GZIP_LEVEL = 5
# The tables hold text (as in the CSVs); the lots of a tender come as one list, in lot order.
TENDERS_SQL = """
SELECT t.tender_id, t.tender_date, t.procedure, CAST(t.sector AS INTEGER), t.estimated_cost,
    CAST(t.lots AS INTEGER), {name}, t.authority_id, a.name, CAST(a.province AS INTEGER), {okas},
    list(struct_pack(lot := CAST(w.lot AS INTEGER), bids := CAST(w.bids AS INTEGER), contractor := w.contractor_id,
                     value := w.contract_value, name := c.name, province := CAST(c.province AS INTEGER))
         ORDER BY CAST(w.lot AS INTEGER)) FILTER (WHERE w.lot IS NOT NULL)
FROM raw_tenders t JOIN raw_authorities a USING (authority_id)
LEFT JOIN raw_awards w USING (tender_id) LEFT JOIN raw_contractors c ON c.contractor_id = w.contractor_id
GROUP BY ALL ORDER BY t.tender_id
"""


@dataclass(frozen=True)
class PackageInfo:
    """What the package says about itself and its publisher (docs/ocds.md, settings)."""

    release_name: str
    published_at: datetime
    synthetic: bool
    ocid_prefix: str
    base_url: str
    license_url: str
    policy_url: str

    @property
    def published(self) -> str:
        return self.published_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def publisher_name(synthetic: bool) -> str:
    """Says what the data is, since nothing else in the package can: rebuilt, not KİK's own."""
    if synthetic:
        return "Gösterge (synthetic demonstration data, not real procurement records)"
    return "Gösterge (rebuilt from the tender result notices published on EKAP; not a publication of the Kamu İhale Kurumu)"


def package_header(info: PackageInfo) -> dict[str, Any]:
    return {
        # Where the API serves the package built at load time (api/routes/downloads.py).
        "uri": f"{info.base_url}/v1/public-procurement/downloads/{ocds_name(info.release_name)}",
        "version": VERSION,
        "extensions": list(EXTENSIONS),
        "publishedDate": info.published,
        "publisher": {"name": publisher_name(info.synthetic), "uri": f"{info.base_url}/v1/"},
        "license": info.license_url,
        "publicationPolicy": info.policy_url,
    }


def _columns(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {r[0] for r in con.execute("DESCRIBE raw_tenders").fetchall()}


def tender_rows(con: duckdb.DuckDBPyConnection) -> Iterator[TenderRow]:
    """Every tender of the `raw_*` tables, by İKN, with its lots (awarded or not)."""
    columns = _columns(con)
    name = "nullif(trim(t.name), '')" if "name" in columns else "NULL::VARCHAR"
    # A release may carry its tenders' OKAS codes as an optional `okas` column, `;`-separated.
    okas = "coalesce(string_split(nullif(trim(t.okas), ''), ';'), [])" if "okas" in columns else "[]::VARCHAR[]"
    cursor = con.execute(TENDERS_SQL.format(name=name, okas=okas))
    while batch := cursor.fetchmany(BATCH):
        for (tender_id, day, procedure, sector, estimate, lots, title, authority, authority_name, province,
             codes, lot_rows) in batch:
            yield TenderRow(tender_id, day, procedure, sector, estimate, lots, title, authority, authority_name,
                            province, [tuple(r.values()) for r in lot_rows or ()],
                            tuple(c.strip() for c in codes if c.strip()))


# One encoder for every release: json.dumps with options builds a new one per call.
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def write_package(con: duckdb.DuckDBPyConnection, info: PackageInfo, sink: IO[str]) -> int:
    """Write the package to `sink` (text), releases last so that they stream; returns their number."""
    sink.write(_encode(package_header(info))[:-1] + ',"releases":[')
    count, published, pieces = 0, info.published, []
    for row in tender_rows(con):
        release = tender_release(row, prefix=info.ocid_prefix, release_name=info.release_name, release_date=published)
        pieces.append(_encode(release))
        count += 1
        if len(pieces) == BATCH:
            sink.write(("," if count > BATCH else "") + ",".join(pieces))
            pieces = []
    if pieces:
        sink.write(("," if count > len(pieces) else "") + ",".join(pieces))
    sink.write("]}\n")
    return count


@contextmanager
def open_output(path: Path) -> Iterator[IO[str]]:
    """A text stream to `path`, gzip-compressed when its name ends in .gz (with no file name or time
    in the gzip header, so that the same release always gives the same bytes)."""
    if path.suffix != ".gz":
        with open(path, "w", encoding="utf-8", newline="\n") as text:
            yield text
        return
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=GZIP_LEVEL,
                                                mtime=0) as zipped:
        sink = _CompressingSink(zipped)
        try:
            yield sink  # type: ignore[misc]
        finally:
            sink.close()


class _CompressingSink:
    """Text in, compressed by a thread of its own: zlib lets go of the GIL while it compresses, so
    on two cores the releases are encoded while the previous batch is compressed. At most
    QUEUED batches wait, which bounds the memory."""

    QUEUED = 4

    def __init__(self, zipped: gzip.GzipFile):
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=self.QUEUED)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(zipped,), name="ocds-gzip", daemon=True)
        self._thread.start()

    def _run(self, zipped: gzip.GzipFile) -> None:
        while (chunk := self._queue.get()) is not None:
            if self._error is None:
                try:
                    zipped.write(chunk)
                except BaseException as exc:  # noqa: BLE001  (raised again in the writer's thread)
                    self._error = exc

    def write(self, text: str) -> int:
        if self._error is not None:
            raise self._error
        self._queue.put(text.encode("utf-8"))
        return len(text)

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        if self._error is not None:
            raise self._error
