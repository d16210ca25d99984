"""Shared test helpers: the one problem assertion, release writers and a live server."""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests
from sqlalchemy import inspect
from werkzeug.serving import make_server

from loaders.procurement.release import COLUMNS, OPTIONAL_COLUMNS
from store.details import detail_tables
from store.release_db import release_file, releases_folder

PROBLEM_BASE = "https://problems.test"
ROOT = Path(__file__).resolve().parents[1]
# The project's own documents the tests read, beside this file wherever the test files themselves are.
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def release_table_names(engine, release_id: int) -> set[str]:  # noqa: ANN001
    """Which of a release's own tables exist, in the main database or (SQLite) in the release's file."""
    with engine.connect() as connection:
        names = set(inspect(connection).get_table_names())
    folder = releases_folder(engine)
    if folder is not None and release_file(folder, release_id).exists():
        own = sqlite3.connect(release_file(folder, release_id).as_uri() + "?mode=ro", uri=True)
        try:
            names |= {r[0] for r in own.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            own.close()
    return names & {t.name for t in detail_tables(release_id).all}


def assert_problem(response, status: int, slug: str) -> dict[str, Any]:  # noqa: ANN001
    """The one check of the error shape (decisions.md): media type, type URL, title, status."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:500])
    assert response.headers["Content-Type"].startswith("application/problem+json")
    body = json.loads(response.get_data(as_text=True))
    assert body["type"] == f"{PROBLEM_BASE}/{slug}"
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    return body


def walk_pages(client, path: str, headers, *, limit: int | None = None, max_pages: int = 1000) -> list[dict]:  # noqa: ANN001
    """Follow next_cursor to the end, with a guard against paging that never ends; `total` must match."""
    first = f"{path}{'&' if '?' in path else '?'}limit={limit}" if limit else path
    items, url = [], first
    for _ in range(max_pages):
        body = client.get(url, headers=headers).get_json()
        items += body["items"]
        if body["next_cursor"] is None:
            assert body["total"] == len(items)
            return items
        url = f"{first}{'&' if '?' in first else '?'}cursor={body['next_cursor']}"
    raise AssertionError("paging did not end")


def error_parameters(body: dict[str, Any]) -> list[str]:
    return [e["parameter"] for e in body["errors"]]


def write_release(directory: Path, tables: dict[str, list[dict[str, Any]]], *, release: str = "2026-W47",
                  published: str = "2026-11-20T06:00:00Z", synthetic: bool = False,
                  rows_override: dict[str, int] | None = None, optional: bool = False) -> Path:
    """Write a release directory from rows; files missing from `tables` are written empty; with
    `optional`, the optional columns too (tenders' `name`)."""
    directory.mkdir(parents=True, exist_ok=True)
    datasets = []
    for file, columns in COLUMNS.items():
        columns = columns + (OPTIONAL_COLUMNS.get(file, []) if optional else [])
        rows = tables.get(file, [])
        with open(directory / file, "w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
            writer.writeheader()
            for row in rows:
                writer.writerow({c: "" if row.get(c) is None else row.get(c) for c in columns})
        count = (rows_override or {}).get(file, len(rows))
        datasets.append({"name": file[:-4], "file": file, "rows": count, "citation": f"cite {file}", "url": "https://x.test"})
    manifest = {"release": release, "publishedAt": published, "synthetic": synthetic, "datasets": datasets}
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return directory


class LiveServer:
    """The app on a real loopback port, threaded like a production server."""

    def __init__(self, app):  # noqa: ANN001
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # Polled every 50 ms, not serve_forever's 500: shutdown() waits for the next poll, and the
        # suite stops a live server after each of a hundred tests.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(5)


class TcpProxy:
    """A loopback TCP proxy that can be stopped and started, standing in for a database going away."""

    def __init__(self, target_host: str, target_port: int):

        self.target = (target_host, target_port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._listener = None
        self._sockets: list = []
        self._lock = threading.Lock()

    def start(self) -> None:

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(50)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener) -> None:  # noqa: ANN001

        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source, sink) -> None:  # noqa: ANN001
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.close()
                except OSError:
                    pass

    def stop(self) -> None:

        if self._listener is not None:
            # close() alone does not wake a thread blocked in accept() on Linux; shutdown() does.
            try:
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        with self._lock:
            for s in self._sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self._sockets.clear()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


GUNICORN_STARTUP_SECONDS = 120


def wait_for_health(port: int, process, *, what: str = "gosterge serve", seconds: float = 60) -> None:  # noqa: ANN001
    """Return once the server on `port` answers /v1/health; fail if `process` ends or `seconds` pass."""
    import requests

    deadline = time.monotonic() + seconds
    while True:
        try:
            requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=2)
            return
        except requests.RequestException:
            assert time.monotonic() < deadline and process.poll() is None, f"{what} did not start"
            time.sleep(0.2)


class Gunicorn:
    """The API under gunicorn with the production configuration (gunicorn.conf.py), configured by
    GOSTERGE_* variables; more than one worker needs shared limit storage, as in production."""

    def __init__(self, env: dict[str, str], *, workers: int = 1, log: Path | None = None,
                 config: Path = ROOT / "gunicorn.conf.py"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(config), "--workers", str(workers),
             "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "2"],
            cwd=ROOT, env={**os.environ, **env}, stdout=self._log, stderr=self._log)

    def __enter__(self) -> Gunicorn:
        # Generous: on a busy machine a worker importing the app took more than 30 s to answer.
        deadline = time.monotonic() + GUNICORN_STARTUP_SECONDS
        while True:
            try:
                requests.get(f"{self.url}/v1/openapi.json", timeout=2)
                return self
            except requests.RequestException:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.__exit__()
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        if not isinstance(self._log, int):
            self._log.close()

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return [int(pid) for pid in children]

    def kill_worker(self, pid: int) -> None:
        os.kill(pid, signal.SIGKILL)


@dataclass(frozen=True)
class Answer:
    started: float
    ended: float
    status: int | None  # None: the connection failed
    problem_type: str | None
    path: str


class Load:
    """Threads requesting `paths` in turn until stopped, recording every answer and when it came."""

    def __init__(self, base_url: str, paths: list[str], headers: dict[str, str], *, threads: int = 4,
                 timeout: float = 30, close_connections: bool = False):
        self.base_url, self.paths, self.headers, self.timeout = base_url, paths, headers, timeout
        if close_connections:
            # A new connection per request spreads the requests over every worker.
            self.headers = {**headers, "Connection": "close"}
        self.answers: list[Answer] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(self.timeout + 5)

    def _run(self, offset: int) -> None:
        session = requests.Session()
        turn = offset
        while not self._stop.is_set():
            path = self.paths[turn % len(self.paths)]
            turn += 1
            started = time.monotonic()
            try:
                response = session.get(self.base_url + path, headers=self.headers, timeout=self.timeout)
                status = response.status_code
                kind = response.json().get("type") if response.headers.get("Content-Type", "").startswith(
                    "application/problem+json") else None
            except requests.RequestException:
                status, kind = None, None
                session = requests.Session()
            with self._lock:
                self.answers.append(Answer(started, time.monotonic(), status, kind, path))

    def between(self, start: float, end: float) -> list[Answer]:
        """Answers to requests sent after `start` and answered before `end`."""
        with self._lock:
            return [a for a in self.answers if a.started >= start and a.ended <= end]
