"""Structured access logs: one JSON line per request, with the key id and never the key."""

from __future__ import annotations

import itertools
import json
import logging
import os
import re
import sys
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode

from flask import Response

from api.context import request_state, this_app, this_request
from api.problems import InvalidParameters
from store.native import native

access_log = logging.getLogger("gosterge.access")
REDACTED_PARAMS = frozenset({"apikey", "token"})
# A load balancer asks these every few seconds: at INFO they would drown the access log. A failing
# answer is still logged at INFO.
QUIET_PATHS = frozenset({"/v1/health", "/v1/ready"})
# Anything shaped like a key (store/keys.py: gk_ and URL-safe base64), wherever a client put it: under
# another parameter name, in the path, inside another value.
KEY_SHAPE = re.compile(r"gk_[A-Za-z0-9_-]{8,}")


# A secret parameter's value in any text (a request line gunicorn quotes, say), and the credential of
# an Authorization header, however the client spelt the header.
SECRET_PARAM = re.compile(r"(?i)\b(apikey|token)=[^&\s'\"]*")
CREDENTIAL = re.compile(r"(?i)(authorization\W+(?:bearer\s+|basic\s+)?)[^\s'\"\\]+")
# A request id is echoed and logged: only plain characters, and nothing shaped like a key.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def redact_keys(text: str) -> str:
    return KEY_SHAPE.sub("gk_REDACTED", text)


# A word each of the three rules above needs, lower-cased. In ASCII text, which lower-cases exactly as
# the rules' case-insensitive matching reads it, a text with none of them has nothing to redact: it
# is given back without running the rules (for every access line, on every paid answer).
SECRET_WORDS = ("gk_", "apikey", "token", "authorization")


# How many times a text is percent-decoded at most before its secrets are looked for: the API decodes a
# query once, and a few more rounds leave nothing a client could hide a key under without a loop.
DECODING_ROUNDS = 4


def _percent_decoded(text: str) -> str:
    for _ in range(DECODING_ROUNDS):
        decoded = unquote(text, errors="replace")
        if decoded == text:
            break
        text = decoded
    return text


# Characters that end or break a line for some reader of a log; a decoded text gives them back escaped.
LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def _escape_line_breaks(text: str) -> str:
    """Each line-breaking character as the `%XX` of its UTF-8 bytes, as a client would have sent it."""
    return LINE_BREAKING.sub(lambda found: "".join(f"%{byte:02X}" for byte in found.group().encode()), text)


def redact_text(text: str) -> str:
    """Free text with every key, secret parameter value and credential replaced. The rules run on the text
    as it came, which is given back unless percent-encoding hides a secret the rules did not see (a
    request line gunicorn refuses quotes the query as it came: `?api%6Bey=%67k%5F…`, which the API would
    have decoded to a key); then the decoded text is given back with it replaced, and with every
    character that would break the log's line (a `%0A` decoded) escaped as `%XX` again."""
    redacted = _redact(text)
    if "%" in redacted:
        decoded = _percent_decoded(redacted)
        if decoded != redacted:
            hidden = _redact(decoded)
            if hidden != decoded:
                return _escape_line_breaks(hidden)
    return redacted


def _redact(text: str) -> str:
    if text.isascii():
        lowered = text.lower()
        if not any(word in lowered for word in SECRET_WORDS):
            return text
    return CREDENTIAL.sub(r"\1REDACTED", SECRET_PARAM.sub(r"\1=REDACTED", redact_keys(text)))


class RedactingFilter(logging.Filter):
    """Put on a handler, it redacts every record that handler writes, whichever logger made it
    (gunicorn's own included, which quotes the request lines it refuses)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact_text(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_text(record.exc_text)
        return True


REDACTING_FILTER = RedactingFilter()


def redact_handlers(*loggers: logging.Logger) -> None:
    """Put the redacting filter on every handler of these loggers (once); a `QueuedStderrHandler`
    redacts in its own writer thread instead."""
    for logger in loggers:
        for handler in logger.handlers:
            if REDACTING_FILTER not in handler.filters and not isinstance(handler, QueuedStderrHandler):
                handler.addFilter(REDACTING_FILTER)


# How long a line may wait in the queue before it is written.
WRITE_EVERY_SECONDS = 0.05


class QueuedStderrHandler(logging.Handler):
    """Writes each record to standard error from a thread of its own (an OS thread, also in a gevent
    worker): the request only formats its line and puts it on a queue; redacting it (RedactingFilter's
    rules) and the write, which blocks when the reader of the log is slow, happen in that thread."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(message)s"))
        self._queue: Any = native("queue", "SimpleQueue")()
        self._running: Any = None  # held by the writer thread while it runs
        self._pid = 0

    def handle(self, record: logging.LogRecord) -> bool:
        """Handler.handle without the handler's lock: the queue is safe from any thread already
        (tests/test_library_canaries.py watches that logging still calls it)."""
        if self.filter(record):
            self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        self.put_line(self.format(record))

    def put_line(self, line: str) -> None:
        """Queue a line as it is (a record formatted, or an access line, api/logs.py `log_request`)."""
        if self._pid != os.getpid():  # started in this process (a fork starts no thread of its parent)
            self._pid = os.getpid()
            # The bare thread primitives: threading's Thread waits on an Event that gevent has patched.
            self._running = native("_thread", "allocate_lock")()
            self._running.acquire()
            native("_thread", "start_new_thread")(self._write, ())
        self._queue.put(line)

    def _write(self) -> None:
        # The thread wakes on its own every WRITE_EVERY_SECONDS rather than on each line: a thread
        # woken by every put would take the interpreter lock from the requests once per line.
        sleep, stream, done = native("time", "sleep"), sys.stderr, False
        try:
            while not done:
                sleep(WRITE_EVERY_SECONDS)
                lines = []
                while not done and not self._queue.empty():
                    line = self._queue.get()
                    done = line is None
                    if not done:
                        lines.append(f"{redact_text(line)}\n")
                if lines:
                    stream.write("".join(lines))
                    stream.flush()
        finally:
            self._running.release()

    def close(self) -> None:
        """Write what is queued, then stop (logging.shutdown calls this at exit)."""
        if self._pid == os.getpid() and self._running is not None:
            self._queue.put(None)
            self._running.acquire(timeout=5)
            self._pid, self._running = 0, None
        super().close()


