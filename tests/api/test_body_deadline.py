"""Request bodies must arrive within GOSTERGE_BODY_SECONDS of their headers, under gunicorn.conf.py and
under `gosterge serve`: a stalled body is answered 408 and its connection closed, held bodies never make
other requests wait, and a stalled sign-up counts against no sign-up limit. Real servers, real sockets."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest
import requests

from tests.conftest import ROOT
from tests.helpers import PROBLEM_BASE, Gunicorn, free_port, wait_for_health

pytestmark = pytest.mark.slow

# Far longer than the deadlines below: before the deadline existed such a body was held for ever.
CLIENT_SECONDS = 30
STALLED = 200


def server_env(database_url: str, storage: str, **settings: str) -> dict[str, str]:
    return {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": storage,
            "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE, **{f"GOSTERGE_{k}": v for k, v in settings.items()}}


def stalled_signup(port: int, path: str = "/v1/accounts") -> socket.socket:
    """A sign-up whose headers promise 500 bytes of which 9 are sent."""
    s = socket.create_connection(("127.0.0.1", port), timeout=CLIENT_SECONDS)
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              "Content-Length: 500\r\n\r\n{\"email\":".encode())
    return s


def answer_and_close(s: socket.socket) -> tuple[int, dict]:
    """The status and problem the server wrote, read until it closed the connection (a socket timeout,
    the client's 30 s, fails the test: the server held the connection)."""
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_stalled_body_is_answered_408_and_closed_under_gunicorn(app, database_url, limiter_storage):
    with Gunicorn(server_env(database_url, limiter_storage, BODY_SECONDS="1")) as server:
        status, problem = answer_and_close(stalled_signup(server.port))
        # A chunked body is read within the same deadline, up to the 16 KB every route but the upload takes.
        small = requests.post(server.url + "/v1/accounts", data=iter([b'{"email": 5}']),
                              headers={"Content-Type": "application/json"}, timeout=10)
        large = requests.post(server.url + "/v1/accounts", data=iter([b"x" * 40_000]),
                              headers={"Content-Type": "application/json"}, timeout=10)
    assert status == 408 and problem["type"] == f"{PROBLEM_BASE}/request_timeout"
    assert small.status_code == 400 and "email" in [e["parameter"] for e in small.json()["errors"]]
    assert large.status_code == 413 and large.json()["type"] == f"{PROBLEM_BASE}/payload_too_large"


def test_health_answers_while_stalled_bodies_are_held(app, database_url, limiter_storage):
    """200 stalled bodies at once, opened again as the server cuts them (as an attacker would): /v1/health
    still answers, and every stalled body is cut and its connection closed."""
    with Gunicorn(server_env(database_url, limiter_storage, BODY_SECONDS="2")) as server:
        held = [stalled_signup(server.port) for _ in range(STALLED)]
        health = [requests.get(server.url + "/v1/health", timeout=2).status_code for _ in range(5)]
        answers = [answer_and_close(s)[0] for s in held]
        held = [stalled_signup(server.port) for _ in range(STALLED)]
        health += [requests.get(server.url + "/v1/health", timeout=2).status_code for _ in range(5)]
        answers += [answer_and_close(s)[0] for s in held]
    assert set(health) == {200}
    assert answers == [408] * (2 * STALLED)


def test_a_stalled_signup_counts_against_no_signup_limit(app, database_url, limiter_storage, tmp_path):
    env = server_env(database_url, limiter_storage, BODY_SECONDS="1", SIGNUP_RATE_PER_ADDRESS="2/hour",
                     PUBLIC_BASE_URL="http://127.0.0.1:8000", VAR_DIR=str(tmp_path))
    with Gunicorn(env) as server:
        stalled = [stalled_signup(server.port) for _ in range(3)]
        assert [answer_and_close(s)[0] for s in stalled] == [408] * 3
        signed_up = requests.post(server.url + "/v1/accounts", json={"email": "ayse@example.com",
                                                                    "apis": ["public-procurement"]}, timeout=10)
    assert signed_up.status_code == 202, signed_up.text


def test_a_release_upload_stalling_past_its_read_deadline_is_cut(app, make_key, database_url, limiter_storage,
                                                                  tmp_path):
    """A large body is handed on as it comes (a release upload may be 200 MB), each read within the
    deadline: an admin's upload that stops halfway is answered 408 and closed, not held."""
    admin = make_key(is_admin=True)
    env = server_env(database_url, limiter_storage, BODY_SECONDS="1", UPLOAD_DIR=str(tmp_path / "uploads"))
    with Gunicorn(env) as server:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=CLIENT_SECONDS)
        part = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.zip\"\r\n\r\n" + b"x" * 100_000
        s.sendall(f"POST /v1/admin/releases HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {admin}\r\n"
                  "Content-Length: 10000000\r\nContent-Type: multipart/form-data; boundary=b\r\n\r\n".encode() + part)
        status, problem = answer_and_close(s)
    assert status == 408 and problem["type"] == f"{PROBLEM_BASE}/request_timeout"


def test_a_stalled_body_is_answered_408_and_closed_under_gosterge_serve(app, database_url, limiter_storage):
    port = free_port()
    env = {**os.environ, **server_env(database_url, limiter_storage, BODY_SECONDS="1")}
    process = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_health(port, process)
        held = [stalled_signup(port) for _ in range(20)]
        assert requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=5).status_code == 200
        statuses = [answer_and_close(s) for s in held]
    finally:
        process.terminate()
        process.wait(10)
    assert {status for status, _ in statuses} == {408}
    assert statuses[0][1]["type"] == f"{PROBLEM_BASE}/request_timeout"
