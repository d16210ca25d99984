"""The files a release offers for download, built once when it is loaded: its tables as uploaded
(the manifest and the five CSVs, zipped) and its OCDS release package (gzip). store/release_files.py
keeps them; this module makes their contents."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import duckdb

from loaders.ocds.package import PackageInfo
from loaders.ocds.parts import write_package_file
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


def package_info(manifest: Manifest, settings: LoaderSettings) -> PackageInfo:
    return PackageInfo(manifest.release, manifest.published_at, manifest.synthetic, settings.ocid_prefix,
                       settings.public_base_url, settings.ocds_license, settings.ocds_policy)


def write_tables_zip(opened: OpenedRelease, path: Path) -> None:
    """The release's files byte for byte as loaded: unzipped, they load again as the same release."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name in (MANIFEST, *COLUMNS):
            archive.write(opened.directory / name, arcname=name)


def build_release_files(con: duckdb.DuckDBPyConnection, opened: OpenedRelease, release_id: int,
                        settings: LoaderSettings) -> Path:
    """Build the files aside and publish them whole; on any failure nothing is left behind.

    `con` holds the release's `raw_*` tables (loaders/procurement/validate.py)."""
    root, release = settings.release_files_dir, opened.manifest.release
    building = building_folder(root, release_id)
    try:
        tables = building / tables_name(release)
        write_tables_zip(opened, tables)
        files: list[ReleaseFile] = [describe_file(tables, "tables", "application/zip")]
        ocds = building / ocds_name(release)
        tenders = write_package_file(con, package_info(opened.manifest, settings), ocds, building)
        # A package holds at least one release (the schema's minItems): a release without tenders has none.
        if tenders:
            files.append(describe_file(ocds, "ocds", "application/gzip"))
        else:
            ocds.unlink()
        return publish_release_files(root, release_id, release, building, files)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