# Pairs of plain characters only: parsing and encoding such a query gives it back unchanged, so unless
# it names a secret parameter or holds something shaped like a key it is logged as it came.
PLAIN_QUERY = re.compile(r"[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*(&[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*)*")
SECRET_HINTS = ("apikey", "token", "gk_")


def redact_query(query: str) -> str:
    """The query string with the value of every secret parameter, and every key, replaced."""
    if PLAIN_QUERY.fullmatch(query) and not any(hint in query.lower() for hint in SECRET_HINTS):
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(redact_keys(k), "REDACTED" if k.lower() in REDACTED_PARAMS else redact_keys(v))
                      for k, v in pairs])


class RequestIds:
    """New request ids: 64 random bits drawn once per process, then a count (32 hex digits in all), so
    that no request waits for the system's random source."""

    def __init__(self) -> None:
        self._draw()
        os.register_at_fork(after_in_child=self._draw)  # a forked worker draws its own

    def _draw(self) -> None:
        self._prefix = uuid.uuid4().hex[:16]
        self._count = itertools.count()

    def new(self) -> str:
        return f"{self._prefix}{next(self._count):016x}"


REQUEST_IDS = RequestIds()


def start_request() -> None:
    ctx, req = request_state(), this_request()
    ctx.request_started = time.perf_counter()
    incoming = req.environ.get("HTTP_X_REQUEST_ID", "")  # not headers.get: it raises inside when absent
    acceptable = incoming and REQUEST_ID.fullmatch(incoming) and redact_text(incoming) == incoming
    ctx.request_id = incoming if acceptable else REQUEST_IDS.new()
    limit = this_app().config["MAX_QUERY_STRING_BYTES"]
    if len(req.query_string) > limit:
        raise InvalidParameters([{"parameter": "query", "message": f"the query string is longer than {limit} bytes"}])


# The JSON encoder's own writer of a string (C in CPython), as json.dumps(..., ensure_ascii=False) uses it.
_JSON_TEXT = json.encoder.encode_basestring


def access_line(request_id: str | None, method: str, path: str, query: str, status: int, ms: float,
                key_id: int | None, remote: str | None) -> str:
    """The access line: `json.dumps` of these fields as an object, with ensure_ascii off, written field by
    field with the encoder's own string writer (the dict and the encoder's walk of it were most of the
    line's cost on a remembered paid answer). tests/api/test_access_line.py holds it equal to json.dumps."""
    return (f'{{"request_id": {_json_text_or_null(request_id)}, "method": {_JSON_TEXT(method)}, '
            f'"path": {_JSON_TEXT(path)}, "query": {_JSON_TEXT(query)}, "status": {int(status)!r}, '
            f'"ms": {float(ms)!r}, "key_id": {"null" if key_id is None else repr(int(key_id))}, '
            f'"remote": {_json_text_or_null(remote)}}}')


def _json_text_or_null(text: str | None) -> str:
    return "null" if text is None else _JSON_TEXT(text)


def log_request(response: Response) -> Response:
    ctx, req = request_state(), this_request()
    request_id = ctx.get("request_id", "")
    response.headers.add("X-Request-Id", request_id)  # added, not set: nothing else writes it
    path = req.path
    status = response.status_code
    level = logging.DEBUG if path in QUIET_PATHS and status < 400 else logging.INFO
    if not access_log.isEnabledFor(level):
        return response
    key = ctx.get("api_key")
    query = req.environ.get("QUERY_STRING", "")  # as request.query_string decodes it: latin-1
    line = access_line(
        request_id or None, req.method, redact_keys(path), redact_query(query) if query else "", status,
        round((time.perf_counter() - ctx.get("request_started", time.perf_counter())) * 1000, 2),
        key.id if key is not None else None, req.remote_addr,
    )
    # JSON leaves the line and paragraph separators raw, and a log reader would break the line there.
    line = line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    sink = _only_queue(level)
    if sink is not None:
        sink.put_line(line)
    else:
        # Logger.log would first walk the stack to find the caller, which the line does not show
        # (tests/test_library_canaries.py watches the record made by hand).
        access_log.handle(access_log.makeRecord(access_log.name, level, __file__, 0, line, (), None))
    return response


def _only_queue(level: int) -> QueuedStderrHandler | None:
    """The queue of standard error when it alone would write an access line of `level` (the server's own
    set-up, `configure_logging`): the line is then put on it as it is, without the LogRecord that logging
    would build, fill (time, thread, process) and format back into the same text, a measurable part of a
    remembered answer's work. Anywhere else (handlers of the host process, a test capturing records), None."""
    found: list[logging.Handler] = []
    logger: logging.Logger | None = access_log
    while logger is not None:
        if logger.filters:
            return None
        found.extend(logger.handlers)
        logger = logger.parent if logger.propagate else None
    if len(found) != 1:
        return None
    handler = found[0]
    if type(handler) is not QueuedStderrHandler or handler.filters or level < handler.level:
        return None
    return handler
