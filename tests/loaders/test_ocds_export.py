"""The OCDS export: every release a tender of the release's own tables, valid against the official
schemas with the lots and bids extensions, compiled by OCP's own tool, and built once at load time."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import types
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loaders.ekap.importer import import_ekap
from loaders.procurement.load import load_release
from loaders.settings import load_settings
from store.db import create_store_engine, make_session_factory
from store.release_files import ocds_name, read_release_files
from store.schema import upgrade
from tests.conftest import ROOT, SHARED
from tests.ocds_reference import (
    expected_tenders,
    merged_release_schema,
    observed_tender,
    read_tables,
    validate_package,
)

EKAP = SHARED / "fixtures" / "ekap"


def _load(release: Path, database_url: str, files: Path):
    engine = create_store_engine(database_url)
    upgrade(engine)
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
    try:
        return load_release(release, make_session_factory(engine), settings=settings)
    finally:
        engine.dispose()


def _package(files: Path, release_id: int) -> dict:
    stored = read_release_files(files, release_id)
    with gzip.open(stored.by_kind("ocds").path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def assert_equal_to_tables(package: dict, tables_zip: Path) -> None:
    expected = expected_tenders(read_tables(tables_zip))
    releases = {r["tender"]["id"]: r for r in package["releases"]}
    assert releases.keys() == expected.keys()
    for ikn, tender in expected.items():
        assert observed_tender(releases[ikn]) == tender, ikn
    assert len({r["ocid"] for r in package["releases"]}) == len(expected)


@pytest.fixture
def demo(demo_release, loaded_template, loaded_files_dir):
    """The session's synthetic release (600 tenders), as its load stored it: (its ZIP, the files folder,
    its release id). A larger release would check nothing more: the mapping is per tender."""
    (folder,) = (p for p in loaded_files_dir.iterdir() if p.is_dir())
    return demo_release, loaded_files_dir, int(folder.name)


def test_demo_package_is_valid_and_equal_to_its_tables_tender_by_tender(demo):
    release, files, release_id = demo
    package = _package(files, release_id)
    validate_package(package)
    assert package["version"] == "1.1" and package["publishedDate"] == "2026-11-20T06:00:00Z"
    assert "synthetic" in package["publisher"]["name"]
    assert all(r["ocid"].startswith("ocds-gstrge-") for r in package["releases"])
    assert_equal_to_tables(package, release)


def test_stored_files_are_listed_with_their_size_and_digest_and_the_tables_are_the_release_as_loaded(demo):
    release, files, release_id = demo
    stored = read_release_files(files, release_id)
    assert stored.release == "2026-W47" and {f.kind for f in stored.files} == {"tables", "ocds"}
    for f in stored.files:
        data = f.path.read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (f.size, f.sha256)
    with zipfile.ZipFile(stored.by_kind("tables").path) as kept, zipfile.ZipFile(release) as original:
        assert sorted(kept.namelist()) == sorted(Path(n).name for n in original.namelist())
        for name in original.namelist():
            assert kept.read(Path(name).name) == original.read(name), name


def test_ocdskit_compiles_one_record_per_ocid_offline(loaded_template, loaded_files_dir, tmp_path):
    # The package the session's load of the demo release built.
    with gzip.open(next(loaded_files_dir.glob(f"*/{ocds_name('2026-W47')}")), "rt", encoding="utf-8") as handle:
        package = json.load(handle)
    schema = tmp_path / "release-schema.json"
    schema.write_text(json.dumps(merged_release_schema()), encoding="utf-8")
    source = tmp_path / "package.json"
    source.write_text(json.dumps(package, ensure_ascii=False), encoding="utf-8")
    # Any attempt to reach the network goes to a closed port and fails the run.
    env = {**os.environ, "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}
    with open(source, "rb") as stdin:
        compiled = subprocess.run([str(Path(sys.executable).parent / "ocdskit"), "compile", "--schema", str(schema),
                                   "--package"], stdin=stdin, capture_output=True, env=env, timeout=300)
    assert compiled.returncode == 0, compiled.stderr.decode()
    records = json.loads(compiled.stdout)["records"]
    assert sorted(r["ocid"] for r in records) == sorted(r["ocid"] for r in package["releases"])
    by_ocid = {r["ocid"]: r for r in package["releases"]}
    for record in records:
        compiled_release, release = record["compiledRelease"], by_ocid[record["ocid"]]
        assert compiled_release.get("awards") == release.get("awards")
        assert compiled_release["tender"]["lots"] == release["tender"]["lots"]


def test_ekap_release_exports_valid_and_equal_to_its_tables(tmp_path):
    if not EKAP.is_dir():
        pytest.skip("../shared/fixtures/ekap is not beside the project")
    paths = [EKAP / "ihale-mcp", EKAP / "ihalent" / "istanbul-yapim-2025.json", EKAP / "ihalent" / "notices"]
    imported = import_ekap(paths, tmp_path / "ekap.zip", release="2026-W47", now=datetime(2026, 11, 22, 12, tzinfo=UTC),
                           strict=True)
    assert imported.written
    result = _load(imported.out, f"sqlite:///{tmp_path / 'store.db'}", tmp_path / "files")
    package = _package(tmp_path / "files", result.release_id)
    validate_package(package)
    assert "not a publication of the Kamu İhale Kurumu" in package["publisher"]["name"]
    assert_equal_to_tables(package, imported.out)
    methods = {r["tender"]["procurementMethod"] for r in package["releases"]}
    assert methods == {"open", "limited"}  # open tenders, negotiated ones and 4734/3 exceptions


def _gosterge(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], env={**os.environ, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _loaded_env(database_url: str, files: Path, tmp_path: Path) -> dict[str, str]:
    """The command on a copy of the session's loaded demo release, reading its stored files (only reading)."""
    return {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path),
            "GOSTERGE_RELEASE_FILES_DIR": str(files)}


