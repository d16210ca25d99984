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
