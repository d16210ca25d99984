"""Admin operations over HTTP: keys and weekly releases, refused cleanly, audited."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import select

from loaders.procurement.jobs import is_alive
from store.db import session_scope
from store.models import AuditEntry
from tests.conftest import release_template
from tests.helpers import assert_problem, error_parameters, write_release
from tests.loaders.test_procurement_statistics import TABLES


@pytest.fixture
def admin(make_key):
    return {"Authorization": f"Bearer {make_key(is_admin=True)}"}


def zipped(directory) -> bytes:  # noqa: ANN001
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(directory.iterdir()):
            zf.write(path, path.name)
    return buffer.getvalue()


def upload(client, headers, data: bytes, name: str = "release.zip"):  # noqa: ANN001
    return client.post("/v1/admin/releases", headers=headers, content_type="multipart/form-data",
                       data={"file": (io.BytesIO(data), name)})


def finished(client, headers, accepted, seconds: float = 120) -> dict:  # noqa: ANN001
    """Follow an accepted upload's status URL until the load has ended; its last status."""
    assert accepted.status_code == 202, accepted.get_data(as_text=True)
    assert accepted.headers["Location"] == accepted.get_json()["statusUrl"]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = client.get(accepted.get_json()["statusUrl"], headers=headers).get_json()
        if status["status"] != "running":
            load_ended(Path(client.application.config["UPLOAD_DIR"]) / accepted.get_json()["id"], deadline)
            return status
        time.sleep(0.2)
    raise AssertionError("the upload did not finish")


def load_ended(folder: Path, deadline: float) -> None:
    """Wait, until `deadline` (time.monotonic), for the upload's loading process to end. It goes on after
    recording its status (digests, retention): a test that dropped its store at once would race it
    (PostgreSQL saw the schema's drop deadlock)."""
    while is_alive(folder) and time.monotonic() < deadline:
        time.sleep(0.1)


def upload_and_wait(client, headers, data: bytes) -> dict:  # noqa: ANN001
    return finished(client, headers, upload(client, headers, data))


def test_non_admin_key_is_403(client, auth):
    assert_problem(client.get("/v1/admin/keys", headers=auth), 403, "forbidden")
    assert_problem(upload(client, auth, b"x"), 403, "forbidden")


