"""Store failures map to 502/504 problems as decisions.md says, and the service recovers."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import make_url, text

from store.db import create_store_engine, make_session_factory, session_scope
from store.errors import StoreTimeoutError
from tests.conftest import PG_URL
from tests.helpers import TcpProxy, assert_problem

pg_only = pytest.mark.skipif(not PG_URL, reason="needs GOSTERGE_TEST_DATABASE_URL (PostgreSQL)")
SLOW_SQL = {
    "sqlite": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) FROM c",
    "postgresql": "SELECT pg_sleep(2)",
}


def slow_sql(url: str) -> str:
    return SLOW_SQL["sqlite" if url.startswith("sqlite") else "postgresql"]


def test_statement_past_time_limit_raises_timeout(database_url):
    engine = create_store_engine(database_url, statement_timeout_ms=100)
    started = time.monotonic()
    with pytest.raises(StoreTimeoutError), session_scope(make_session_factory(engine)) as session:
        session.execute(text(slow_sql(database_url)))
    assert time.monotonic() - started < 1.5
    engine.dispose()


def test_statement_timeout_is_504_upstream_timeout(make_app, make_key, monkeypatch, database_url):
    from api.routes import procurement, release_params

    def slow_list_items(session, **kwargs):  # noqa: ANN001
        session.execute(text(slow_sql(database_url)))
        raise AssertionError("the statement should have been stopped")

    app = make_app(STATEMENT_TIMEOUT_MS=100)
    key = make_key(target_app=app)
    monkeypatch.setattr(release_params, "get_active_release", lambda session: type("R", (), {"id": 1})())
    monkeypatch.setattr(procurement, "list_items", slow_list_items)
    response = app.test_client().get("/v1/public-procurement/supply-flows", headers={"Authorization": f"Bearer {key}"})
    assert_problem(response, 504, "upstream_timeout")


@pg_only
def test_database_refusing_the_credential_is_502_upstream_auth():
    url = make_url(PG_URL).set(username="no_such_role_gosterge")
    from api import create_app

    broken = create_app({"DATABASE_URL": url.render_as_string(hide_password=False),
                         "PROBLEM_BASE": "https://problems.test"})
    response = broken.test_client().get("/v1/public-procurement/sectors", headers={"Authorization": "Bearer gk_x"})
    assert_problem(response, 502, "upstream_auth")


@pg_only
def test_database_going_away_is_502_and_service_recovers(make_app, make_key, database_url):
    url = make_url(database_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    proxy.start()
    proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    app = make_app(DATABASE_URL=proxied)
    key = make_key(target_app=app)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/v1/public-procurement/sectors", headers=headers).status_code == 200
    proxy.stop()
    started = time.monotonic()
    assert_problem(client.get("/v1/public-procurement/sectors", headers=headers), 502, "upstream_error")
    assert time.monotonic() - started < 10
    proxy.start()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if client.get("/v1/public-procurement/sectors", headers=headers).status_code == 200:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the service did not recover within 5 s of the database's return")
    proxy.stop()


def test_a_connection_dying_after_the_answer_does_not_spoil_it(make_app, make_key, monkeypatch):
    # The database went away between reading the answer and ending the request: the rollback in the
    # session's close fails (with the store's error: the engine turns every driver failure into one).
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    from store.errors import classify_database_error

    app = make_app()
    key = make_key(target_app=app)
    original = Session.close

    def close(self):  # noqa: ANN001, ANN202
        original(self)
        raise classify_database_error(OperationalError("ROLLBACK", {}, Exception("server closed the connection")))

    monkeypatch.setattr(Session, "close", close)
    response = app.test_client().get("/v1/public-procurement/sectors", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200
