"""Opening a weekly release (ZIP or directory): archive safety checks and the manifest."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from store.plaintext import hidden_character

# file -> the columns it must have, in the order the spec lists them.
COLUMNS: dict[str, list[str]] = {
    "authorities.csv": ["authority_id", "name", "authority_type", "province"],
    "contractors.csv": ["contractor_id", "name", "province"],
    "tenders.csv": ["tender_id", "authority_id", "tender_date", "procedure", "sector", "estimated_cost", "lots"],
    "awards.csv": ["tender_id", "lot", "bids", "contractor_id", "contract_value"],
    "direct_purchases.csv": ["purchase_id", "authority_id", "purchase_date", "sector", "supplier_id", "amount"],
}
# file -> the columns it may have besides: a release without them stays valid. `name` is the tender's
# name (İhale Adı), which awards carry as `tenderName` when the release has the column.
OPTIONAL_COLUMNS: dict[str, list[str]] = {"tenders.csv": ["name"]}
MANIFEST = "manifest.json"
EXPECTED_FILES = frozenset([MANIFEST, *COLUMNS])
MAX_UNCOMPRESSED_BYTES = 8 * 1024**3
MAX_COMPRESSION_RATIO = 200  # CSV compresses 5-20x; far beyond that is a decompression bomb
MAX_PROBLEMS = 1000


@dataclass(frozen=True)
class ReleaseProblem:
    """One reason a release was rejected, located as precisely as possible."""

    file: str
    message: str
    row: int | None = None  # line number in the file, the header being row 1
    column: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "row": self.row, "column": self.column, "message": self.message}


class ReleaseRejectedError(Exception):
    """The release was refused; nothing was stored."""

    def __init__(self, problems: list[ReleaseProblem], total: int | None = None):
        self.problems = problems[:MAX_PROBLEMS]
        self.total = total if total is not None else len(problems)
        first = f"; first: {problems[0].file}: {problems[0].message}" if problems else ""
        super().__init__(f"release rejected: {self.total} problem(s){first}")


@dataclass
class Manifest:
    release: str
    published_at: datetime
    synthetic: bool
    datasets: list[dict[str, Any]]


@dataclass
class OpenedRelease:
    manifest: Manifest
    directory: Path
    _tempdir: Path | None = field(default=None, repr=False)
    archive: Path | None = None  # the ZIP it was unpacked from; None for a directory

    def close(self) -> None:
        if self._tempdir is not None:
            shutil.rmtree(self._tempdir, ignore_errors=True)

    def __enter__(self) -> OpenedRelease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_release(path: Path, *, workdir: Path | None = None) -> OpenedRelease:
    """Open a release directory or ZIP archive (unpacked under `workdir`, or the system's temporary
    folder); raise ReleaseRejectedError for an unusable one."""
    path = Path(path)
    if path.is_dir():
        return OpenedRelease(read_manifest(path), path)
    if not path.is_file():
        raise ReleaseRejectedError([ReleaseProblem(str(path), "no such file or directory")])
    tempdir = Path(tempfile.mkdtemp(prefix="gosterge-release-", dir=workdir))
    try:
        extract_archive(path, tempdir)
        return OpenedRelease(read_manifest(tempdir), tempdir, tempdir, path)
    except BaseException:
        shutil.rmtree(tempdir, ignore_errors=True)
        raise


def extract_archive(archive: Path, target: Path) -> None:
    """Extract only the expected files, refusing path escapes and decompression bombs."""
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ReleaseRejectedError([ReleaseProblem(archive.name, f"not a readable ZIP archive ({exc})")]) from exc
    with zf:
        problems: list[ReleaseProblem] = []
        members: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in zf.infolist():
            if info.is_dir():
                continue
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
                problems.append(ReleaseProblem(info.filename, "path leaves the archive"))
                continue
            # Releases may be zipped with or without a top-level folder; files are matched by name.
            if name.name not in EXPECTED_FILES or len(name.parts) > 2:
                problems.append(ReleaseProblem(info.filename, f"unexpected file; a release holds only {', '.join(sorted(EXPECTED_FILES))}"))
                continue
            if name.name in members:
                problems.append(ReleaseProblem(info.filename, "appears twice in the archive"))
                continue
            if info.compress_size and info.file_size / info.compress_size > MAX_COMPRESSION_RATIO:
                problems.append(ReleaseProblem(info.filename, "compression ratio is implausibly high (decompression bomb?)"))
                continue
            total += info.file_size
            members[name.name] = info
        if total > MAX_UNCOMPRESSED_BYTES:
            problems.append(ReleaseProblem(archive.name, f"uncompressed size {total} bytes exceeds {MAX_UNCOMPRESSED_BYTES}"))
        if problems:
            raise ReleaseRejectedError(problems)
        for name, info in members.items():
            try:
                _copy_member(zf, info, target / name)
            except (RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
                # What zipfile raises for entries it cannot read: RuntimeError for an encrypted one,
                # NotImplementedError for a compression method it does not know, BadZipFile, zlib.error
                # or EOFError for corrupt data, BadZipFile for a wrong CRC.
                raise ReleaseRejectedError([ReleaseProblem(name, f"cannot be read from the archive ({exc})")]) from None


def _copy_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> None:
    with zf.open(info) as source, open(path, "wb") as sink:
        # Copy with a byte budget: the header sizes can lie.
        budget = info.file_size
        while chunk := source.read(1 << 20):
            budget -= len(chunk)
            if budget < 0:
                raise ReleaseRejectedError([ReleaseProblem(path.name, "larger than its archive header says")])
            sink.write(chunk)


def _url_problem(url: Any) -> str | None:
    """Why a dataset's address cannot be served as a link (/datasets, the dashboard), or None: only
    an http(s) URL with a host, written without spaces or invisible characters (no `javascript:`).
    An empty one says the address is not known, as a missing one does."""
    if not isinstance(url, str):
        return "must be a string"
    if url == "":
        return None
    try:
        parsed = urlsplit(url)
        host = parsed.hostname
    except ValueError:  # an unclosed [ of an IPv6 address, a port that is no number
        host = None
    if not host or parsed.scheme.lower() not in ("http", "https"):
        return "must be an http or https URL such as https://ekap.kik.gov.tr/"
    if hidden := hidden_character(url):
        return f"must not contain controls or invisible characters ({hidden})"
    if any(c.isspace() for c in url):
        return "must not contain spaces (write them as %20)"
    return None


def read_manifest(directory: Path) -> Manifest:
    path = directory / MANIFEST
    if not path.is_file():
        raise ReleaseRejectedError([ReleaseProblem(MANIFEST, "missing")])
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReleaseRejectedError([ReleaseProblem(MANIFEST, f"not valid JSON: {exc}")]) from exc
    except RecursionError:  # a manifest is a flat object; thousands of nested brackets are an attack
        raise ReleaseRejectedError([ReleaseProblem(MANIFEST, "nested too deeply (a manifest is a flat JSON "
                                                             "object with a list of datasets)")]) from None
    problems: list[ReleaseProblem] = []

    def bad(column: str, message: str) -> None:
        problems.append(ReleaseProblem(MANIFEST, message, column=column))

    if not isinstance(data, dict):
        raise ReleaseRejectedError([ReleaseProblem(MANIFEST, "must be a JSON object")])
    release = data.get("release")
    if not isinstance(release, str) or not re.fullmatch(r"[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])", release):
        bad("release", "must be an ISO week such as 2026-W47")
    published_at = None
    raw_published = data.get("publishedAt")
    try:
        published_at = datetime.fromisoformat(str(raw_published).replace("Z", "+00:00"))
        if published_at.tzinfo is None:
            published_at = published_at.replace(tzinfo=UTC)
        published_at = published_at.astimezone(UTC)  # past the calendar's edge: OverflowError
        if not 2019 <= published_at.year <= 9998:
            raise ValueError
    except (ValueError, OverflowError):
        published_at = None
        bad("publishedAt", "must be an ISO 8601 time such as 2026-11-20T06:00:00Z, from 2019 on")
    synthetic = data.get("synthetic", False)
    if not isinstance(synthetic, bool):
        bad("synthetic", "must be true or false")
    datasets = data.get("datasets")
    listed: dict[str, dict[str, Any]] = {}
    if not isinstance(datasets, list):
        bad("datasets", "must be a list of datasets")
        datasets = []
    for i, entry in enumerate(datasets):
        where = f"datasets[{i}]"
        if not isinstance(entry, dict):
            bad(where, "must be an object")
            continue
        for key in ("name", "file", "citation"):
            if not isinstance(entry.get(key), str) or not entry.get(key):
                bad(f"{where}.{key}", "must be a non-empty string")
            elif hidden := hidden_character(entry[key]):
                bad(f"{where}.{key}", f"must not contain controls or invisible characters ({hidden})")
        rows = entry.get("rows")
        if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
            bad(f"{where}.rows", "must be a whole number of data rows")
        if "url" in entry and (reason := _url_problem(entry["url"])):
            bad(f"{where}.url", reason)
        file = entry.get("file")
        if isinstance(file, str):
            if file not in COLUMNS:
                bad(f"{where}.file", f"unknown file {file!r}; expected one of {', '.join(COLUMNS)}")
            elif file in listed:
                bad(f"{where}.file", f"{file} is listed twice")
            else:
                listed[file] = entry
    for file in COLUMNS:
        if file not in listed:
            bad("datasets", f"{file} is not listed")
    if problems:
        raise ReleaseRejectedError(problems)
    assert published_at is not None
    return Manifest(release, published_at, synthetic, list(listed.values()))