def test_export_command_writes_the_served_or_named_release_as_json_or_gzip(demo_release, loaded_database,
                                                                           loaded_files_dir, tmp_path):
    env = {**_loaded_env(loaded_database, loaded_files_dir, tmp_path), "GOSTERGE_OCID_PREFIX": "ocds-a1b2c3"}
    plain, zipped = tmp_path / "out.json", tmp_path / "out.json.gz"
    done = _gosterge(["export", "ocds", "--out", str(plain)], env)
    assert done.returncode == 0, done.stderr
    named = _gosterge(["export", "ocds", "--release", "2026-W47", "--out", str(zipped)], env)
    assert named.returncode == 0, named.stderr
    package = json.loads(plain.read_text(encoding="utf-8"))
    assert json.loads(gzip.decompress(zipped.read_bytes())) == package
    validate_package(package)
    assert all(r["ocid"].startswith("ocds-a1b2c3-") for r in package["releases"])
    assert_equal_to_tables(package, demo_release)


def test_export_command_says_what_is_wrong_and_writes_nothing(loaded_database, loaded_files_dir, tmp_path):
    empty = {"GOSTERGE_DATABASE_URL": f"sqlite:///{tmp_path / 'empty.db'}", "GOSTERGE_VAR_DIR": str(tmp_path)}
    nothing = _gosterge(["export", "ocds", "--out", str(tmp_path / "a.json")], empty)
    assert nothing.returncode == 1 and "no release is served" in nothing.stderr
    env = _loaded_env(loaded_database, loaded_files_dir, tmp_path)
    unknown = _gosterge(["export", "ocds", "--release", "2019-W01", "--out", str(tmp_path / "a.json")], env)
    assert unknown.returncode == 1 and "no release named '2019-W01'" in unknown.stderr
    suffix = _gosterge(["export", "ocds", "--out", str(tmp_path / "a.xml")], env)
    assert suffix.returncode == 2 and "--out must name a .json or .json.gz file" in suffix.stderr
    prefix = _gosterge(["export", "ocds", "--out", str(tmp_path / "a.json")], {**env, "GOSTERGE_OCID_PREFIX": "ocds-TOOLONG"})
    assert prefix.returncode == 2 and "GOSTERGE_OCID_PREFIX" in prefix.stderr
    assert not list(tmp_path.glob("*.json*")) and not list(tmp_path.glob(".*partial*"))


def test_a_failed_load_leaves_no_files_and_keeps_the_earlier_releases(demo_release, database_url, tmp_path):
    files = tmp_path / "files"
    first = _load(demo_release, database_url, files)
    engine = create_store_engine(database_url)

    def fail(session, release_id):
        raise RuntimeError("the store went away")

    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
    with pytest.raises(RuntimeError, match="went away"):
        load_release(demo_release, make_session_factory(engine), settings=settings, before_commit=fail)
    engine.dispose()
    assert sorted(p.name for p in files.iterdir()) == [str(first.release_id)]
    assert read_release_files(files, first.release_id).by_kind("ocds").path.is_file()


