"""Canaries: the places that lean on a library's internals, one test each. Each fails, naming the
library and the code to re-check, on the day an upgrade changes what the code relies on; the
behaviour those places give is tested elsewhere. (The eighth place, store/debits.py's import of a
private statement of store/keys.py, leaned on our own code: the statement is public now, `DEBIT`.)"""

from __future__ import annotations

import logging

from flask import Flask, request
from flask_compress.flask_compress import _choose_algorithm
from sqlalchemy.pool import QueuePool
from werkzeug.wrappers import Response

from api import create_app
from api.context import this_request
from api.limits import limiter
from api.logs import access_log
from api.transport.headers import ApiResponse

ENVIRON = {"REQUEST_METHOD": "GET", "SERVER_NAME": "localhost", "SERVER_PORT": "80", "wsgi.url_scheme": "http"}


def test_flask_compress_still_chooses_gzip_through_its_private_helper():
    assert _choose_algorithm(("gzip",), "gzip") == "gzip" and _choose_algorithm(("gzip",), "br") is None, \
        "flask-compress upgrade: re-check api/transport/compression.py `_compressed_with` (its private _choose_algorithm)"


def test_flask_limiter_still_skips_its_hooks_for_an_app_that_lists_it(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/c.db", "VAR_DIR": str(tmp_path)})
    assert limiter._check_request_limit not in app.before_request_funcs.get(None, []), \
        "flask-limiter upgrade: re-check api/limits.py `init_limits` (hooks left out by listing the limiter first)"


def test_werkzeug_sends_the_headers_our_shortcut_sends_as_they_stand():
    response = ApiResponse(b"{}", mimetype="application/json", headers={"ETag": '"x"', "Content-Length": "2"})
    assert list(response.get_wsgi_headers(ENVIRON)) == list(Response.get_wsgi_headers(response, ENVIRON)), \
        "werkzeug upgrade: re-check api/transport/headers.py `ApiResponse.get_wsgi_headers` (what werkzeug fixes)"


def test_sqlalchemy_queue_pool_still_waits_in_do_get():
    assert callable(vars(QueuePool).get("_do_get")), \
        "SQLAlchemy upgrade: re-check store/db.py `StorePool._do_get` (the pool's wait for a free connection)"


def test_flask_still_asks_ensure_sync_for_every_view(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/c.db", "VAR_DIR": str(tmp_path)})
    app.test_client().get("/v1/health")
    assert app.view_functions["health.get_health"] in app._sync, \
        "Flask upgrade: re-check api/__init__.py `ApiFlask.ensure_sync` (Flask no longer calls it for views)"


def test_flask_proxies_still_give_their_object():
    with Flask(__name__).test_request_context("/"):
        assert this_request() is request._get_current_object() and not hasattr(this_request(), "_get_current_object"), \
            "Flask/werkzeug upgrade: re-check api/context.py (the proxies' _get_current_object)"


def test_logging_still_lets_the_access_line_bypass_logger_log():
    record = access_log.makeRecord(access_log.name, logging.INFO, __file__, 0, "line", (), None)
    assert record.getMessage() == "line" and {"filters", "handlers", "propagate", "parent"} <= set(vars(access_log)), \
        "Python logging change: re-check api/logs.py `log_request` and `_only_queue` (records made and routed by hand)"


class _Seen(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[logging.LogRecord] = []

    def handle(self, record: logging.LogRecord) -> bool:  # type: ignore[override]
        self.seen.append(record)
        return True


def test_logging_still_hands_records_to_a_handlers_handle():
    logger, handler = logging.getLogger("gosterge.canary"), _Seen()
    logger.propagate, logger.level = False, logging.INFO
    logger.addHandler(handler)
    logger.info("line")
    assert [r.getMessage() for r in handler.seen] == ["line"], \
        "Python logging change: re-check api/logs.py `QueuedStderrHandler.handle` (Handler.handle without its lock)"