def test_whole_numbers_written_as_floats_are_whole_numbers(client, admin):
    # JSON Schema's `integer` admits 352.0; a request the document allows must not be refused.
    created = client.post("/v1/admin/keys", headers=admin, json={"apis": ["finance-news"], "credits": 10.0,
                                                                 "expiresInDays": 352.0})
    assert created.status_code == 201 and created.get_json()["credits"] == 10
    topped = client.post(f"/v1/admin/keys/{created.get_json()['id']}/credits", headers=admin, json={"credits": 5.0})
    assert topped.get_json()["credits"] == 15
    body = assert_problem(client.post("/v1/admin/keys", headers=admin, json={"apis": ["finance-news"], "credits": 1.5}),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["credits"]


def test_create_use_top_up_and_revoke_a_key(app, client, admin):
    created = client.post("/v1/admin/keys", headers=admin,
                          json={"apis": ["finance-news"], "credits": 1, "rate": "30/minute", "label": "partner"})
    assert created.status_code == 201
    body = created.get_json()
    new = {"Authorization": f"Bearer {body['key']}"}
    assert body["apis"] == ["finance-news"] and body["credits"] == 1 and body["rate"] == "30/minute"
    assert client.get("/v1/finance-news/articles", headers=new).status_code == 200
    assert_problem(client.get("/v1/finance-news/articles", headers=new), 402, "payment_required")
    topped = client.post(f"/v1/admin/keys/{body['id']}/credits", headers=admin, json={"credits": 5})
    assert topped.get_json()["credits"] == 5
    assert client.get("/v1/finance-news/articles", headers=new).status_code == 200
    assert client.post(f"/v1/admin/keys/{body['id']}/revoke", headers=admin).get_json()["revokedAt"]
    assert_problem(client.get("/v1/finance-news/articles", headers=new), 401, "unauthorized")
    listed = client.get("/v1/admin/keys", headers=admin).get_json()["items"]
    assert body["key"] not in str(listed) and len(listed) == 2
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        actions = [a.action for a in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]
        actor = session.scalars(select(AuditEntry)).first().actor
    assert actions == ["key.create", "key.topup", "key.revoke"] and actor == "key:1"


@pytest.mark.parametrize(("body", "fields"), [
    ({"apis": ["weather"], "credits": 1}, ["apis"]),
    ({"credits": -1}, ["apis", "credits"]),
    ({"apis": ["finance-news"], "credits": 1, "rate": "fast", "colour": "red"}, ["colour", "rate"]),
])
def test_bad_key_bodies_name_every_field(client, admin, body, fields):
    problem = assert_problem(client.post("/v1/admin/keys", headers=admin, json=body), 400, "invalid_parameters")
    assert sorted(e["parameter"] for e in problem["errors"]) == fields


def test_key_body_must_be_json(client, admin):
    response = client.post("/v1/admin/keys", headers=admin, data="apis=x", content_type="application/x-www-form-urlencoded")
    assert_problem(response, 415, "unsupported_media_type")


def test_unknown_key_is_404(client, admin):
    assert_problem(client.post("/v1/admin/keys/999/revoke", headers=admin), 404, "not_found")


@pytest.mark.parametrize("path", ["/v1/admin/keys/{id}/revoke", "/v1/admin/keys/{id}/credits",
                                  "/v1/admin/releases/{id}/activate"])
@pytest.mark.parametrize("big", [2**31, 2**63, 4259534329550415069184])
def test_an_id_past_what_the_store_holds_is_404(client, admin, path, big):
    response = client.post(path.format(id=big), headers=admin, json={"credits": 1})
    assert_problem(response, 404, "not_found")


def test_upload_switches_release_and_rollback(client, admin, auth, tmp_path):
    first = upload_and_wait(client, admin, zipped(write_release(tmp_path / "a", TABLES, release="2026-W46")))
    assert first["status"] == "loaded" and first["problem"] is None, first
    first = first["release"]
    assert first["active"] is True and first["uploadedBy"] == "key:1"
    second = upload_and_wait(client, admin, zipped(write_release(tmp_path / "b", TABLES, release="2026-W47")))
    assert second["release"]["release"] == "2026-W47"
    assert client.get("/v1/public-procurement/datasets", headers=auth).get_json()["release"] == "2026-W47"
    history = client.get("/v1/admin/releases", headers=admin).get_json()["items"]
    assert [(r["release"], r["active"]) for r in history] == [("2026-W47", True), ("2026-W46", False)]
    back = client.post(f"/v1/admin/releases/{first['id']}/activate", headers=admin)
    assert back.get_json()["active"] is True
    assert client.get("/v1/public-procurement/datasets", headers=auth).get_json()["release"] == "2026-W46"
    assert_problem(client.post("/v1/admin/releases/999/activate", headers=admin), 404, "not_found")


@pytest.fixture(scope="module")
def database_template(request, tmp_path_factory):
    """TABLES loaded once for the module: the database of each test using it is a copy."""
    folder = tmp_path_factory.mktemp("good")
    yield from release_template(request, tmp_path_factory, write_release(folder / "good", TABLES), folder / "files")


def broken_zip(tmp_path, kind: str) -> bytes:
    source = write_release(tmp_path / kind, TABLES, release="2026-W48")
    if kind == "bad-row":
        text = (source / "tenders.csv").read_text().replace(",open,23,1000,1", ",open,23,1000,zero", 1)
        (source / "tenders.csv").write_text(text)
        return zipped(source)
    if kind == "missing-file":
        (source / "awards.csv").unlink()
        return zipped(source)
    if kind == "bad-manifest":
        (source / "manifest.json").write_text("{not json")
        return zipped(source)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in source.iterdir():
            if kind != "bomb" or path.name != "awards.csv":
                zf.write(path, path.name)
        if kind == "escape":
            zf.writestr("../../etc/cron.d/evil", "x")
        if kind == "bomb":
            zf.writestr("awards.csv", "0" * 30_000_000)
    return buffer.getvalue()


@pytest.mark.parametrize(("kind", "file", "row", "column"), [
    ("bad-row", "tenders.csv", 2, "lots"),
    ("missing-file", "awards.csv", None, None),
    ("bad-manifest", "manifest.json", None, None),
    ("escape", "../../etc/cron.d/evil", None, None),
    ("bomb", "awards.csv", None, None),
])
def test_broken_uploads_are_refused_and_old_release_served(database_template, client, admin, auth, tmp_path, kind,
                                                           file, row, column):
    # The release served before: TABLES, in a copy of the module's database_template (an upload that
    # loads is test_upload_switches_release_and_rollback's).
    before = client.get("/v1/public-procurement/datasets", headers=auth).get_json()
    refused = upload_and_wait(client, admin, broken_zip(tmp_path, kind))
    assert refused["status"] == "refused" and refused["release"] is None
    problem = refused["problem"]
    assert problem["type"] == "https://problems.test/invalid_parameters" and problem["status"] == 400
    assert any(e["file"] == file and e["row"] == row and e["column"] == column for e in problem["errors"]), problem
    assert problem["total"] >= 1
    assert client.get("/v1/public-procurement/datasets", headers=auth).get_json() == before


def test_not_a_zip_and_missing_file_part(client, admin):
    problem = upload_and_wait(client, admin, b"plain text, not a zip")["problem"]
    assert "ZIP" in problem["errors"][0]["message"]
    missing = client.post("/v1/admin/releases", headers=admin, content_type="multipart/form-data", data={})
    assert assert_problem(missing, 400, "invalid_parameters")["errors"][0]["parameter"] == "file"


def test_too_large_upload_is_413(make_app, make_key, tmp_path):
    app = make_app(MAX_UPLOAD_BYTES=10_000)
    headers = {"Authorization": f"Bearer {make_key(is_admin=True, target_app=app)}"}
    response = upload(app.test_client(), headers, b"0" * 20_000)
    assert_problem(response, 413, "payload_too_large")


def test_a_write_committed_elsewhere_between_read_and_write_is_no_502(app, client, admin, make_key, database_url,
                                                                       monkeypatch):
    """On SQLite a deferred transaction that has read cannot write once another connection has
    committed (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out): an upload's loading process
    recording its stage between the revoke's read and its write gave a 502. Another writer there
    must now wait for the admin call, which succeeds."""
    import sqlite3

    import store.keys

    victim = make_key()
    other_writes: list[str] = []
    read_key = store.keys.get_key

    def read_then_let_another_process_write(session, key_id):  # noqa: ANN001, ANN202
        row = read_key(session, key_id)
        if database_url.startswith("sqlite"):
            other = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0.2)
            try:
                other.execute("UPDATE api_keys SET credits = credits + 1 WHERE id <> ?", (key_id,))
                other.commit()
                other_writes.append("committed")
            except sqlite3.OperationalError as error:
                other_writes.append(str(error))
            finally:
                other.close()
        return row

    monkeypatch.setattr(store.keys, "get_key", read_then_let_another_process_write)
    key_id = next(k["id"] for k in client.get("/v1/admin/keys", headers=admin).get_json()["items"]
                  if k["prefix"] == victim[:len(k["prefix"])])
    answer = client.post(f"/v1/admin/keys/{key_id}/revoke", headers=admin)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert other_writes in ([], ["database is locked"])
