"""Structured access logs: one JSON line per request, with the key id and never the key."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from urllib.parse import parse_qsl, urlencode

from flask import Response, current_app, g, request

from api.problems import InvalidParameters

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


def redact_text(text: str) -> str:
    """Free text with every key, secret parameter value and credential replaced."""
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
    """Put the redacting filter on every handler of these loggers (once)."""
    for logger in loggers:
        for handler in logger.handlers:
            if REDACTING_FILTER not in handler.filters:
                handler.addFilter(REDACTING_FILTER)


def redact_query(query: str) -> str:
    """The query string with the value of every secret parameter, and every key, replaced."""
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(redact_keys(k), "REDACTED" if k.lower() in REDACTED_PARAMS else redact_keys(v))
                      for k, v in pairs])


def start_request() -> None:
    g.request_started = time.perf_counter()
    incoming = request.headers.get("X-Request-Id", "")
    acceptable = REQUEST_ID.fullmatch(incoming) and redact_text(incoming) == incoming
    g.request_id = incoming if acceptable else uuid.uuid4().hex
    limit = current_app.config["MAX_QUERY_STRING_BYTES"]
    if len(request.query_string) > limit:
        raise InvalidParameters([{"parameter": "query", "message": f"the query string is longer than {limit} bytes"}])


def log_request(response: Response) -> Response:
    response.headers["X-Request-Id"] = g.get("request_id", "")
    key = g.get("api_key")
    query = request.query_string.decode("latin-1")
    record = {
        "request_id": g.get("request_id"),
        "method": request.method,
        "path": redact_keys(request.path),
        "query": redact_query(query) if query else "",
        "status": response.status_code,
        "ms": round((time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000, 2),
        "key_id": key.id if key is not None else None,
        "remote": request.remote_addr,
    }
    quiet = request.path in QUIET_PATHS and response.status_code < 400
    line = json.dumps(record, ensure_ascii=False)
    # JSON leaves the line and paragraph separators raw, and a log reader would break the line there.
    line = line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    access_log.log(logging.DEBUG if quiet else logging.INFO, line)
    return response
