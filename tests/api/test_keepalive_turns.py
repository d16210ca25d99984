"""Kept-alive connections take turns under gunicorn.conf.py's gevent worker: a client
whose next requests are already waiting in its socket does not hold the worker while another client's
request waits. Before, the worker answered every request one connection had sent before it looked at
any other: one answer in a hundred waited 0.1-1 s under wrk. Real gunicorn, raw sockets; the order of
the answers is checked, not their times."""

from __future__ import annotations

import socket
import threading

import pytest

from tests.helpers import PROBLEM_BASE, Gunicorn

pytestmark = pytest.mark.slow

PIPELINED = 2000
REQUEST = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
STATUS_LINE = b"HTTP/1.1 200"


def test_a_busy_connection_does_not_hold_the_worker(app, database_url, limiter_storage):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage,
           "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE}
    with Gunicorn(env) as server:
        busy = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        received = bytearray()
        lock = threading.Lock()

        def read_busy() -> None:
            while True:
                chunk = busy.recv(65536)
                if not chunk:
                    return
                with lock:
                    received.extend(chunk)
                    if received.count(STATUS_LINE) >= PIPELINED:
                        return

        reader = threading.Thread(target=read_busy, daemon=True)
        reader.start()
        busy.sendall(REQUEST * PIPELINED)  # every request at once, as a client that never waits would
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as other:
            other.sendall(REQUEST.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
            answer = b""
            while chunk := other.recv(65536):
                answer += chunk
        with lock:
            busy_answered = received.count(STATUS_LINE)
        reader.join(60)
        busy.close()
    assert answer.startswith(STATUS_LINE)
    # The other client's answer came while the busy one's were still being written.
    assert busy_answered < PIPELINED, busy_answered
