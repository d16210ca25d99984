"""gzip for clients that ask (flask-compress), and the ETag each representation carries.

flask-compress compresses an answer after the view and gives a compressed answer its own strong ETag
(`"<etag>:gzip"`, RFC 9110 8.8.3: two representations, two validators). The view answers
`If-None-Match` itself, before any credit is debited, so it must know which of the two ETags the
answer would carry: `selected_etag` asks flask-compress's own choice of encoding, so the two agree."""

from __future__ import annotations

import functools

from flask import Flask, Response
from flask_compress import Compress
from flask_compress.flask_compress import _choose_algorithm
from werkzeug.http import parse_accept_header

from api.context import this_request
from api.transport.headers import header_value

ENCODINGS = ("gzip",)  # every HTTP client speaks it
COMPRESSED_TYPES = ["application/json", "application/geo+json", "application/problem+json", "text/csv",
                    "text/html"]
MIN_COMPRESSED_BYTES = 500  # below this gzip's header costs more than it saves

compress = Compress()


def init_compression(app: Flask) -> None:
    app.config.update(
        COMPRESS_ALGORITHM=list(ENCODINGS), COMPRESS_MIMETYPES=COMPRESSED_TYPES,
        COMPRESS_MIN_SIZE=MIN_COMPRESSED_BYTES, COMPRESS_STREAMS=False,
        # The view has answered If-None-Match already, before the debit; a 304 made afterwards
        # would cost the client a credit.
        COMPRESS_EVALUATE_CONDITIONAL_REQUEST=False,
        COMPRESS_REGISTER=False,  # its step is registered below, asked only where it may compress
    )
    compress.init_app(app)
    app.before_request(normalise_accept_encoding)
    app.after_request(compress_answer)


def compress_answer(response: Response) -> Response:
    """flask-compress's step for a request that takes gzip. For any other it would only add
    `Accept-Encoding` to `Vary` (every answer may be compressed for another client), which is done
    here without the rest of its checks."""
    if this_request().environ.get("HTTP_ACCEPT_ENCODING", "identity") != "identity":  # normalised above
        return compress.after_request(response)
    vary = header_value(response.headers, "Vary")
    if not vary:
        response.headers.add("Vary", "Accept-Encoding")
    elif "accept-encoding" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Encoding"
    return response


def normalise_accept_encoding() -> None:
    """Reduce the request's Accept-Encoding to the one choice it makes among ours, read as RFC 9110
    12.5.3 says (werkzeug's parser): flask-compress 1.x takes `gzip;q=0`, "not acceptable", for a
    request of gzip. Both flask-compress and `selected_etag` then read the same, right choice."""
    values = this_request().environ
    header = values.get("HTTP_ACCEPT_ENCODING")
    if header is not None:
        values["HTTP_ACCEPT_ENCODING"] = _chosen_encoding(header)


@functools.lru_cache(maxsize=64)
def _chosen_encoding(header: str) -> str:
    # Clients send the same few headers again and again: each is parsed once.
    return parse_accept_header(header).best_match(ENCODINGS) or "identity"


def selected_etag(etag: str, size: int, mimetype: str) -> str:
    """The ETag of the representation this request gets: compressed or not, as flask-compress will
    decide for a 200 of `size` bytes of `mimetype`."""
    if mimetype not in COMPRESSED_TYPES or size < MIN_COMPRESSED_BYTES:
        return etag
    encoding = _compressed_with(this_request().environ.get("HTTP_ACCEPT_ENCODING", ""))
    return f"{etag}:{encoding}" if encoding else etag


@functools.lru_cache(maxsize=64)
def _compressed_with(header: str) -> str | None:
    # Private to flask-compress: tests/test_library_canaries.py fails when an upgrade changes it.
    return _choose_algorithm(ENCODINGS, header)
