"""The one deadline on request bodies, whichever server runs the app (gunicorn's gevent worker, the
threads of `gosterge serve`): a WSGI middleware in front of Flask.

gunicorn's gevent worker bounds the request line and headers only (`keepalive` seconds); a view
reading the body would then wait for as long as the client likes to send it. So before the app sees
a request, a small body (every body but the release upload's: at most MAX_BODY_BYTES, chunked ones
included) is read whole within GOSTERGE_BODY_SECONDS and handed on from memory: a request whose body
is late never reaches a view or a rate limit, so it counts against no sign-up or decision limit. A
larger body (the release upload) is handed on as it comes, each read of it within BODY_SECONDS and the
whole within BODY_SECONDS + length / GOSTERGE_UPLOAD_MIN_BYTES_PER_SECOND.

A late body is cut by shutting the reading side of the client's socket: every blocked read, a
greenlet's or a thread's, returns at once, the answer (408) can still be written, and the server
then finds the connection at its end and closes it.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.exceptions import RequestTimeout

from api.context import this_request
from api.problems import InvalidParameters, PayloadTooLarge
from api.problems import RequestTimeout as LateBody

# The key of the WSGI environment naming what was wrong with a body read here: "late" (it did not arrive
# within the deadline), "short" (the client closed inside it) or "large" (a chunked body past the limit,
# which cannot be refused by its length). `refuse_bad_body` turns it into a problem before any limit.
BODY_REFUSED = "gosterge.body_refused"
# What each server puts in the environment for the client's socket.
SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")
CHUNK = 64 * 1024


class Watchdog:
    """Cuts the client's socket when a read has waited `seconds` or the whole body is past `until`.
    It runs in a thread of its own (a greenlet where gevent has patched threading) and only while a
    body is being read."""

    def __init__(self, sock: Any, seconds: float, until: float) -> None:
        self.sock, self.seconds, self.until = sock, seconds, until
        self.reading_since: float | None = None
        self.cut = False
        self._done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _next_check(self) -> float:
        now = time.monotonic()
        due = self.until if self.reading_since is None else min(self.until, self.reading_since + self.seconds)
        return max(0.01, min(due - now, self.seconds))

    def _watch(self) -> None:
        while not self._done.wait(self._next_check()):
            now = time.monotonic()
            stalled = self.reading_since is not None and now - self.reading_since >= self.seconds
            if stalled or now >= self.until:
                self.cut = True
                try:
                    self.sock.shutdown(socket.SHUT_RD)
                except OSError:  # already gone
                    pass
                return

    def read(self, stream: Any, size: int) -> bytes:
        self.reading_since = time.monotonic()
        try:
            return stream.read(size)
        except (OSError, ValueError):
            if self.cut:
                return b""
            raise
        finally:
            self.reading_since = None

    def stop(self) -> None:
        self._done.set()


class PacedInput(io.RawIOBase):
    """A large body (the release upload) as it arrives, under its watchdog: a late read raises 408,
    which Flask answers as a problem (api/errors.py)."""

    def __init__(self, stream: Any, length: int, watchdog: Watchdog) -> None:
        super().__init__()
        self.stream, self.left, self.watchdog = stream, length, watchdog

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        data = self.watchdog.read(self.stream, min(len(buffer), self.left, CHUNK))
        if self.watchdog.cut:
            raise RequestTimeout("The request body did not arrive in time.")
        if not data:  # the client closed before its declared length
            raise ConnectionResetError("the client closed the connection inside the request body")
        self.left -= len(data)
        buffer[:len(data)] = data
        if self.left <= 0:
            self.watchdog.stop()
        return len(data)

    def close(self) -> None:
        self.watchdog.stop()
        super().close()


def read_whole(stream: Any, length: int | None, limit: int, watchdog: Watchdog) -> bytes:
    """The body (`length` bytes, or up to EOF when chunked, at most limit + 1), or what came before
    the watchdog cut it."""
    parts, got = [], 0
    wanted = length if length is not None else limit + 1
    while got < wanted:
        data = watchdog.read(stream, min(CHUNK, wanted - got))
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


class BodyDeadline:
    """The WSGI middleware: see the module's description."""

    def __init__(self, app: Callable[..., Iterable[bytes]], *, seconds: float, min_rate: int, small: int) -> None:
        self.app, self.seconds, self.min_rate, self.small = app, seconds, min_rate, small

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            length = None if chunked else int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # the server refuses such a request before the app; nothing to wait for
        if length == 0:  # every GET: nothing to wait for
            return self.app(environ, start_response)
        sock = next((environ[k] for k in SOCKET_KEYS if k in environ), None)
        if sock is None:  # a server that gives no socket (Flask's test client: the body is in memory)
            return self.app(environ, start_response)
        started = time.monotonic()
        if length is not None and length > self.small:
            until = started + self.seconds + length / self.min_rate
            environ["wsgi.input"] = io.BufferedReader(PacedInput(environ["wsgi.input"], length,
                                                                 Watchdog(sock, self.seconds, until)), CHUNK)
            return self.app(environ, start_response)
        watchdog = Watchdog(sock, self.seconds, started + self.seconds)
        try:
            body = read_whole(environ["wsgi.input"], length, self.small, watchdog)
        finally:
            watchdog.stop()
        if watchdog.cut:
            environ[BODY_REFUSED] = "late"
        elif length is not None and len(body) < length:
            environ[BODY_REFUSED] = "short"
        elif len(body) > self.small:
            environ[BODY_REFUSED] = "large"
        if BODY_REFUSED in environ:
            body = b""
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        if chunked:
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def refuse_bad_body() -> None:
    """Flask's first before_request hook: a body the middleware refused is answered here, before the
    rate limits count the request (a sign-up counts only once its body has arrived)."""
    refused = this_request().environ.get(BODY_REFUSED)
    if refused == "late":
        raise LateBody("The request body did not arrive in time; send it at once after the headers.")
    if refused == "short":
        raise InvalidParameters([{"parameter": "body", "message": "ended before its Content-Length"}])
    if refused == "large":
        raise PayloadTooLarge("The chunked request body is too large; a larger body needs a Content-Length.")
