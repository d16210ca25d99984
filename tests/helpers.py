"""Shared test helpers: the one problem assertion, release writers and a live server."""

from __future__ import annotations

import csv
import json
import threading
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from loaders.procurement.release import COLUMNS

PROBLEM_BASE = "https://problems.test"


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
                  rows_override: dict[str, int] | None = None) -> Path:
    """Write a release directory from rows; files missing from `tables` are written empty."""
    directory.mkdir(parents=True, exist_ok=True)
    datasets = []
    for file, columns in COLUMNS.items():
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
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(5)


class TcpProxy:
    """A loopback TCP proxy that can be stopped and started, standing in for a database going away."""

    def __init__(self, target_host: str, target_port: int):
        import socket

        self.target = (target_host, target_port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._listener = None
        self._sockets: list = []
        self._lock = threading.Lock()

    def start(self) -> None:
        import socket

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(50)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener) -> None:  # noqa: ANN001
        import socket

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
        import socket

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
