"""What the API needs from gunicorn (gunicorn.conf.py): problem documents for the requests gunicorn
refuses before the app sees them, the refusal to count rate limits per worker, and a loaded app kept
out of the garbage collector's full passes."""

from __future__ import annotations

import gc
import json
import sys
from typing import Any

from gunicorn import util
from gunicorn.glogging import Logger

from api.config import load_config
from api.logs import redact_handlers
from api.problems import PROBLEM_MEDIA_TYPE

# The slug of each status gunicorn refuses with (decisions.md lists the API's own; 414, 417, 431 and
# 501 come only from gunicorn). A malformed request is 400 `invalid_parameters` naming `request`.
REFUSAL_SLUGS = {400: "invalid_parameters", 403: "forbidden", 414: "uri_too_long", 417: "expectation_failed",
                 431: "header_fields_too_large", 500: "internal_error", 501: "not_implemented"}
WORKER_BOOT_ERROR = 3  # gunicorn's Arbiter.WORKER_BOOT_ERROR: the arbiter stops instead of retrying


def problem_bytes(status: int, reason: str, detail: str, problem_base: str) -> bytes:
    """A whole HTTP/1.1 answer carrying the problem document for one of gunicorn's refusals."""
    slug = REFUSAL_SLUGS.get(status, "internal_error")
    body: dict[str, Any] = {"type": f"{problem_base.rstrip('/')}/{slug}", "title": reason, "status": status}
    if detail:
        body["detail"] = detail
    if status == 400:
        body["errors"] = [{"parameter": "request", "message": detail or "not a valid HTTP request"}]
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(payload)}\r\n\r\n")
    return head.encode("latin-1") + payload


def answer_refusals_as_problems() -> None:
    """gunicorn writes its refusals (414, 431, 400 …) through `util.write_error` as HTML pages; the
    API's clients expect problem documents, so the worker's copy of that function is replaced."""
    problem_base = load_config()["PROBLEM_BASE"]

    def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, problem_bytes(status_int, reason, mesg, problem_base))

    util.write_error = write_problem


def freeze_loaded_app() -> None:
    """Leave everything loading the app made (modules, routes, the OpenAPI document, SQLAlchemy's
    tables: about 146,000 tracked objects) out of the collector's later passes (`gc.freeze`).

    A full collection visits every tracked object, and it runs in the worker's only thread, every
    connection waiting: in a minute of varied paid answers at two connections one came and took
    77-78 ms; frozen, the later ones visit only what came after and took 1.6-2.6 ms
    (docs/benchmarks.md, "A full collection in the worker"). Those objects live as long as the
    worker anyway; one dropped later is still freed by its reference count, only a cycle among them
    would stay."""
    gc.collect()  # what loading left behind goes first, not into the frozen set
    gc.freeze()


def worker_count_problem(config: dict[str, Any], workers: int) -> str | None:
    """Why this many workers cannot serve with this store and rate-limit storage, or None when they can."""
    storage = str(config.get("RATELIMIT_STORAGE_URI", ""))
    database = str(config.get("DATABASE_URL", ""))
    if workers > 1 and storage.startswith("memory://"):
        return (f"{workers} workers with GOSTERGE_RATELIMIT_STORAGE_URI={storage} would each count rate "
                "limits on their own, multiplying every limit; run one worker, or set "
                "GOSTERGE_RATELIMIT_STORAGE_URI to a shared storage such as redis://host:6379")
    if workers > 1 and database.startswith("sqlite"):
        # Measured (docs/benchmarks.md): a second worker on SQLite served 0.65-1.4 times
        # what one did, mostly less, on the same machine.
        return (f"{workers} workers on SQLite would be slower than one: every paid answer debits its "
                "credits with a write, SQLite lets one connection write at a time, and a worker waiting "
                "for that lock stops all its connections (the wait blocks its event loop); run one "
                "worker, or set GOSTERGE_DATABASE_URL to PostgreSQL for more")
    return None


class RedactingLogger(Logger):
    """gunicorn's logger, whose handlers redact keys and tokens: gunicorn quotes the request lines
    and headers it refuses before the app sees them (`Invalid HTTP request line: 'GET …?apikey=…'`)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        redact_handlers(self.error_log, self.access_log)


def hold_worker_count(arbiter: Any, new_value: int, old_value: int | None) -> None:
    """gunicorn's `nworkers_changed` hook: a worker count raised at run time (SIGTTIN, the control
    socket) is taken back when the storage would count limits in each worker's memory. At start-up
    (no old value) `check_worker_count` refuses the whole server instead."""
    if old_value is None or new_value <= old_value:
        return
    problem = worker_count_problem(load_config(), new_value)
    if problem is not None:
        arbiter.log.error("staying at %d worker(s): %s", old_value, problem)
        arbiter.num_workers = old_value


def check_worker_count(worker: Any) -> None:
    """Stop the whole server (not only this worker) when the worker count and the storage disagree."""
    config = getattr(worker.wsgi, "config", {})
    problem = worker_count_problem(config, worker.cfg.workers)
    if problem is not None:
        worker.log.error("refusing to start: %s", problem)
        sys.exit(WORKER_BOOT_ERROR)
