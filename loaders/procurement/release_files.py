"""The files a release offers for download, built once when it is loaded: its tables as uploaded
(the manifest and the five CSVs, zipped) and its OCDS release package (gzip). store/release_files.py
keeps them; this module makes their contents.

They depend on the release's files and its `raw_*` tables in DuckDB only, never on the store, so a
large release's are built by a pool of processes while the load computes and writes its tables
(on PostgreSQL, mostly the server's work on the other core): the load waits for them before it
completes the release, so that /downloads lists them as soon as the release is served."""

from __future__ import annotations

import logging
import os
import shutil
import time
import zipfile
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import duckdb

from loaders.ocds.package import PackageInfo
from loaders.ocds.parts import (
    PartWriterDied,
    join_parts,
    part_results,
    save_tenders,
    spawning_pool,
    write_part,
)
from loaders.procurement.release import COLUMNS, MANIFEST, Manifest, OpenedRelease
from loaders.settings import LoaderSettings
from store.release_files import (
    ReleaseFile,
    building_folder,
    describe_file,
    ocds_name,
    publish_release_files,
    tables_name,
)

log = logging.getLogger("gosterge.loaders.procurement")
# The pool's processes give way to the load's own process and to the API's: the files are needed
# only when the release completes, and until then they use what CPU the load leaves idle (while
# the database builds its indexes, say) instead of slowing its every stage, or the answers served.
BACKGROUND_NICENESS = 5
# The package's pieces, in the folder being built; removed before it is published.
WORK = "ocds"
END_RECORD = 22  # bytes of a ZIP file's end of central directory record, without a comment


def package_info(manifest: Manifest, settings: LoaderSettings) -> PackageInfo:
    return PackageInfo(manifest.release, manifest.published_at, manifest.synthetic, settings.ocid_prefix,
                       settings.public_base_url, settings.ocds_license, settings.ocds_policy)


def _write_tables_zip(directory: Path, path: Path) -> None:
    """The release's files byte for byte as loaded: unzipped, they load again as the same release."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name in (MANIFEST, *COLUMNS):
            archive.write(Path(directory) / name, arcname=name)


def is_tables_zip(archive: Path) -> bool:
    """Whether an uploaded archive is already what `_write_tables_zip` writes: the six files at its
    root, stored or deflated, with nothing before its first entry nor after its end record."""
    with zipfile.ZipFile(archive) as zipped, open(archive, "rb") as raw:
        infos = zipped.infolist()
        raw.seek(-END_RECORD, os.SEEK_END)
        end = raw.read(END_RECORD)
    return (sorted(i.filename for i in infos) == sorted((MANIFEST, *COLUMNS))
            and all(i.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) for i in infos)
            and min(i.header_offset for i in infos) == 0
            and end[:4] == b"PK\x05\x06" and end[-2:] == b"\x00\x00")  # the end record, with no comment


def _tables_file(directory: str, archive: str | None, path: str) -> ReleaseFile:
    # An upload that is already the tables file is copied: compressing its 700 MB of CSV again
    # (a national release) took half a minute of CPU for the same files.
    if archive is not None and is_tables_zip(Path(archive)):
        shutil.copyfile(archive, path)
    else:
        _write_tables_zip(Path(directory), Path(path))
    return describe_file(Path(path), "tables", "application/zip")


def _in_background() -> None:
    os.nice(BACKGROUND_NICENESS)


def _done(value: object) -> Future:
    done: Future = Future()
    done.set_result(value)
    return done


class ReleaseFilesBuild:
    """A release's download files being built in `building`: by `pool`'s processes when it has one,
    or already built (the futures done). `publish()` waits for them and puts them in place;
    `discard()` stops them and removes every file they wrote."""

    def __init__(self, root: Path, release_id: int, release: str, building: Path, pool: ProcessPoolExecutor | None):
        self.root, self.release_id, self.release, self.building, self.pool = root, release_id, release, building, pool
        self.tables: Future[ReleaseFile] = Future()
        self.jobs: list[tuple] = []
        self.parts: list[Future[int]] = []
        self.started = time.perf_counter()

    def publish(self) -> Path:
        """Wait for the files, join the package's parts and put the files in place whole."""
        try:
            waited = time.perf_counter()
            counts = part_results(self.parts, self.release)
            try:
                tables = self.tables.result()
            except BrokenProcessPool as exc:
                raise PartWriterDied(f"release {self.release}: the process writing its tables ZIP died before "
                                     "finishing it (killed, or failed as it started: its own error is above)") from exc
            self._stop()
            files = [tables]
            ocds = self.building / ocds_name(self.release)
            # A package holds at least one release (the schema's minItems): a release without tenders has none.
            if sum(counts):
                join_parts(self.jobs, counts, ocds)
                files.append(describe_file(ocds, "ocds", "application/gzip"))
            shutil.rmtree(self.building / WORK, ignore_errors=True)
            published = publish_release_files(self.root, self.release_id, self.release, self.building, files)
            log.info("download files built and published %.1f s after they were begun, %.1f s of it waited for",
                     time.perf_counter() - self.started, time.perf_counter() - waited)
            return published
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Stop the processes still writing (a part takes tens of seconds at national size), then
        remove the folder: once they have ended, nothing can write in it again."""
        if self.pool is not None:
            # ProcessPoolExecutor has no public way to end running work before Python 3.14.
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                process.terminate()
        self._stop()
        shutil.rmtree(self.building, ignore_errors=True)

    def _stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def start_release_files(con: duckdb.DuckDBPyConnection, opened: OpenedRelease, release_id: int,
                        settings: LoaderSettings) -> ReleaseFilesBuild:
    """Start building the release's files aside; `con` holds its `raw_*` tables
    (loaders/procurement/validate.py), whose tenders are saved at once, so that `con` is free again
    when this returns. A package of more than one part (loaders/ocds/parts.py) is built, with the
    tables ZIP, by processes of their own; a smaller one here and now, as starting processes would
    cost more than it saves. On any failure nothing is left behind."""
    root, release = settings.release_files_dir, opened.manifest.release
    build = ReleaseFilesBuild(root, release_id, release, building_folder(root, release_id), None)
    try:
        work = build.building / WORK
        work.mkdir()
        compressed = ocds_name(release).endswith(".gz")
        build.jobs = save_tenders(con, package_info(opened.manifest, settings), work, compressed)
        log.info("tenders of the package saved in %.1f s", time.perf_counter() - build.started)
        archive = None if opened.archive is None else str(opened.archive)
        tables = (str(opened.directory), archive, str(build.building / tables_name(release)))
        if len(build.jobs) == 1:
            build.tables = _done(_tables_file(*tables))
            build.parts = [_done(write_part(*build.jobs[0]))]
            return build
        build.pool = spawning_pool(min(len(build.jobs) + 1, os.cpu_count() or 1), initializer=_in_background)
        # The tables first: one job of its own, about as long as a part.
        build.tables = build.pool.submit(_tables_file, *tables)
        build.parts = [build.pool.submit(write_part, *job) for job in build.jobs]
        return build
    except BaseException:
        build.discard()
        raise
