"""Retention: releases past the last N are pruned (never the one served), listed as pruned, refused
when activated, and the space they took is used again or handed back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event, text

from loaders.procurement.generate import generate_release
from loaders.procurement.load import load_release
from loaders.procurement.retention import prune_releases
from store.awards import list_awards
from store.db import session_scope
from store.details import detail_tables
from store.errors import DetailsMissingError
from store.models import Release
from store.release_db import releases_folder
from tests.cli.test_cli import run
from tests.helpers import assert_problem, release_table_names

# Paid answers read from every part a release keeps: served items, awards, party search and profiles.
READS = ["/v1/public-procurement/competition-indices?dimension=province&period=2024",
         "/v1/public-procurement/awards?limit=20", "/v1/public-procurement/contractors?q=firma&limit=20",
         "/v1/public-procurement/discount-benchmarks?limit=20"]


def answers(client, headers) -> list[bytes]:  # noqa: ANN001
    pages = []
    for path in READS:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:300])
        pages.append(response.get_data())
    contractor = client.get(READS[2], headers=headers).get_json()["items"][0]["id"]
    profile = client.get(f"/v1/public-procurement/contractors/{contractor}", headers=headers)
    assert profile.status_code == 200
    return [*pages, profile.get_data()]


def database_bytes(engine, database_url: str) -> int:  # noqa: ANN001
    """The SQLite file's size once its write-ahead log is written back into it, with the releases' own files."""
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    own = sum(p.stat().st_size for p in releases_folder(engine).iterdir())
    return Path(database_url.removeprefix("sqlite:///")).stat().st_size + own


def load(sessions, tmp_path: Path, seed: int) -> int:  # noqa: ANN001
    path = generate_release("tiny", seed=seed, out=tmp_path / f"tiny-{seed}.zip")
    return load_release(path, sessions).release_id


def test_four_releases_pruned_to_two(app, client, make_key, database_url, tmp_path):
    sessions, engine = app.extensions["gosterge.sessions"], app.extensions["gosterge.engine"]
    ids = [load(sessions, tmp_path, seed) for seed in (1, 2, 3, 4)]
    reader = {"Authorization": f"Bearer {make_key(credits=1000)}"}
    admin = {"Authorization": f"Bearer {make_key(is_admin=True)}"}
    before = answers(client, reader)
    sqlite = database_url.startswith("sqlite")
    size_before = database_bytes(engine, database_url) if sqlite else 0

    assert prune_releases(sessions, 2) == ids[:2]
    if sqlite:  # a store created with incremental auto-vacuum hands the pages back to the file system
        assert database_bytes(engine, database_url) < size_before
    assert answers(client, reader) == before  # the release served answers byte for byte as before
    listed = {r["id"]: r for r in client.get("/v1/admin/releases", headers=admin).get_json()["items"]}
    assert [listed[i]["pruned"] for i in ids] == [True, True, False, False]
    assert listed[ids[0]]["prunedAt"] and listed[ids[3]]["prunedAt"] is None and listed[ids[3]]["active"]
    with engine.connect() as connection:
        items = connection.execute(text("SELECT count(*) FROM stat_items WHERE release_id IN (:a, :b)"),
                                   {"a": ids[0], "b": ids[1]}).scalar()
    assert not release_table_names(engine, ids[0]) | release_table_names(engine, ids[1]) and items == 0
    assert release_table_names(engine, ids[3]) == {t.name for t in detail_tables(ids[3]).all}
    if sqlite:  # the pruned releases' files are gone, the kept ones' are there
        assert sorted(p.name for p in releases_folder(engine).iterdir()) == [f"r{ids[2]}.sqlite", f"r{ids[3]}.sqlite"]

    refused = assert_problem(client.post(f"/v1/admin/releases/{ids[0]}/activate", headers=admin), 409, "conflict")
    assert "pruned" in refused["detail"]
    assert client.get(READS[0], headers=reader).get_data() == before[0]  # still the same release served

    load(sessions, tmp_path, 5)
    if sqlite:
        assert database_bytes(engine, database_url) <= size_before


def test_the_release_served_is_never_pruned(app, client, make_key, tmp_path):
    sessions = app.extensions["gosterge.sessions"]
    ids = [load(sessions, tmp_path, seed) for seed in (1, 2, 3)]
    admin = {"Authorization": f"Bearer {make_key(is_admin=True)}"}
    assert client.post(f"/v1/admin/releases/{ids[0]}/activate", headers=admin).status_code == 200
    assert prune_releases(sessions, 1) == [ids[1]]
    listed = {r["id"]: r for r in client.get("/v1/admin/releases", headers=admin).get_json()["items"]}
    assert (listed[ids[0]]["active"], listed[ids[0]]["pruned"], listed[ids[2]]["pruned"]) == (True, False, False)
    assert prune_releases(sessions, 1) == []  # nothing more to prune


def test_retention_after_each_load_and_the_command_line(database_url, tmp_path):
    releases = [generate_release("tiny", seed=seed, out=tmp_path / f"tiny-{seed}.zip") for seed in (1, 2, 3)]
    env = {"GOSTERGE_KEEP_RELEASES": "2"}
    for release in releases:
        loaded = run(["load", "procurement", str(release)], database_url, tmp_path, env)
        assert loaded.returncode == 0, loaded.stderr
    listed = run(["releases", "list"], database_url, tmp_path).stdout.splitlines()
    assert ["pruned" in line for line in listed] == [False, False, True]  # newest first
    refused = run(["releases", "activate", "1"], database_url, tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().count("\n") == 0 and "pruned" in refused.stderr
    assert run(["releases", "activate", "99"], database_url, tmp_path).returncode == 2
    pruned = run(["releases", "prune", "--keep", "1"], database_url, tmp_path)
    assert pruned.returncode == 0 and pruned.stdout.split() == ["2"]
    assert run(["releases", "prune", "--keep", "0"], database_url, tmp_path).returncode != 0


def test_past_sqlites_attach_limit_the_served_and_newest_releases_are_read(app, client, make_key, tmp_path):
    """SQLite opens a limited number of release files per connection (store/release_db.py): the one
    served and the most recently loaded are attached; an older one answers as missing its tables."""
    sessions, engine = app.extensions["gosterge.sessions"], app.extensions["gosterge.engine"]
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL keeps every release's tables in the one database")
    event.listen(engine, "connect", lambda connection, record: connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 2))
    engine.dispose()  # every connection from now on has the lower limit
    ids = [load(sessions, tmp_path, seed) for seed in (1, 2, 3)]
    admin = {"Authorization": f"Bearer {make_key(is_admin=True)}"}
    reader = {"Authorization": f"Bearer {make_key(credits=1000)}"}
    assert client.post(f"/v1/admin/releases/{ids[0]}/activate", headers=admin).status_code == 200
    with engine.connect() as connection:
        attached = {r[1] for r in connection.exec_driver_sql("PRAGMA database_list")} - {"main", "temp"}
    assert attached == {f"r{ids[0]}", f"r{ids[2]}"}
    assert client.get(READS[1], headers=reader).get_json()["total"] > 0  # the served one, activated after
    with session_scope(sessions) as session:
        older = session.get(Release, ids[1])
        with pytest.raises(DetailsMissingError, match="most recently loaded"):
            list_awards(session, release=older)
