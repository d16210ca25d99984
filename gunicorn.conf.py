"""gunicorn settings of the API wherever it is served: production, `make demo` and CI.

    gunicorn -c gunicorn.conf.py            # binds 127.0.0.1:8000; --bind and --workers override

gunicorn also reads this file by itself when started from the project folder. Each value says why.
"""

import os

from gunicorn.workers.ggevent import GeventWorker

wsgi_app = "api:create_app()"
bind = ["127.0.0.1:8000"]

# One asynchronous worker by default. A gevent worker gives each connection a greenlet of a few KB
# instead of a whole process or thread, so clients that trickle their headers cannot take every
# worker (a sync worker is held by one such client). More workers need shared rate-limit storage
# (GOSTERGE_RATELIMIT_STORAGE_URI=redis://…): with memory:// each worker would count on its own,
# so starting more than one is refused (api/server.py); so is more than one on SQLite, where every
# paid answer's debit waits for the one write lock and a second worker served less than one.
workers = int(os.environ.get("WEB_CONCURRENCY") or 1)
# Connections one worker holds at once, slow ones included; below the usual limit of 1,024 open
# files per process, leaving room for database, Redis and log descriptors.
worker_connections = 900
# The gevent worker reads each request's line and headers within `keepalive` seconds
# (gunicorn.workers.ggevent.timeout_ctx); a client that trickles its headers is cut off then, and
# an idle keep-alive connection is closed after as long.
keepalive = 5
# A worker whose event loop is blocked this long (a C call that never yields) is killed and
# replaced. SQL statements stop after GOSTERGE_STATEMENT_TIMEOUT_MS (5 s) and release loads run
# in a process of their own, so only a stuck worker reaches it.
timeout = 30
# On a restart, requests in flight get this long to finish.
graceful_timeout = 30
# The longest request line gunicorn accepts (its maximum): long enough that the API's own check of
# the query string (4,096 bytes) answers first, with a problem naming `query`.
limit_request_line = 8190
# Header count and size (gunicorn's defaults, stated): enough for any client of the API; beyond
# them the answer is a 431 problem (api/server.py).
limit_request_fields = 100
limit_request_field_size = 8190
# The API writes one JSON access line per request with keys redacted (api/logs.py); gunicorn's
# own access log would print query strings, keys included, as they came.
accesslog = None
errorlog = "-"
# gunicorn's own log quotes the request lines it refuses, keys included: its handlers redact them.
logger_class = "api.server.RedactingLogger"
# Forwarded headers are believed in one place only, the app's ProxyFix, and only from as many proxies as
# GOSTERGE_TRUSTED_PROXIES counts (api/__init__.py). gunicorn's own defaults would take X-Forwarded-Proto
# (and X-Forwarded-Ssl, X-Forwarded-Protocol) from any client on 127.0.0.1 and make every link https://,
# also with GOSTERGE_TRUSTED_PROXIES=0: so gunicorn believes no address and no scheme header.
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
# gunicorn's control socket (gunicornc) sits at one path per user, shared by every instance that
# user runs, and can add workers; the API is managed by signals and its process manager instead.
control_socket_disable = True


class Worker(GeventWorker):
    """gevent's worker, answering gunicorn's own refusals (request line or headers too long,
    malformed requests) as problem documents like every other error of the API, taking turns
    between keep-alive connections, and keeping the loaded app out of the collector's full passes."""

    def handle_request(self, listener_name, req, sock, addr):  # noqa: ANN001, ANN201
        """After each answer on a kept-alive connection, let every other ready connection go first.

        A greenlet gives way only when a read would block. A client that sends its next request as soon
        as it has the answer (wrk, a busy API client, the dashboard) often has it in the socket before
        the greenlet has finished with the last one, so the greenlet read it at once and answered
        connection after connection of its own while the others' requests waited: one answer in a
        hundred waited 0.1-1 s (docs/benchmarks.md, "Tail latency under the gevent worker")."""
        import gevent

        kept = super().handle_request(listener_name, req, sock, addr)
        gevent.sleep(0)  # to the back of the queue of ready greenlets; I/O is polled meanwhile
        return kept

    def load_wsgi(self) -> None:
        super().load_wsgi()
        from api.server import answer_refusals_as_problems, freeze_loaded_app

        answer_refusals_as_problems()
        freeze_loaded_app()  # last: what the lines above made is frozen too


worker_class = Worker


def nworkers_changed(server, new_value, old_value) -> None:  # noqa: ANN001
    """Keep one worker while rate limits are counted in memory, also when one is added at run time."""
    from api.server import hold_worker_count

    hold_worker_count(server, new_value, old_value)


def post_worker_init(worker) -> None:  # noqa: ANN001
    """Refuse to serve with more than one worker counting rate limits in its own memory."""
    from api.server import check_worker_count

    check_worker_count(worker)


def when_ready(server) -> None:  # noqa: ANN001
    """Watchlist digests are sent by a process the master keeps running, not by the workers: a
    release's first digest reads for seconds, which would hold a gevent worker's every connection."""
    from api.digest_process import start_digest_process

    start_digest_process(server)


def on_exit(server) -> None:  # noqa: ANN001
    from api.digest_process import stop_digest_process

    stop_digest_process(server)
