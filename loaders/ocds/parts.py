"""Writing a package with every core: the tenders, grouped once by DuckDB and saved in İKN order,
are cut into consecutive ranges of a fixed size, each turned into releases (and compressed) by one of
a pool of processes; the pieces are then joined in order, so the bytes do not depend on the number of
processes.

Building the releases in Python is most of the export's CPU (about 100 µs a tender), and one Python
process uses one core: on two cores two processes halve the national export's time.

The pool is a `ProcessPoolExecutor`, not a `multiprocessing.Pool`: a Pool replaces a worker that dies
(killed, or crashing as it starts) and waits for its part for ever, while the executor fails every part
left, which ends the export or the load with `PartWriterDied` instead of hanging.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import duckdb

from loaders.ocds.package import (
    FOOTER,
    PackageInfo,
    header_text,
    open_part,
    tender_query,
    tender_rows,
    write_releases,
)

# Tenders per part: the parts depend on the release alone, never on the number of processes, so that
# the same release always gives the same bytes (each part is a gzip member of its own).
TENDERS_PER_PART = 250_000


class PartWriterDied(RuntimeError):
    """A process writing part of a package ended without finishing it; the message names the release."""


def write_part(tenders: str, offset: int, limit: int, path: str, info: PackageInfo, compressed: bool) -> int:
    con = duckdb.connect()
    try:
        con.execute("SET threads = 1")  # one core per process: the processes share the machine's
        cursor = con.execute("SELECT * FROM read_parquet(?) LIMIT ? OFFSET ?", [tenders, limit, offset])
        with open_part(Path(path), compressed) as sink:
            return write_releases(tender_rows(cursor), info, sink)
    finally:
        con.close()


def _ranges(total: int) -> list[tuple[int, int]]:
    """(offset, limit) of each part: consecutive, together every tender once."""
    parts = max(1, -(-total // TENDERS_PER_PART))
    edges = [min(total, TENDERS_PER_PART * i) for i in range(parts + 1)]
    return [(edges[i], edges[i + 1] - edges[i]) for i in range(parts)]


def save_tenders(con: duckdb.DuckDBPyConnection, info: PackageInfo, work: Path, compressed: bool) -> list[tuple]:
    """Save the tenders of the `raw_*` tables in `con` under `work`, grouped and in İKN order, and
    return the jobs that write the package's parts from them: the arguments of `write_part`, in order."""
    tenders = work / "tenders.parquet"
    con.execute(f"COPY ({tender_query(con)}) TO '{_quoted(tenders)}' (FORMAT parquet)")
    total = con.execute("SELECT count(*) FROM read_parquet(?)", [str(tenders)]).fetchall()[0][0]
    return [(str(tenders), offset, limit, str(work / f"part-{i}"), info, compressed)
            for i, (offset, limit) in enumerate(_ranges(total))]


def write_package_file(con: duckdb.DuckDBPyConnection, info: PackageInfo, out: Path, workdir: Path,
                       processes: int | None = None) -> int:
    """Write the package of the `raw_*` tables in `con` to `out` (gzip when it ends in .gz), using
    `workdir` for the pieces; returns the number of releases (tenders)."""
    compressed = out.suffix == ".gz"
    work = Path(workdir) / f"ocds-{os.getpid()}-{os.urandom(4).hex()}"
    work.mkdir(parents=True)
    try:
        jobs = save_tenders(con, info, work, compressed)
        processes = min(len(jobs), processes or os.cpu_count() or 1)
        if processes == 1:
            counts = [write_part(*job) for job in jobs]
        else:
            counts = _write_parts(jobs, processes, info.release_name)
        join_parts(jobs, counts, out)
        return sum(counts)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def spawning_pool(processes: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    # spawn, not fork: a forked child would inherit DuckDB's threads and locks mid-flight, and the
    # threads of the process exporting (the API's, a load job's heartbeat). Not forkserver either: its
    # server imports the parent's __main__ once for all children, so one bad import breaks every export
    # after it, where spawn's children each start clean.
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"), initializer=initializer)


def part_results(futures: list[Future[int]], release: str) -> list[int]:
    """The number of releases of each part, in order, once written; a process that died is `PartWriterDied`."""
    try:
        return [future.result() for future in futures]
    except BrokenProcessPool as exc:
        raise PartWriterDied(f"release {release}: a process writing its OCDS package died before finishing "
                             "its part (killed, or failed as it started: its own error is above)") from exc


def _write_parts(jobs: list[tuple], processes: int, release: str) -> list[int]:
    pool = spawning_pool(processes)
    try:
        return part_results([pool.submit(write_part, *job) for job in jobs], release)
    finally:
        # A part that failed fails the package: the parts not started are not written.
        pool.shutdown(wait=True, cancel_futures=True)


def join_parts(jobs: list[tuple], counts: list[int], out: Path) -> None:
    """The header, the parts with a `,` between two that hold releases, and the footer, in order, to `out`."""
    _, _, _, first_part, info, compressed = jobs[0]
    work = Path(first_part).parent
    with open(out, "wb") as sink:
        _copy_text(work / "header", header_text(info), compressed, sink)
        first = True
        for job, count in zip(jobs, counts, strict=True):
            if not count:
                continue
            if not first:
                _copy_text(work / "comma", ",", compressed, sink)
            first = False
            _copy(Path(job[3]), sink)
        _copy_text(work / "footer", FOOTER, compressed, sink)


def _copy_text(path: Path, text: str, compressed: bool, sink) -> None:  # noqa: ANN001
    with open_part(path, compressed) as piece:
        piece.write(text.encode("utf-8"))
    _copy(path, sink)


def _copy(path: Path, sink) -> None:  # noqa: ANN001
    with open(path, "rb") as source:
        shutil.copyfileobj(source, sink, 1 << 20)


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
