"""The production configuration (gunicorn.conf.py) against careless and hostile clients: slow
headers, too many workers for in-memory limits, requests gunicorn itself refuses."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests

from tests.conftest import ROOT
from tests.helpers import PROBLEM_BASE, Gunicorn, free_port

pytestmark = pytest.mark.slow

SLOW_CONNECTIONS = 50
TRICKLE_SECONDS = 20
FREE = "/v1/public-procurement/sectors"


def server_env(database_url: str, storage: str) -> dict[str, str]:
    return {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": storage,
            "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE}


def trickle(port: int, stop: threading.Event) -> None:
    """Open SLOW_CONNECTIONS connections that each send one header line every two seconds."""
    sockets = []
    for _ in range(SLOW_CONNECTIONS):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(f"GET {FREE} HTTP/1.1\r\nHost: x\r\n".encode())
        sockets.append(s)
    while not stop.wait(2):
        for i, s in enumerate(sockets):
            try:
                s.sendall(b"X-Slow: 1\r\n")
            except OSError:  # cut off by the server: come back, as an attacker would
                sockets[i] = socket.create_connection(("127.0.0.1", port), timeout=5)
                sockets[i].sendall(f"GET {FREE} HTTP/1.1\r\nHost: x\r\n".encode())
    for s in sockets:
        s.close()


def test_slow_clients_do_not_stop_the_api(loaded_app, make_key, database_url, limiter_storage):
    key = make_key(credits=10**6, rate="1000000/minute")
    headers = {"Authorization": f"Bearer {key}"}
    with Gunicorn(server_env(database_url, limiter_storage)) as server:
        workers = server.worker_pids()
        stop = threading.Event()
        attacker = threading.Thread(target=trickle, args=(server.port, stop), daemon=True)
        attacker.start()
        time.sleep(1)
        waits, statuses = [], []
        deadline = time.monotonic() + TRICKLE_SECONDS
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                statuses.append(requests.get(server.url + FREE, headers=headers, timeout=5).status_code)
            except requests.RequestException:
                statuses.append(None)
            waits.append(time.monotonic() - started)
            time.sleep(0.2)
        stop.set()
        attacker.join(10)
        assert server.worker_pids() == workers  # nothing was killed: in-memory counts survive
    assert statuses and set(statuses) == {200}, statuses
    assert max(waits) < 1, max(waits)


def test_more_than_one_worker_with_memory_limits_is_refused(tmp_path):
    env = {"GOSTERGE_DATABASE_URL": f"sqlite:///{tmp_path}/x.db", "GOSTERGE_RATELIMIT_STORAGE_URI": "memory://",
           "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "--workers", "2",
                           "--bind", f"127.0.0.1:{free_port()}"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert "GOSTERGE_RATELIMIT_STORAGE_URI" in done.stderr and "refusing to start" in done.stderr


def test_more_than_one_worker_on_sqlite_is_refused_and_says_why(tmp_path):
    """A second worker on SQLite served less than one (docs/benchmarks.md): the debits queue for its
    one write lock, and a worker waiting for it stops all its connections."""
    env = {"GOSTERGE_DATABASE_URL": f"sqlite:///{tmp_path}/x.db",
           "GOSTERGE_RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "--workers", "2",
                           "--bind", f"127.0.0.1:{free_port()}"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert "refusing to start" in done.stderr and "SQLite" in done.stderr and "PostgreSQL" in done.stderr


@pytest.fixture(scope="module")
def shared_server(request, tmp_path_factory):
    """One server for the module's tests that only send requests and read the answers: started once,
    not once per test (each start imports the app in a master and a worker)."""
    from tests.conftest import PG_URL, REDIS_URL, _create_schema, _drop_schema, _redis_url, _schema_url

    if PG_URL:
        admin = request.getfixturevalue("pg_admin")
        schema = _create_schema(admin)
        url = _schema_url(schema)
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('server') / 'server.db'}"
    with Gunicorn(server_env(url, _redis_url() if REDIS_URL else "memory://")) as server:
        yield server
    if PG_URL:
        _drop_schema(admin, schema)


def raw_request(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in fields.items()}, body


@pytest.mark.parametrize(("request_bytes", "status", "slug"), [
    (b"GET /v1/x?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"GET /v1/x HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 9000 + b"\r\n\r\n", 431, "header_fields_too_large"),
    (b"GET /v1/x HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(150)) + b"\r\n", 431,
     "header_fields_too_large"),
    (b"NOT A REQUEST\r\n\r\n", 400, "invalid_parameters"),
])
def test_requests_gunicorn_refuses_get_problem_documents(shared_server, request_bytes, status, slug):
    got, fields, body = raw_request(shared_server.port, request_bytes)
    assert requests.get(shared_server.url + "/v1/openapi.json", timeout=5).status_code == 200
    assert got == status
    assert fields["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["type"] == f"{PROBLEM_BASE}/{slug}" and problem["status"] == status


def test_long_query_reaches_the_api_check_under_gunicorn(shared_server):
    response = requests.get(f"{shared_server.url}{FREE}?x={'a' * 5000}", timeout=10)
    assert response.status_code == 400 and response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["errors"][0]["parameter"] == "query"


def test_doubled_slashes_are_a_problem_not_a_redirect(shared_server):
    status, fields, body = raw_request(shared_server.port, b"GET //v1//public-procurement/sectors HTTP/1.1\r\n"
                                                           b"Host: x\r\nConnection: close\r\n\r\n")
    # Before: a 308 HTML redirect to the merged path. Now no such path: a 404 problem.
    assert status == 404 and fields["content-type"] == "application/problem+json"
    assert json.loads(body)["type"] == f"{PROBLEM_BASE}/not_found"


SECRET = "gk_SeCrEtKeYoFaCaLlEr_0123456789"


def test_keys_are_redacted_in_every_log_line_gunicorn_writes(database_url, limiter_storage, tmp_path):
    """Requests gunicorn refuses before the app are logged by gunicorn itself, request line and all;
    a request id may carry a key too: no key reaches the log or the echoed request id."""
    log = tmp_path / "server.log"
    with Gunicorn(server_env(database_url, limiter_storage), log=log) as server:
        for request_bytes in (
            f"GET /v1/account?apikey={SECRET}\r\n\r\n".encode(),  # no HTTP version
            f"GET  /v1/account?apikey={SECRET} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),  # a double space
            f"GET /v1/account HTTP/1.1\r\nHost: x\r\nAuthorization Bearer {SECRET}\r\n\r\n".encode(),  # no colon
            b"GET /v1/account?token=plain-secret-token HTTP/1.1\r\nHost: x\r\nX-Bad\r\n\r\n",
        ):
            raw_request(server.port, request_bytes)
        echoed = requests.get(server.url + "/v1/health", headers={"X-Request-Id": SECRET}, timeout=5)
        requests.get(server.url + "/v1/account", headers={"X-Request-Id": f"id-{SECRET}"}, timeout=5)
    assert SECRET not in echoed.headers["X-Request-Id"]
    text = log.read_text()
    assert "Invalid" in text or "invalid" in text  # gunicorn did log the refusals
    assert SECRET[3:] not in text and "plain-secret-token" not in text, text


def test_workers_added_at_run_time_are_refused_with_memory_limits(database_url, tmp_path):
    """SIGTTIN (or gunicorn's control socket) would add a worker counting limits apart."""
    import os
    import signal

    log = tmp_path / "server.log"
    with Gunicorn(server_env(database_url, "memory://"), log=log) as server:
        assert len(server.worker_pids()) == 1
        os.kill(server.process.pid, signal.SIGTTIN)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "workers" not in log.read_text():
            time.sleep(0.1)
        time.sleep(1)  # a worker the arbiter would add appears within its next loop (1 s)
        assert len(server.worker_pids()) == 1
    assert "GOSTERGE_RATELIMIT_STORAGE_URI" in log.read_text()


def test_the_control_socket_is_off(database_url, limiter_storage, tmp_path):
    """gunicorn's control socket sits at one path per user, shared by every instance."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**server_env(database_url, limiter_storage), "HOME": str(home), "XDG_RUNTIME_DIR": str(home)}
    with Gunicorn(env):
        assert not (home / "gunicorn.ctl").exists() and not (home / ".gunicorn").exists()


def test_every_request_has_its_access_line_under_gunicorn(make_key, database_url, limiter_storage, tmp_path):
    """Under gunicorn the access line goes to standard error's queue without a log record: each request
    still has its one JSON line, with its request id, key id and status, the key sent as `apikey`
    redacted, and lines written while requests go on (the queue's own thread)."""
    key = make_key()
    log = tmp_path / "server.log"
    with Gunicorn(server_env(database_url, limiter_storage), log=log) as server:
        answers = [requests.get(f"{server.url}/v1/public-procurement/supply-flows?limit=2&apikey={key}", timeout=10)
                   for _ in range(3)]
        refused = requests.get(f"{server.url}/v1/public-procurement/supply-flows", timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and log.read_text().count('"path": "/v1/public-procurement/supply-flows"') < 4:
            time.sleep(0.1)
    lines = [json.loads(line) for line in log.read_text().splitlines()
             if line.startswith("{") and '"/v1/public-procurement/supply-flows"' in line]
    by_id = {line["request_id"]: line for line in lines}
    assert len(lines) == 4 and len(by_id) == 4, lines
    for answer in answers:
        line = by_id[answer.headers["X-Request-Id"]]
        assert answer.status_code == 200 and line["status"] == 200 and line["key_id"] is not None
        assert line["query"] == "limit=2&apikey=REDACTED" and line["method"] == "GET"
    assert by_id[refused.headers["X-Request-Id"]]["status"] == 401
    assert key[3:] not in log.read_text()
