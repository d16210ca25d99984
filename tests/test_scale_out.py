"""Several gunicorn workers behind one port share one rate limit through Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
import requests

from tests.conftest import REDIS_URL

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not REDIS_URL, reason="needs GOSTERGE_TEST_REDIS_URL (Redis)")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_workers_share_one_limit(app, make_key, database_url, limiter_storage):
    key = make_key(rate="6/minute")
    port = free_port()
    env = {**os.environ, "GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}",
                               "api:create_app()"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/v1/public-procurement/sectors"
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(url, timeout=2)
                break
            except requests.RequestException:
                if time.monotonic() > deadline:
                    pytest.fail("gunicorn did not start")
                time.sleep(0.2)
        statuses = []
        for _ in range(20):
            # A new connection each time, so that both workers take requests.
            statuses.append(requests.get(url, headers={"Authorization": f"Bearer {key}", "Connection": "close"},
                                         timeout=10).status_code)
        assert statuses.count(200) == 6, statuses
        assert statuses.count(429) == 14, statuses
    finally:
        server.terminate()
        server.wait(10)