@pytest.mark.parametrize("suffix", [".json.gz", ".json"])
def test_the_package_is_the_same_bytes_whatever_the_number_of_processes(demo_release, tmp_path, monkeypatch, suffix):
    import duckdb

    from loaders.ocds import parts
    from loaders.procurement.release import open_release
    from loaders.procurement.release_files import package_info
    from loaders.procurement.validate import load_raw_tables

    monkeypatch.setattr(parts, "TENDERS_PER_PART", 250)  # 600 tenders: parts of 250, 250 and 100
    # Still needed with the executor: a spawned process first runs the parent's __main__ (multiprocessing's
    # spawn start does, whatever the pool), and in a test process Streamlit's AppTest may have left a
    # dashboard page there, which every child would run and die on: the export would fail, no longer hang
    # (test_a_load_whose_package_worker_dies_fails_and_leaves_nothing), but these bytes would go unchecked.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    settings = load_settings({})
    written = {}
    with open_release(demo_release, workdir=tmp_path) as opened:
        con = duckdb.connect()
        assert load_raw_tables(con, opened) == []
        for processes in (1, 3):
            out = tmp_path / f"{processes}{suffix}"
            assert parts.write_package_file(con, package_info(opened.manifest, settings), out, tmp_path,
                                            processes=processes) == 600
            written[processes] = out.read_bytes()
        con.close()
    assert written[1] == written[3]
    text = gzip.decompress(written[3]) if suffix.endswith(".gz") else written[3]
    package = json.loads(text)
    validate_package(package)
    assert_equal_to_tables(package, demo_release)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"1{suffix}", f"3{suffix}", *(
        p.name for p in tmp_path.iterdir() if p.name.startswith("gosterge-release-"))])


# Run as a script, the `gosterge` command with parts of 250 tenders (the demo's 600 make three, so a
# pool of processes writes them); run again as `__mp_main__` (what a spawned process does with its
# parent's __main__ first), it fails, as a dashboard page left as __main__ by Streamlit would.
CRASHING_CHILDREN = """
import sys

if __name__ != "__main__":
    raise RuntimeError("a worker that cannot start")

from cli import main
from loaders.ocds import parts

parts.TENDERS_PER_PART = 250
sys.exit(main(sys.argv[1:]))
"""


def test_an_export_whose_worker_dies_fails_with_one_line_naming_the_release(loaded_database, loaded_files_dir,
                                                                            tmp_path):
    script = tmp_path / "crashing_children.py"
    script.write_text(CRASHING_CHILDREN, encoding="utf-8")
    env = {"GOSTERGE_DATABASE_URL": loaded_database, "GOSTERGE_VAR_DIR": str(tmp_path),
           "GOSTERGE_RELEASE_FILES_DIR": str(loaded_files_dir), "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out.json.gz"
    # Bounded: a pool that replaces its dead workers would wait for their parts for ever.
    done = subprocess.run([sys.executable, str(script), "export", "ocds", "--out", str(out)],
                          env={**os.environ, **env}, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "a worker that cannot start" in done.stderr  # the worker's own error is shown
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: release 2026-W47: a process writing its OCDS package died"), done.stderr
    assert not list(tmp_path.glob("*.json*")) and not list(tmp_path.glob(".*partial*"))


def test_a_load_whose_package_worker_dies_fails_and_leaves_nothing(demo_release, database_url, tmp_path,
                                                                   monkeypatch):
    import threading

    from sqlalchemy import func, select

    from loaders.ocds import parts
    from store.db import session_scope
    from store.models import Release

    script = tmp_path / "page.py"
    script.write_text('raise RuntimeError("a worker that cannot start")\n', encoding="utf-8")
    crashing = types.ModuleType("__main__")
    crashing.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", crashing)  # each spawned process runs it first, and dies
    monkeypatch.setattr(parts, "TENDERS_PER_PART", 250)
    files = tmp_path / "files"
    engine = create_store_engine(database_url)
    upgrade(engine)
    sessions = make_session_factory(engine)
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
    raised: list[BaseException] = []

    def load() -> None:
        try:
            load_release(demo_release, sessions, settings=settings)
        except BaseException as exc:  # noqa: BLE001  (what the load raised is the test's to check)
            raised.append(exc)

    # In a thread, bounded: a pool that replaces its dead workers would wait for their parts for ever.
    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the load hangs on a dead worker"
    assert [type(e) for e in raised] == [parts.PartWriterDied]
    assert str(raised[0]).startswith("release 2026-W47: a process writing its OCDS package died")
    with session_scope(sessions) as session:
        assert session.scalar(select(func.count()).select_from(Release)) == 0  # not even an incomplete one
    engine.dispose()
    assert not files.exists() or list(files.iterdir()) == []
