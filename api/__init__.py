"""The Gösterge HTTP API: `create_app(config)` wires configuration, the store, limits and blueprints."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from api.answers import AnswerCache
from api.areas import install
from api.bodies import MAX_BODY_BYTES
from api.config import ensure_sqlite_dir, load_config
from api.cursor_key import CursorKey
from api.db import close_session
from api.digests import start_digest_sender
from api.errors import register_error_handlers
from api.keycache import CallerCache
from api.limits import add_limit_headers, init_limits
from api.logs import QueuedStderrHandler, log_request, redact_handlers, start_request
from api.transport.bodydeadline import BodyDeadline, refuse_bad_body
from api.transport.compression import init_compression
from api.transport.headers import ApiResponse, add_security_headers
from api.transport.totals import TotalCache
from api.transport.urls import refuse_untrusted_port, untrusted_mail_links
from store.db import create_store_engine, make_session_factory
from store.debits import open_debits


def configure_logging(level: str) -> None:
    """Under gunicorn nobody sets up the root logger: the access log would be dropped, and so would
    flask-limiter's warning that Redis is unreachable (it logs to a NullHandler). Give both loggers a
    handler on standard error unless the host process has set up logging itself."""
    logging.getLogger("gosterge").setLevel(level)
    names = ("gosterge", "flask-limiter")
    if not logging.getLogger().handlers:
        for name in names:
            logger = logging.getLogger(name)
            if not any(isinstance(h, QueuedStderrHandler) for h in logger.handlers):
                logger.addHandler(QueuedStderrHandler())  # the write never blocks a request
    # Keys and tokens are redacted by every handler that writes this process's records.
    redact_handlers(logging.getLogger(), *(logging.getLogger(name) for name in names))


def configure_addresses(app: Flask) -> None:
    """Which proxies and hosts to believe (api/transport/urls.py builds absolute URLs from the request).

    X-Forwarded-For/-Proto/-Host/-Port/-Prefix from GOSTERGE_TRUSTED_PROXIES proxies become the
    request's address, scheme, host and prefix (rate limits per address, absolute URLs); without a
    count they are ignored, since any client can send them. Flask's TRUSTED_HOSTS comes from the
    comma-separated setting. Without a public base URL the approval mail's links are built from the
    request's Host: a forged Host would send the mailbox owner to a host of the requester's choosing,
    so a server that sends real mail without either refuses sign-ups and says so at start."""
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,  # type: ignore[method-assign]
                                x_port=proxies, x_prefix=proxies)
    hosts = [h.strip() for h in str(app.config["TRUSTED_HOSTS"] or "").split(",") if h.strip()]
    app.config["TRUSTED_HOSTS"] = hosts or None
    problem = untrusted_mail_links(app.config)
    if problem is not None:
        logging.getLogger("gosterge").error("sign-ups are refused: %s", problem)


class ApiFlask(Flask):
    """Flask, asking once per function whether a view or hook is a coroutine. Flask asks `inspect` again
    for every hook of every request (`ensure_sync`, its documented point of change), a measurable part
    of the framework's own work on a remembered paid answer; none of the API's functions is one.
    tests/test_library_canaries.py fails when Flask stops asking it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        sync = self._sync.get(func)
        if sync is None:
            sync = self._sync[func] = super().ensure_sync(func)
        return sync


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = ApiFlask(__name__)
    app.response_class = ApiResponse
    app.config.update(load_config(config))
    # Every body is small but the release upload's, which raises its own limit (api/routes/admin.py).
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    # OPTIONS is a 405 problem with Allow, and a path with doubled slashes a 404 problem, rather than
    # Flask's empty HTML answer and Werkzeug's HTML redirect to the merged path.
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    app.url_map.merge_slashes = False
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    configure_logging(app.config["LOG_LEVEL"])
    configure_addresses(app)

    ensure_sqlite_dir(app.config["DATABASE_URL"])
    engine = create_store_engine(
        app.config["DATABASE_URL"],
        statement_timeout_ms=app.config["STATEMENT_TIMEOUT_MS"],
        pool_size=app.config["DB_POOL_SIZE"],
    )
    app.extensions["gosterge.engine"] = engine
    app.extensions["gosterge.sessions"] = make_session_factory(engine)
    app.extensions["gosterge.debits"] = open_debits(
        app.config["DATABASE_URL"], engine, statement_timeout_ms=app.config["STATEMENT_TIMEOUT_MS"],
        pool_size=app.config["DB_POOL_SIZE"])
    app.extensions["gosterge.callers"] = CallerCache(engine, trust_seconds=app.config["KEY_CACHE_MS"] / 1000)
    app.extensions["gosterge.totals"] = TotalCache()
    app.extensions["gosterge.cursor_key"] = CursorKey(app.config["CURSOR_SECRET"])
    if app.config["ANSWER_CACHE_BYTES"] > 0:
        app.extensions["gosterge.answers"] = AnswerCache(app.config["ANSWER_CACHE_BYTES"])

    app.before_request(start_request)
    # Before the limiter's hooks: a body that came late is answered before any rate limit counts it.
    app.before_request(refuse_bad_body)
    app.before_request(refuse_untrusted_port)
    # Registered before the limiter so that they run after its own after_request (Flask runs them in
    # reverse), when the hit of this request has been counted.
    app.after_request(log_request)
    app.after_request(add_security_headers)
    app.after_request(add_limit_headers)
    init_limits(app)
    # Last, so that its after_request runs first and the headers above see the final answer.
    init_compression(app)
    app.teardown_appcontext(close_session)

    from api.routes import (
        account,
        accounts,
        admin,
        digest_links,
        downloads,
        health,
        meta,
        news,
        parties,
        procurement,
        reference,
        watchlists,
    )

    # The OpenAPI document describes the operations of these areas, in this order.
    install(app, procurement.area, parties.area, watchlists.area, digest_links.area, reference.area, downloads.area, news.area, account.area,
            accounts.area, admin.area, meta.area, health.area)
    register_error_handlers(app)
    start_digest_sender(app.extensions["gosterge.sessions"], app.config)
    # Outermost (around ProxyFix too): the body is read within its deadline before anything else runs.
    app.wsgi_app = BodyDeadline(app.wsgi_app, seconds=app.config["BODY_SECONDS"],  # type: ignore[method-assign]
                                min_rate=app.config["UPLOAD_MIN_BYTES_PER_SECOND"], small=MAX_BODY_BYTES)
    return app
