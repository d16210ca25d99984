"""What the service writes for itself is its user's alone: the var folder 0700, the SQLite database
(with its WAL), each release's own file and the outbox mails, which hold live decision tokens, 0600."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask():
    import os

    previous = os.umask(0o022)  # the usual default, under which files are created 0644
    yield
    os.umask(previous)


def test_a_fresh_var_folder_database_and_outbox_are_private(permissive_umask, tmp_path, monkeypatch):
    import api.mail
    from api import create_app
    from store.schema import upgrade

    var = tmp_path / "var"
    monkeypatch.setattr(api.mail, "VAR_DIR", var)
    app = create_app({"DATABASE_URL": f"sqlite:///{var / 'gosterge.db'}", "SMTP_URL": "",
                      "PUBLIC_BASE_URL": "http://127.0.0.1:8000", "UPLOAD_DIR": str(var / "uploads"),
                      "RATELIMIT_STORAGE_URI": "memory://"})
    upgrade(app.extensions["gosterge.engine"])
    answer = app.test_client().post("/v1/accounts", json={"email": "owner@example.com", "apis": ["finance-news"]})
    assert answer.status_code == 202
    assert mode(var) == 0o700
    written = [var / "gosterge.db", *var.glob("gosterge.db-*"), *(var / "outbox").glob("*.eml")]
    assert {str(p.relative_to(var)): mode(p) for p in written} == {str(p.relative_to(var)): 0o600 for p in written}
    assert mode(var / "outbox") == 0o700
    assert any(p.suffix == ".eml" for p in written) and (var / "gosterge.db") in written
    app.extensions["gosterge.engine"].dispose()


def test_an_existing_world_readable_database_is_made_private(permissive_umask, tmp_path):
    from api import create_app

    database = tmp_path / "old.db"
    database.write_bytes(b"")
    database.chmod(0o644)
    create_app({"DATABASE_URL": f"sqlite:///{database}", "RATELIMIT_STORAGE_URI": "memory://"})
    assert mode(database) == 0o600


def test_the_upload_folder_is_private(permissive_umask, make_app, make_key, tmp_path):
    from tests.api.test_admin import upload_and_wait

    uploads = tmp_path / "private-uploads"
    app = make_app(UPLOAD_DIR=str(uploads))
    admin = {"Authorization": f"Bearer {make_key(is_admin=True, target_app=app)}"}
    assert upload_and_wait(app.test_client(), admin, b"not a zip")["status"] == "refused"
    assert mode(uploads) == 0o700


def test_a_releases_own_file_is_private(permissive_umask, app, tmp_path):
    from loaders.procurement.generate import generate_release
    from loaders.procurement.load import load_release
    from store.release_db import release_file, releases_folder

    engine = app.extensions["gosterge.engine"]
    if releases_folder(engine) is None:
        pytest.skip("PostgreSQL keeps a release's tables in the one database")
    release_id = load_release(generate_release("tiny", seed=1, out=tmp_path / "tiny.zip"),
                              app.extensions["gosterge.sessions"]).release_id
    assert mode(releases_folder(engine)) == 0o700 and mode(release_file(releases_folder(engine), release_id)) == 0o600
