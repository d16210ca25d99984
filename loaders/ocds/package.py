"""A release's OCDS 1.1 release package, streamed tender by tender from its tables in DuckDB.

Memory stays bounded at any size: DuckDB groups each tender's lots (spilling to disk past its
memory limit), and Python holds one batch of tenders at a time, writing each release as it is made.
`parts.py` spreads the releases over processes.
"""

from __future__ import annotations

import gzip
import json
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
# zlib level 5: on the demo package (14.3 MB of JSON) 1.14 MB against level 1's 1.48 MB, for about
# twice the CPU, which the parts' processes share.
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


def tender_query(con: duckdb.DuckDBPyConnection) -> str:
    """The query of every tender of the `raw_*` tables, by İKN, with its lots (awarded or not)."""
    columns = _columns(con)
    name = "nullif(trim(t.name), '')" if "name" in columns else "NULL::VARCHAR"
    # A release may carry its tenders' OKAS codes as an optional `okas` column, `;`-separated.
    okas = "coalesce(string_split(nullif(trim(t.okas), ''), ';'), [])" if "okas" in columns else "[]::VARCHAR[]"
    return TENDERS_SQL.format(name=name, okas=okas)


def tender_rows(cursor: duckdb.DuckDBPyConnection) -> Iterator[TenderRow]:
    """The tenders of an executed `tender_query` (or of its rows saved), a batch at a time."""
    while batch := cursor.fetchmany(BATCH):
        for (tender_id, day, procedure, sector, estimate, lots, title, authority, authority_name, province,
             codes, lot_rows) in batch:
            yield TenderRow(tender_id, day, procedure, sector, estimate, lots, title, authority, authority_name,
                            province, [tuple(r.values()) for r in lot_rows or ()],
                            tuple(c.strip() for c in codes if c.strip()))


# One encoder for every release: json.dumps with options builds a new one per call.
encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def header_text(info: PackageInfo) -> str:
    """The package up to its first release: `releases` comes last, so that the releases stream."""
    return encode(package_header(info))[:-1] + ',"releases":['


FOOTER = "]}\n"


def write_releases(rows: Iterator[TenderRow], info: PackageInfo, sink: IO[bytes]) -> int:
    """The releases of `rows`, `,`-separated, as UTF-8 to `sink`; returns their number."""
    count, published, pieces = 0, info.published, []
    for row in rows:
        release = tender_release(row, prefix=info.ocid_prefix, release_name=info.release_name, release_date=published)
        pieces.append(encode(release))
        count += 1
        if len(pieces) == BATCH:
            sink.write((("," if count > BATCH else "") + ",".join(pieces)).encode("utf-8"))
            pieces = []
    if pieces:
        sink.write((("," if count > len(pieces) else "") + ",".join(pieces)).encode("utf-8"))
    return count


@contextmanager
def open_part(path: Path, compressed: bool) -> Iterator[IO[bytes]]:
    """A file for one piece of the package: a gzip member of its own when compressed (no file name or
    time in its header, so that the same release always gives the same bytes), plain UTF-8 otherwise.
    Gzip members one after another are one gzip file (RFC 1952)."""
    with open(path, "wb") as raw:
        if not compressed:
            yield raw
            return
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=GZIP_LEVEL, mtime=0) as zipped:
            yield zipped  # type: ignore[misc]
