"""Writing a weekly release: the five CSV files and the manifest, as a ZIP or a directory. The
synthetic generator and the EKAP importer both write through here, so a release is written one way."""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb
import pandas as pd

from loaders.procurement.release import COLUMNS, MANIFEST, OPTIONAL_COLUMNS
from store.times import format_utc


@dataclass(frozen=True)
class Source:
    """Where a file's rows come from: the text its publisher asks users to cite, and the address."""

    citation: str
    url: str


def write_release(tables: dict[str, pd.DataFrame], out: Path, *, release: str, published: datetime,
                  synthetic: bool, sources: dict[str, Source]) -> Path:
    """Write the tables and the manifest as a ZIP release (or a directory when `out` has no .zip
    suffix). Empty cells (None) are written as empty fields; an optional column (OPTIONAL_COLUMNS) is
    written when its table has it. The ZIP appears only when complete."""
    out = Path(out)
    zipped = out.suffix == ".zip"
    workdir = Path(tempfile.mkdtemp(prefix="gosterge-release-")) if zipped else out
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        datasets = _write_tables(tables, workdir, sources)
        manifest = {"release": release, "publishedAt": format_utc(published), "synthetic": synthetic,
                    "datasets": datasets}
        (workdir / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
        if zipped:
            _zip(workdir, out)
    finally:
        if zipped:
            shutil.rmtree(workdir, ignore_errors=True)
    return out


def _write_tables(tables: dict[str, pd.DataFrame], workdir: Path, sources: dict[str, Source]) -> list[dict]:
    con = duckdb.connect()
    datasets = []
    try:
        for file, columns in COLUMNS.items():
            frame = tables[file][columns + [c for c in OPTIONAL_COLUMNS.get(file, []) if c in tables[file]]]
            con.register("frame", frame)
            con.execute(f"COPY (SELECT * FROM frame) TO '{workdir / file}' (HEADER, DELIMITER ',', QUOTE '\"')")
            con.unregister("frame")
            source = sources[file]
            datasets.append({"name": file.removesuffix(".csv"), "file": file, "rows": len(frame),
                             "citation": source.citation, "url": source.url})
    finally:
        con.close()
    return datasets


def _zip(workdir: Path, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in [MANIFEST, *COLUMNS]:
            zf.write(workdir / name, name)
    partial.replace(out)
