"""`gosterge ekap import`: saved EKAP records in, a weekly release and its report out."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from loaders.ekap.base import BaseRelease, read_base
from loaders.ekap.files import list_files
from loaders.ekap.frames import release_tables
from loaders.ekap.goods import GOODS_UNPLACED
from loaders.ekap.inputs import FileResult, is_plainly_not_a_record, read_file
from loaders.ekap.purchases import PurchaseMapper
from loaders.ekap.registry import Registry
from loaders.ekap.report import Report
from loaders.ekap.tables import Mapper, TenderRow
from loaders.ekap.tenders import build_picture, group_records
from loaders.procurement.release import COLUMNS, ReleaseProblem, ReleaseRejectedError, open_release
from loaders.procurement.validate import check_release
from loaders.procurement.writer import Source, write_release

EKAP_SOURCE = Source(
    "Kamu İhale Kurumu (KİK), Elektronik Kamu Alımları Platformu (EKAP): ihale kayıtları ve sonuç ilanları. "
    "Public Procurement Authority of Türkiye, Electronic Public Procurement Platform: tender records and "
    "result notices.", "https://ekap.kik.gov.tr/")
NO_DIRECT_PURCHASES = Source(
    "No direct purchases: no direct-procurement result (doğrudan temin) with a supplier and an amount was "
    "among the imported records (EKAP's announcements and listings name neither), so this file is empty and "
    "the direct-procurement statistics are null.", "https://ekap.kik.gov.tr/")
# A release with no tender would replace the served week with nothing: it is not written, and the
# report says why (every tender kept out or unmapped, or no tender record in the input at all).
NOTHING_TO_RELEASE = "no tender could be released"
PARALLEL_FROM_FILES = 64  # below this, starting worker processes costs more than it saves


class ImportRefusedError(Exception):
    """The command line asks for something the importer cannot do (a future week, a bad base)."""


@dataclass
class ImportResult:
    release: str
    published: datetime
    out: Path
    report_path: Path
    report: Report
    written: bool
    empty: bool = False  # no tender could be released: nothing written (NOTHING_TO_RELEASE)


def release_week(release: str | None, now: datetime) -> tuple[str, datetime]:
    """(release name, publishedAt): this week and now by default; an earlier week is published at
    its last second, so records dated after that week are kept out as the release validation asks."""
    current = now.astimezone(UTC).replace(microsecond=0)
    if release is None:
        iso = current.isocalendar()
        return f"{iso.year}-W{iso.week:02d}", current
    try:
        year, week = release.split("-W")
        monday = date.fromisocalendar(int(year), int(week), 1)
    except ValueError as exc:
        raise ImportRefusedError(f"--release {release!r} is not an ISO week such as 2026-W47") from exc
    end = datetime(monday.year, monday.month, monday.day, tzinfo=UTC) + timedelta(days=7, seconds=-1)
    if monday > current.date():
        raise ImportRefusedError(f"--release {release} is a week that has not started yet")
    return f"{int(year)}-W{int(week):02d}", min(end, current)


def read_inputs(files: list[Path], *, workers: int | None = None) -> list[FileResult]:
    """Every file read, on every core for a large input; results stay in input order."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(files) < PARALLEL_FROM_FILES:
        return [read_file(path, i) for i, path in enumerate(files)]
    chunk = max(1, len(files) // (workers * 16))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(read_file, files, range(len(files)), chunksize=chunk))


def map_records(results: list[FileResult], registry: Registry, report: Report, published: date,
                goods_unplaced: str = "fallback") -> tuple[list[TenderRow], list[dict[str, str]]]:
    """The tenders' rows and the direct purchases' rows of every file read."""
    for result in results:
        report.inputs.append({"file": result.file, "shape": result.shape, "records": len(result.records)})
        report.extend(result.entries)
    groups = group_records([r for result in results for r in result.records], report)
    mapper = Mapper(registry, report, published, goods_unplaced)
    rows = []
    for group in groups:
        row, trace = mapper.map(build_picture(group, report))
        report.tenders.append(trace)
        if row is not None:
            rows.append(row)
    direct = [d for result in results for d in result.direct]
    purchases = PurchaseMapper(registry, report, published, goods_unplaced).rows(direct)
    return rows, purchases


def import_ekap(paths: list[Path], out: Path, *, release: str | None = None, base: Path | None = None,
                report_path: Path | None = None, strict: bool = False, now: datetime | None = None,
                workers: int | None = None, exclude: list[str] | None = None,
                goods_unplaced: str = "fallback") -> ImportResult:
    """Read the records, map them, and write the release and the report (only the report when
    `strict` and anything could not be mapped); files matching an `exclude` glob are not read;
    `goods_unplaced` says what becomes of goods their name places in no one sector (GOODS_UNPLACED)."""
    if goods_unplaced not in GOODS_UNPLACED:
        raise ImportRefusedError(f"--goods-unplaced {goods_unplaced!r} is not one of {', '.join(GOODS_UNPLACED)}")
    name, published = release_week(release, now or datetime.now(UTC))
    report_path = report_path or out.with_name(out.name.removesuffix(".zip") + ".report.json")
    registry, report = Registry(), Report()
    listing = list_files(paths, exclude)
    files = [path for path in listing.files if not is_plainly_not_a_record(path)]
    report.skipped = [str(path) for path in listing.files if is_plainly_not_a_record(path)]
    report.excluded = listing.excluded
    previous = read_base(base, registry) if base else BaseRelease()
    if previous.release and previous.release >= name:
        raise ImportRefusedError(_week_served(name, previous.release, base, published))
    refused = [FileResult(str(path), "none").refuse(exc.reason, str(exc)) for path, exc in listing.refused]
    rows, purchases = map_records(refused + read_inputs(files, workers=workers), registry, report, published.date(),
                                   goods_unplaced)
    tables = release_tables(rows, previous, registry, report, purchases)
    refused_files = sum(1 for i in report.inputs if i["shape"] == "none")
    report.counts = {"files": len(files) + len(listing.refused), "filesRefused": refused_files,
                     "filesSkipped": len(report.skipped), "filesExcluded": len(report.excluded),
                     "tenders": len(tables["tenders.csv"]),
                     "tendersKeptOut": sum(1 for t in report.tenders if t["status"] == "kept-out"),
                     "awardedLots": int(tables["awards.csv"]["contractor_id"].notna().sum()),
                     "directPurchases": len(tables["direct_purchases.csv"]),
                     "authorities": len(tables["authorities.csv"]), "contractors": len(tables["contractors.csv"])}
    empty = tables["tenders.csv"].empty
    written = not (strict and report.unmapped_count) and not empty
    if written:
        sources = {file: _source(file, previous, bool(purchases)) for file in COLUMNS}
        written = _write_checked(tables, out, report, release=name, published=published, sources=sources)
    report.write(report_path, release=name, publishedAt=published.isoformat(), out=str(out), written=written,
                 base=str(base) if base else None, **({"refused": NOTHING_TO_RELEASE} if empty else {}))
    return ImportResult(name, published, out, report_path, report, written, empty)


def _write_checked(tables: dict, out: Path, report: Report, *, release: str, published: datetime,
                   sources: dict[str, Source]) -> bool:
    """Write the release beside `out`, check it with the loader's own validation, and only then put
    it in place. The mapping rules already keep out what the loader refuses; this is the net under
    them, so an importer's release is never one `gosterge load procurement` refuses. A problem is
    reported with the İKN of its row and the files the tender was read from."""
    checking = out.with_name(f".checking-{out.name}")  # the same suffix: a ZIP, or a directory
    write_release(tables, checking, release=release, published=published, synthetic=False, sources=sources)
    try:
        with open_release(checking) as opened:
            check_release(opened)
    except ReleaseRejectedError as exc:
        checking.unlink(missing_ok=True)
        files = {t["ikn"]: ", ".join(t.get("files", [])) for t in report.tenders}
        for problem in exc.problems:
            ikn = _row_tender(tables, problem)
            report.unmapped("release-refused", f"the loader would refuse the release: {problem.file} row "
                            f"{problem.row}, {problem.column}: {problem.message}; no release written",
                            file=files.get(ikn, "") if ikn else "", ikn=ikn, field=problem.column)
        return False
    os.replace(checking, out)
    return True


def _row_tender(tables: dict, problem: ReleaseProblem) -> str | None:
    """The İKN of the tender or award row a problem names, or None."""
    if problem.file not in ("tenders.csv", "awards.csv") or not problem.row:
        return None
    frame = tables[problem.file]
    index = problem.row - 2  # the header is row 1
    return str(frame.iloc[index]["tender_id"]) if 0 <= index < len(frame) else None


def _week_served(name: str, served: str, base: Path | None, published: datetime) -> str:
    """Why a release cannot follow a base of its own week (or a later one), and what to do instead.

    A release is named by its ISO week alone (procurement-statistics.md), so a second release of a
    week would be served under the same name as the first and could not be told apart from it."""
    following = (published + timedelta(days=7)).isocalendar()
    return (f"week {name} is already released as {base} ({served}): a second release of a week could not be "
            f"told apart from the first. To replace week {name}, import all its records again with --base set to "
            f"the release of the week before; to add these records, import them with --release "
            f"{following.year}-W{following.week:02d} and --base {base} once that week has started")


def _source(file: str, previous: BaseRelease, read: bool) -> Source:
    if file == "direct_purchases.csv" and not read:
        if previous.direct_purchases:
            return Source(*previous.citations[file])
        return NO_DIRECT_PURCHASES
    return EKAP_SOURCE
