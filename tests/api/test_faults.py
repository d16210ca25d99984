"""Faults under load, against gunicorn as production runs it: the database going away and coming back,
Redis going away, a worker killed mid-request, a release load killed half-way."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime

import pytest
import requests
from sqlalchemy import make_url

from loaders.procurement.generate import generate_release
from store.db import session_scope
from store.keys import find_key
from store.releases import get_active_release
from tests.conftest import PG_URL, REDIS_URL, ROOT
from tests.helpers import PROBLEM_BASE, Gunicorn, Load, TcpProxy

pytestmark = pytest.mark.slow

PAID = [
    "/v1/public-procurement/competition-indices?dimension=province",
    "/v1/public-procurement/top-contractors?province=34",
    "/v1/public-procurement/supply-flows?limit=20",
]
FREE = ["/v1/public-procurement/sectors"]
STORE_PROBLEMS = {f"{PROBLEM_BASE}/upstream_error", f"{PROBLEM_BASE}/upstream_timeout"}
# The longest a request may take while the database is away: the connect time-out (3 s) plus margin.
STALL_LIMIT_S = 8


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def server_env(database_url: str, storage: str) -> dict[str, str]:
    return {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": storage,
            "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE}


def credits_of(app, key: str) -> int:  # noqa: ANN001
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        return find_key(session, key).credits


@pytest.mark.skipif(not PG_URL, reason="needs GOSTERGE_TEST_DATABASE_URL (PostgreSQL)")
def test_database_stopping_under_load_gives_502_then_recovers(loaded_app, make_key, database_url, limiter_storage,
                                                              tmp_path):
    key = make_key(credits=10**6, rate="1000000/minute")
    url = make_url(database_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    proxy.start()
    proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    with Gunicorn(server_env(proxied, limiter_storage), log=tmp_path / "gunicorn.log") as server:
        with Load(server.url, PAID + FREE, bearer(key)) as load:
            time.sleep(2)
            stopped = time.monotonic()  # taken first: an answer that ends during stop() saw the stop
            proxy.stop()
            time.sleep(10)
            proxy.start()
            back = time.monotonic()
            time.sleep(7)
    proxy.stop()
    answers = load.answers
    assert Counter(a.status for a in answers).keys() <= {200, 502, 504}, Counter(a.status for a in answers)
    assert {a.problem_type for a in answers if a.status != 200} <= STORE_PROBLEMS
    assert max(a.ended - a.started for a in answers) < STALL_LIMIT_S
    before = load.between(0, stopped)
    assert all(a.status == 200 for a in before), Counter(a.status for a in before)
    gap = load.between(stopped + 0.5, back)
    assert len(gap) > 10 and all(a.status in (502, 504) for a in gap), Counter(a.status for a in gap)
    recovered = load.between(back + 5, float("inf"))
    assert len(recovered) > 10 and all(a.status == 200 for a in recovered), Counter(a.status for a in recovered)


@pytest.mark.skipif(not REDIS_URL, reason="needs GOSTERGE_TEST_REDIS_URL (Redis)")
def test_redis_stopping_falls_back_to_per_process_limits(loaded_app, make_key, database_url, limiter_storage,
                                                         tmp_path):
    redis_url = make_url(limiter_storage)  # this worker's database (conftest.py)
    proxy = TcpProxy(redis_url.host or "127.0.0.1", redis_url.port or 6379)
    proxy.start()
    storage = f"redis://127.0.0.1:{proxy.port}/{redis_url.database or 0}"
    steady = make_key(credits=10**6, rate="1000000/minute")
    log = tmp_path / "gunicorn.log"
    with Gunicorn(server_env(database_url, storage), log=log) as server:
        with Load(server.url, PAID + FREE, bearer(steady), threads=2, close_connections=True) as load:
            time.sleep(1)
            proxy.stop()
            time.sleep(2)
            tight = make_key(rate="3/minute")
            statuses = [requests.get(f"{server.url}{FREE[0]}", headers={**bearer(tight), "Connection": "close"},
                                     timeout=10).status_code for _ in range(20)]
            proxy.start()
            time.sleep(1)
    proxy.stop()
    # Nothing fails for want of Redis; each worker now counts on its own, so a limit of 3 lets
    # through between 3 (one worker took every request) and 6 (both did).
    assert Counter(a.status for a in load.answers) == {200: len(load.answers)}
    assert 3 <= statuses.count(200) <= 6 and statuses.count(429) == 20 - statuses.count(200), statuses
    assert "falling back to in-memory storage" in log.read_text()


def test_killing_a_worker_mid_request_leaves_other_requests_alone(loaded_app, make_key, database_url,
                                                                 limiter_storage):
    key = make_key(credits=10**6, rate="1000000/minute")
    before = credits_of(loaded_app, key)
    # Two workers where the limits are shared (Redis) and the store is PostgreSQL; one otherwise
    # (gunicorn.conf.py refuses more on SQLite or with limits in memory).
    workers = 2 if limiter_storage.startswith("redis") and database_url.startswith("postgresql") else 1
    with Gunicorn(server_env(database_url, limiter_storage), workers=workers) as server:
        with Load(server.url, PAID, bearer(key), threads=4, close_connections=True) as load:
            time.sleep(1.5)
            victim = server.worker_pids()[0]
            server.kill_worker(victim)
            killed = time.monotonic()
            time.sleep(3)
        replaced = server.worker_pids()
    assert len(replaced) == workers and victim not in replaced  # gunicorn replaced it
    failed = [a for a in load.answers if a.status != 200]
    # An asynchronous worker serves several requests at once: those it was serving (at most one per
    # load thread) are lost, as broken connections, never error answers.
    assert len(failed) <= 4 and all(a.status is None for a in failed), failed
    assert all(a.status == 200 for a in load.between(killed + 2, float("inf")))
    paid = sum(a.status == 200 for a in load.answers)
    # The lost request may have been debited before the worker died; nothing else is unaccounted for.
    assert paid <= before - credits_of(loaded_app, key) <= paid + len(failed)


def test_interrupted_release_load_keeps_the_old_release(loaded_app, make_key, database_url, tmp_path):
    key = make_key(credits=1000)
    client = loaded_app.test_client()
    path = "/v1/public-procurement/competition-indices?dimension=province"
    served = client.get(path, headers=bearer(key)).get_json()
    sessions = loaded_app.extensions["gosterge.sessions"]
    with session_scope(sessions) as session:
        old = get_active_release(session).id
    newer = generate_release("demo", seed=3, out=tmp_path / "newer.zip", published=datetime(2026, 11, 27, 6, tzinfo=UTC))
    command = [sys.executable, "-m", "cli", "load", "procurement", str(newer)]
    env = {**os.environ, "GOSTERGE_DATABASE_URL": database_url}
    interrupted = 0
    for delay in (0.7, 0.95, 1.2, 1.45, 1.7):
        loading = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if loading.poll() is None:
            interrupted += 1
        loading.kill()
        loading.wait()
        with session_scope(sessions) as session:
            active = get_active_release(session).id
        if active != old:
            break  # this load finished before the kill; the others were interrupted
        assert client.get(path, headers=bearer(key)).get_json() == served
    assert interrupted >= 3
    subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True, timeout=120)
    with session_scope(sessions) as session:
        assert get_active_release(session).id != old
    assert client.get(path, headers=bearer(key)).get_json() != served
