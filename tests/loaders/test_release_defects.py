"""Release defects that once crashed the load: each is refused with its file, row and column."""

from __future__ import annotations

import copy
import io
import json
import struct
import zipfile

import pytest

from loaders.procurement.load import load_release
from loaders.procurement.release import ReleaseRejectedError
from tests.helpers import write_release
from tests.loaders.test_procurement_statistics import TABLES


def rejected(app, path) -> ReleaseRejectedError:  # noqa: ANN001
    with pytest.raises(ReleaseRejectedError) as caught:
        load_release(path, app.extensions["gosterge.sessions"])
    return caught.value


def located(error: ReleaseRejectedError) -> set[tuple]:
    return {(p.file, p.row, p.column) for p in error.problems}


def changed(file: str, index: int, column: str, value: str) -> dict:
    tables = copy.deepcopy(TABLES)
    tables[file][index][column] = value
    return tables


@pytest.mark.parametrize(("tables", "where"), [
    (changed("tenders.csv", 0, "lots", "3000000000"), ("tenders.csv", 2, "lots")),
    (changed("awards.csv", 0, "bids", "3000000000"), ("awards.csv", 2, "bids")),
    (changed("awards.csv", 0, "lot", "3000000000"), ("awards.csv", 2, "lot")),
    (changed("tenders.csv", 0, "estimated_cost", "0." + "0" * 309 + "1"), ("tenders.csv", 2, "estimated_cost")),
], ids=["lots-beyond-32-bits", "bids-beyond-32-bits", "lot-beyond-32-bits", "estimated-cost-to-infinity"])
def test_values_beyond_what_the_statistics_hold_are_refused(loaded_app, tmp_path, tables, where):
    assert where in located(rejected(loaded_app, write_release(tmp_path / "r", tables)))


def test_duplicated_tender_id_is_refused(loaded_app, tmp_path):
    tables = copy.deepcopy(TABLES)
    tables["tenders.csv"].append(dict(tables["tenders.csv"][0]))
    error = rejected(loaded_app, write_release(tmp_path / "r", tables))
    assert ("tenders.csv", 2, "tender_id") in located(error)


@pytest.mark.parametrize("extra", ["rowid", "_bad", "_row"])
def test_extra_columns_are_ignored_whatever_their_name(loaded_app, tmp_path, extra):
    directory = write_release(tmp_path / "r", TABLES)
    for file in ("tenders.csv", "awards.csv"):
        lines = (directory / file).read_text().splitlines()
        rows = [f"{lines[0]},{extra}"] + [f"{line},x" for line in lines[1:]]
        (directory / file).write_text("\n".join(rows) + "\n")
    result = load_release(directory, loaded_app.extensions["gosterge.sessions"])
    assert result.items > 0


@pytest.mark.parametrize("published", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00"])
def test_published_at_at_the_calendar_edge_is_refused(loaded_app, tmp_path, published):
    error = rejected(loaded_app, write_release(tmp_path / "r", TABLES, published=published))
    assert ("manifest.json", None, "publishedAt") in located(error)


def zip_of(tmp_path, mangle) -> bytes:  # noqa: ANN001
    directory = write_release(tmp_path / "r", TABLES)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(directory.iterdir()):
            zf.write(path, path.name)
    return mangle(bytearray(buffer.getvalue()))



def in_every_header(data: bytearray, local: int, central: int, change) -> bytes:  # noqa: ANN001
    """Apply `change(data, offset)` at a field of every local (PK\\3\\4) and central (PK\\1\\2) header."""
    for signature, offset in ((b"PK\x03\x04", local), (b"PK\x01\x02", central)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            change(data, start + offset)
            start += 4
    return bytes(data)


def encrypted(data: bytearray) -> bytes:
    def flag(d: bytearray, at: int) -> None:  # bit 0 of the general-purpose flags: encrypted
        d[at] |= 1
    return in_every_header(data, 6, 8, flag)


def unknown_method(data: bytearray) -> bytes:
    def method(d: bytearray, at: int) -> None:
        d[at:at + 2] = struct.pack("<H", 99)
    return in_every_header(data, 8, 10, method)


def wrong_crc(data: bytearray) -> bytes:
    def crc(d: bytearray, at: int) -> None:
        d[at] ^= 0xFF
    return in_every_header(data, 14, 16, crc)


def corrupt(data: bytearray) -> bytes:
    start = data.find(b"tenders.csv") + len(b"tenders.csv")
    data[start + 5:start + 40] = b"\xff" * 35
    return bytes(data)


@pytest.mark.parametrize("mangle", [encrypted, unknown_method, wrong_crc, corrupt])
def test_unreadable_zip_entries_are_refused(loaded_app, tmp_path, mangle):
    path = tmp_path / "release.zip"
    path.write_bytes(zip_of(tmp_path, mangle))
    error = rejected(loaded_app, path)
    assert error.problems and all(p.message for p in error.problems)
    json.dumps([p.as_dict() for p in error.problems])
