"""`gosterge export ocds`: a stored release's OCDS package, rebuilt from its tables as loaded (so the
current settings' ocid prefix, licence and addresses apply) and written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import duckdb

from loaders.ocds.parts import PartWriterDied, write_package_file
from loaders.procurement.release import open_release
from loaders.procurement.release_files import package_info
from loaders.procurement.validate import load_raw_tables
from loaders.settings import LoaderSettings

SUFFIXES = (".json", ".json.gz")
DUCKDB_MEMORY_LIMIT = "2GB"
EXPORTED_FILES = ("authorities.csv", "contractors.csv", "tenders.csv", "awards.csv")


class ExportError(Exception):
    """The export cannot be made; the message says why and what to do."""


def check_output(out: Path) -> None:
    if not any(out.name.endswith(suffix) for suffix in SUFFIXES) or out.name in SUFFIXES:
        raise ExportError(f"--out must name a .json or .json.gz file, not {str(out)!r}")
    if not out.parent.is_dir():
        raise ExportError(f"--out: the folder {str(out.parent)!r} does not exist")


def export_package(tables_zip: Path, out: Path, settings: LoaderSettings) -> int:
    """Write the package of the release in `tables_zip` to `out`; returns its number of releases (tenders)."""
    check_output(out)
    with tempfile.TemporaryDirectory(prefix="gosterge-ocds-") as work, \
            open_release(tables_zip, workdir=Path(work)) as opened:
        con = duckdb.connect()
        try:
            con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
            con.execute("SET temp_directory = ?", [str(Path(work) / "duckdb")])
            # Direct purchases are not tenders: the ten million rows of a national release are not read.
            problems = load_raw_tables(con, opened, files=EXPORTED_FILES)
            if problems:
                raise ExportError(f"the stored tables of release {opened.manifest.release} cannot be read: "
                                  f"{problems[0].file}: {problems[0].message}")
            if con.execute("SELECT count(*) FROM raw_tenders").fetchall()[0][0] == 0:
                raise ExportError(f"release {opened.manifest.release} has no tenders: an OCDS package needs at least one")
            # Written beside the target and renamed: a failed export leaves no half-written file.
            partial = out.with_name(f".{out.name}.{os.getpid()}.partial{''.join(out.suffixes[-1:])}")
            try:
                count = write_package_file(con, package_info(opened.manifest, settings), partial, Path(work))
                os.replace(partial, out)
            except PartWriterDied as exc:
                raise ExportError(str(exc)) from exc
            finally:
                partial.unlink(missing_ok=True)
            return count
        finally:
            con.close()
