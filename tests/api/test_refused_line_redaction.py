"""A key sent percent-encoded (`?api%6Bey=%67k%5F…`, which the API decodes and accepts) in a request line
the server refuses (a NUL byte in it, an unknown version, a word too many) never reaches the log in clear: gunicorn's error log quotes the
line as it came, and so does `gosterge serve`'s. Real servers, raw sockets."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from tests.conftest import ROOT
from tests.helpers import PROBLEM_BASE, Gunicorn, free_port, wait_for_health

pytestmark = pytest.mark.slow

SECRET = "gk_SeCrEtKeYoFaCaLlEr_0123456789"
# Every character of the name and the key percent-encoded, and both once more for good measure.
ENCODED = "".join(f"%{ord(c):02X}" for c in SECRET)
LINES = [
    f"GET /v1/account?api%6Bey={ENCODED}\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    f"GET /v1/account?%61pikey={quote(ENCODED)}&\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /v1/account?tok%65n=%70lain%2Dsecret%2Dtoken\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    f"GET /v1/account?api%6Bey={ENCODED} HTTP/9.1\r\nHost: x\r\n\r\n",  # a version no server speaks
    f"GET /v1/account?api%6Bey={ENCODED} HTTP/1.1 x\r\nHost: x\r\n\r\n",  # a word too many
]


def send_raw(port: int, data: str) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data.encode("latin-1"))
        while s.recv(65536):
            pass


def assert_no_secret(log: Path) -> None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and log.read_text(errors="replace").count("REDACTED") < 2:
        time.sleep(0.1)  # the lines go out through a queue
    text = log.read_text(errors="replace")
    assert "REDACTED" in text, text  # the refused lines were logged, redacted
    for secret in (SECRET[3:], ENCODED[9:], quote(ENCODED)[9:], "secret%2Dtoken", "secret-token"):
        assert secret not in text, text


def env(database_url: str, storage: str) -> dict[str, str]:
    return {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": storage,
            "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE}


def test_gunicorn_logs_a_refused_line_without_its_encoded_key(app, database_url, limiter_storage, tmp_path):
    log = tmp_path / "server.log"
    with Gunicorn(env(database_url, limiter_storage), log=log) as server:
        for line in LINES:
            send_raw(server.port, line)
    assert_no_secret(log)


def test_gosterge_serve_logs_a_refused_line_without_its_encoded_key(app, database_url, limiter_storage, tmp_path):
    log, port = tmp_path / "serve.log", free_port()
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT,
                                   env={**os.environ, **env(database_url, limiter_storage)}, stdout=out, stderr=out)
        try:
            wait_for_health(port, process)
            for line in LINES:
                send_raw(port, line)
            requests.get(f"http://127.0.0.1:{port}/v1/account?api%6Bey={ENCODED}", timeout=5)
        finally:
            process.terminate()
            process.wait(10)
    assert_no_secret(log)
