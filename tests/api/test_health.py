"""/v1/health and /v1/ready for load balancers: no key, no rate limit, quiet in the access log."""

from __future__ import annotations

import logging

from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from loaders.procurement.load import load_release
from tests.helpers import assert_problem


def break_store(app) -> None:  # noqa: ANN001
    """Every session from now on talks to a database that cannot be opened."""
    app.extensions["gosterge.sessions"] = sessionmaker(create_engine("sqlite:////proc/no-such-dir/x.db"))


def test_health_answers_without_key_or_store(app):
    break_store(app)
    response = app.test_client().get("/v1/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_ready_once_a_release_is_served(app, demo_release):
    client = app.test_client()
    body = assert_problem(client.get("/v1/ready"), 503, "not_ready")
    assert "release" in body["detail"]
    load_release(demo_release, app.extensions["gosterge.sessions"])
    response = client.get("/v1/ready")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ready", "release": "2026-W47"}


def test_ready_is_503_when_the_store_does_not_answer(loaded_app):
    break_store(loaded_app)
    body = assert_problem(loaded_app.test_client().get("/v1/ready"), 503, "not_ready")
    assert "store" in body["detail"]


def test_health_and_ready_are_not_rate_limited(make_app, loaded_database):
    app = make_app(DEFAULT_RATE="2/minute")
    client = app.test_client()
    for _ in range(5):
        assert client.get("/v1/health").status_code == 200
        assert client.get("/v1/ready").status_code == 200
    assert "X-RateLimit-Limit" not in client.get("/v1/health").headers


def test_health_is_not_logged_at_info(loaded_app, caplog):
    client = loaded_app.test_client()
    with caplog.at_level(logging.INFO, logger="gosterge.access"):
        client.get("/v1/health")
        client.get("/v1/ready")
        client.get("/v1/public-procurement/sectors")
    paths = [r.getMessage() for r in caplog.records if r.name == "gosterge.access" and r.levelno >= logging.INFO]
    assert len(paths) == 1 and "/sectors" in paths[0]


def test_a_failing_ready_is_logged(app, caplog):
    with caplog.at_level(logging.INFO, logger="gosterge.access"):
        app.test_client().get("/v1/ready")
    assert any("/v1/ready" in r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
