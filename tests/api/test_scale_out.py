"""Several gunicorn workers behind one port share one rate limit through Redis."""

from __future__ import annotations

import pytest
import requests

from tests.conftest import PG_URL, REDIS_URL
from tests.helpers import Gunicorn

# Several workers need shared limits (Redis) and a store that takes several writers (PostgreSQL):
# gunicorn.conf.py refuses them on SQLite.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (REDIS_URL and PG_URL),
                                                   reason="needs GOSTERGE_TEST_REDIS_URL and GOSTERGE_TEST_DATABASE_URL")]


def test_two_workers_share_one_limit(app, make_key, database_url, limiter_storage):
    key = make_key(rate="6/minute")
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage}
    with Gunicorn(env, workers=2) as server:
        url = f"{server.url}/v1/public-procurement/sectors"
        statuses = []
        for _ in range(20):
            # A new connection each time, so that both workers take requests.
            statuses.append(requests.get(url, headers={"Authorization": f"Bearer {key}", "Connection": "close"},
                                         timeout=10).status_code)
        assert statuses.count(200) == 6, statuses
        assert statuses.count(429) == 14, statuses
