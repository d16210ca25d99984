"""Schema upgrades move an existing database on without losing its data."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import inspect, text

from store.db import create_store_engine, make_session_factory, session_scope
from store.keys import create_key, list_keys
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
