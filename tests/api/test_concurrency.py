"""Credits are debited atomically: concurrent paid calls never overspend."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import requests

from store.db import session_scope
from store.keys import get_key
from tests.helpers import LiveServer


def test_fifty_concurrent_calls_on_ten_credits(make_app, make_key, loaded_database):
    # A small pool makes any request that needs two connections at once starve the others.
    loaded_app = make_app(DB_POOL_SIZE=2)
    key = make_key(credits=10, target_app=loaded_app)
    with LiveServer(loaded_app) as server, ThreadPoolExecutor(max_workers=25) as pool:
        def call(_):  # noqa: ANN001
            return requests.get(f"{server.url}/v1/public-procurement/supply-flows?limit=5",
                                headers={"Authorization": f"Bearer {key}"}, timeout=30).status_code

        statuses = list(pool.map(call, range(50)))
    assert statuses.count(200) == 10, statuses
    assert statuses.count(402) == 40, statuses
    with session_scope(loaded_app.extensions["gosterge.sessions"]) as session:
        assert get_key(session, 1).credits == 0


def test_paid_answers_go_on_while_a_release_is_written(make_app, make_key, demo_release, tmp_path, monkeypatch,
                                                       database_url):
    """A load writes its items in short transactions: a paid answer, whose credit debit needs the
    write lock on SQLite, waits at most for one batch, never for the whole release (a national one
    took minutes, and debits waiting past the busy timeout failed with "database is locked")."""
    import threading
    from datetime import UTC, datetime

    import pytest

    import store.db
    from loaders.procurement.generate import generate_release
    from loaders.procurement.load import load_release
    from store.releases import get_active_release, list_releases

    if not database_url.startswith("sqlite"):
        pytest.skip("the write lock is SQLite's; PostgreSQL locks rows")
    monkeypatch.setattr(store.db, "SQLITE_BUSY_TIMEOUT_MS", 1000)  # what a debit may wait for the lock
    app = make_app()
    sessions = app.extensions["gosterge.sessions"]
    load_release(demo_release, sessions)
    bigger = generate_release("demo", seed=3, out=tmp_path / "demo.zip", published=datetime(2026, 11, 27, tzinfo=UTC))
    key = make_key(credits=10**6, rate="1000000/minute", target_app=app)
    client = app.test_client()
    loading = threading.Thread(target=load_release, args=(bigger, sessions))
    statuses = []
    loading.start()
    while loading.is_alive():
        statuses.append(client.get("/v1/public-procurement/supply-flows?limit=5",
                                   headers={"Authorization": f"Bearer {key}"}).status_code)
    loading.join()
    assert statuses and set(statuses) == {200}, statuses
    with session_scope(sessions) as session:
        assert get_active_release(session).published_at.day == 27  # the one loaded meanwhile is served
        assert len(list_releases(session)) == 2


def test_a_rate_limit_holds_under_parallel_requests(make_app, make_key, demo_release):
    """The limit is counted before the answer, atomically: of 80 parallel requests on a key limited
    to 30 a minute, exactly 30 are answered (counted after the answer, all 80 were)."""
    from loaders.procurement.load import load_release

    app = make_app(DB_POOL_SIZE=10)
    load_release(demo_release, app.extensions["gosterge.sessions"])
    key = make_key(credits=1000, rate="30/minute", target_app=app)
    with LiveServer(app) as server, ThreadPoolExecutor(max_workers=40) as pool:
        statuses = list(pool.map(lambda _: requests.get(
            f"{server.url}/v1/public-procurement/supply-flows?limit=5",
            headers={"Authorization": f"Bearer {key}"}, timeout=60).status_code, range(80)))
    assert statuses.count(200) == 30 and statuses.count(429) == 50, statuses
