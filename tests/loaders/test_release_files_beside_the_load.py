"""A large release's download files are built by processes of their own while the load computes and
writes its tables (loaders/procurement/release_files.py): the same bytes as when built in the load's
own process, in place before the release is served, and nothing of them left when the load fails."""

from __future__ import annotations

import gzip
import io
import json
import multiprocessing
import sys
import time
import types
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from loaders.ocds import parts
from loaders.procurement import load as load_module
from loaders.procurement.load import load_release
from loaders.procurement.release import COLUMNS
from loaders.procurement.release import MANIFEST as MANIFEST_NAME
from loaders.settings import load_settings
from store.db import create_store_engine, make_session_factory, session_scope
from store.models import Release
from store.release_files import MANIFEST, read_release_files
from store.releases import get_active_release
from store.schema import upgrade


@pytest.fixture
def in_parts(monkeypatch):
    """The demo's 600 tenders in parts of 250: three parts, so that processes build the files."""
    monkeypatch.setattr(parts, "TENDERS_PER_PART", 250)
    # A spawned process first runs the parent's __main__, which in a test process may be anything
    # (a dashboard page left by Streamlit's AppTest): an empty one instead.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))


def _sessions(database_url: str):
    engine = create_store_engine(database_url)
    upgrade(engine)
    return make_session_factory(engine)


def _manifest(files: Path, release_id: int) -> dict:
    return json.loads((files / str(release_id) / MANIFEST).read_text(encoding="utf-8"))


def test_files_built_by_processes_beside_the_load_are_those_built_in_its_own_process(
        demo_release, database_url, tmp_path, monkeypatch):
    built = {}
    for label in ("own process", "processes"):
        if label == "processes":
            monkeypatch.setattr(parts, "TENDERS_PER_PART", 250)
            monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
        files = tmp_path / label
        sessions = _sessions(database_url if label == "processes" else f"sqlite:///{tmp_path / 'own.db'}")
        settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
        release_id = load_release(demo_release, sessions, settings=settings).release_id
        sessions.kw["bind"].dispose()
        # Published whole: the files and their manifest, none of the package's pieces, no folder aside.
        assert sorted(p.name for p in files.iterdir()) == [str(release_id)]
        assert sorted(p.name for p in (files / str(release_id)).iterdir()) == [
            "files.json", "gosterge-2026-W47-ocds.json.gz", "gosterge-2026-W47-tables.zip"]
        stored = read_release_files(files, release_id)
        with zipfile.ZipFile(stored.by_kind("tables").path) as tables:
            # The members' times are those of the files as unpacked by each load: their contents are compared.
            members = [(i.filename, i.compress_type, tables.read(i)) for i in tables.infolist()]
        # Parts of 250 tenders are gzip members of their own: the package's text is the same.
        built[label] = (gzip.decompress(stored.by_kind("ocds").path.read_bytes()), members)
    assert built["processes"] == built["own process"]
    assert multiprocessing.active_children() == []


def test_the_files_are_listed_once_the_release_is_served(demo_release, database_url, tmp_path, in_parts):
    files = tmp_path / "files"
    sessions = _sessions(database_url)
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
    listed = []

    def served(session, release_id):  # noqa: ANN001
        # In the transaction that completes and activates the release: the files are in place already.
        listed.append(read_release_files(files, release_id))

    release_id = load_release(demo_release, sessions, settings=settings, before_commit=served).release_id
    assert listed[0] is not None and {f.kind for f in listed[0].files} == {"tables", "ocds"}
    with session_scope(sessions) as session:
        assert get_active_release(session).id == release_id
    sessions.kw["bind"].dispose()


def test_a_load_that_fails_while_processes_build_its_files_leaves_none_of_them(
        demo_release, database_url, tmp_path, in_parts, monkeypatch):
    files = tmp_path / "files"
    sessions = _sessions(database_url)
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
    first = load_release(demo_release, sessions, settings=settings).release_id
    kept = _manifest(files, first)
    real = load_module.build_details

    def failing(con):  # noqa: ANN001
        # Once a process has begun writing a part of the package: its work is under way when the load fails.
        deadline = time.monotonic() + 60
        while not list(files.glob(".building-*/ocds/part-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(files.glob(".building-*/ocds/part-*")), "no process began writing"
        real(con)
        raise RuntimeError("out of memory")

    monkeypatch.setattr(load_module, "build_details", failing)
    with pytest.raises(RuntimeError, match="out of memory"):
        load_release(demo_release, sessions, settings=settings)
    # The processes have ended, and nothing they wrote is left: only the served release's files.
    assert multiprocessing.active_children() == []
    assert sorted(p.name for p in files.iterdir()) == [str(first)]
    assert _manifest(files, first) == kept
    with session_scope(sessions) as session:
        assert session.scalar(select(func.count()).select_from(Release)) == 1
        assert get_active_release(session).id == first
    sessions.kw["bind"].dispose()


def test_an_upload_that_is_already_the_tables_file_is_kept_byte_for_byte(demo_release, tmp_path):
    # The same files in a folder of the archive, or after a comment: the tables file is written anew.
    foldered, commented = tmp_path / "foldered.zip", tmp_path / "commented.zip"
    with zipfile.ZipFile(demo_release) as original, zipfile.ZipFile(foldered, "w") as one, \
            zipfile.ZipFile(commented, "w", compression=zipfile.ZIP_DEFLATED) as other:
        for name in original.namelist():
            one.writestr(f"2026-W47/{name}", original.read(name))
            other.writestr(name, original.read(name))
        other.comment = b"made by hand"
    kept = {}
    for upload in (demo_release, foldered, commented):
        sessions = _sessions(f"sqlite:///{tmp_path / (upload.stem + '.db')}")
        files = tmp_path / upload.stem
        settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(files)})
        release_id = load_release(upload, sessions, settings=settings).release_id
        sessions.kw["bind"].dispose()
        kept[upload.stem] = read_release_files(files, release_id).by_kind("tables").path.read_bytes()
    assert kept[demo_release.stem] == demo_release.read_bytes()
    for stem in ("foldered", "commented"):
        with zipfile.ZipFile(io.BytesIO(kept[stem])) as rebuilt, zipfile.ZipFile(demo_release) as original:
            assert rebuilt.namelist() == [MANIFEST_NAME, *COLUMNS] and rebuilt.comment == b""
            assert all(rebuilt.read(name) == original.read(name) for name in original.namelist())
