"""Schema upgrades move an existing database on without losing its data."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text

from store.db import create_store_engine, make_session_factory, session_scope
from store.errors import StoreConflictError
from store.jobs import create_job, finish_job, get_job
from store.keys import create_key, list_keys
from store.models import RUNNING_JOB_INDEX
from store.schema import CURRENT_VERSION, current_version, upgrade


def test_upgrade_from_version_one_keeps_data(database_url):
    engine = create_store_engine(database_url)
    upgrade(engine)
    with session_scope(make_session_factory(engine)) as session:
        create_key(session, apis=["finance-news"], credits=5, rate="1/minute", now=datetime.now(UTC))
    with engine.begin() as conn:  # as a database left by version 1 looks
        conn.execute(text("DROP TABLE data_versions"))
        conn.execute(text("UPDATE schema_version SET version = 1"))
    assert current_version(engine) == 1
    assert upgrade(engine) == (1, CURRENT_VERSION)
    assert inspect(engine).has_table("data_versions")
    with session_scope(make_session_factory(engine)) as session:
        assert [k.credits for k in list_keys(session)] == [5]
    assert upgrade(engine) == (CURRENT_VERSION, CURRENT_VERSION)
    engine.dispose()


def test_a_second_running_upload_is_refused_by_the_database(database_url):
    """Two uploads accepted in the same instant both see none running; the schema lets one job run."""
    engine = create_store_engine(database_url)
    upgrade(engine)
    sessions = make_session_factory(engine)
    with session_scope(sessions) as session:
        create_job(session, "first", uploaded_by="key:1", host="h", now=datetime.now(UTC))
    with pytest.raises(StoreConflictError), session_scope(sessions) as session:
        create_job(session, "second", uploaded_by="key:1", host="h", now=datetime.now(UTC))
    with session_scope(sessions) as session:
        finish_job(session, "first", status="loaded", now=datetime.now(UTC))
        create_job(session, "second", uploaded_by="key:1", host="h", now=datetime.now(UTC))
    engine.dispose()


def test_upgrade_to_one_running_upload_keeps_the_newest_running(database_url):
    engine = create_store_engine(database_url)
    upgrade(engine)
    with engine.begin() as conn:  # as a database left by version 9 with two loads that never ended
        conn.execute(text(f"DROP INDEX {RUNNING_JOB_INDEX}"))
        conn.execute(text("ALTER TABLE releases DROP COLUMN pruned_at"))
        conn.execute(text("UPDATE schema_version SET version = 9"))
    sessions = make_session_factory(engine)
    with session_scope(sessions) as session:
        create_job(session, "older", uploaded_by="key:1", host="h", now=datetime(2026, 1, 1, tzinfo=UTC))
        create_job(session, "newer", uploaded_by="key:1", host="h", now=datetime(2026, 1, 2, tzinfo=UTC))
    assert upgrade(engine) == (9, CURRENT_VERSION)
    with session_scope(sessions) as session:
        assert (get_job(session, "older").status, get_job(session, "newer").status) == ("failed", "running")
        assert "Upload the release again" in get_job(session, "older").problem
    assert "pruned_at" in {c["name"] for c in inspect(engine).get_columns("releases")}
    engine.dispose()
