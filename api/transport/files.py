"""A stored file as an answer: streamed from disk, with its ETag, 304 and byte ranges (RFC 9110 13, 14).

Werkzeug's `send_file` streams the file and answers `Range` and `If-Range`; this module adds what it
leaves out: `If-None-Match` is evaluated before `Range` (RFC 9110 13.2.2: a match is a 304 even when a
range was asked for), and a range that cannot be served is an error that says why (the route renders
it as the 416 problem)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from flask import Response
from werkzeug.exceptions import RequestedRangeNotSatisfiable
from werkzeug.http import parse_range_header
from werkzeug.utils import send_file

from api.context import this_request
from api.transport.conditional import matches, not_modified
from api.transport.headers import ApiResponse


class UnsatisfiableRangeError(Exception):
    """The `Range` asked for cannot be served: the message says why; `size` is the file's."""

    def __init__(self, message: str, size: int):
        super().__init__(message)
        self.size = size


def file_answer(path: Path, *, size: int, etag: str, media_type: str, download_name: str) -> Response:
    """200 with the whole file, 206 with the one range asked for, or 304; not read before it is sent."""
    req = this_request()
    sent_range = req.headers.get("Range")
    if sent_range is not None and parse_range_header(sent_range) is None:
        # A Range that is no byte range is refused whatever If-Range or If-None-Match says: the one
        # could have it ignored and the whole file sent (and charged), the other a 304, for a header
        # the document calls invalid. Its form is checked first, as every declared parameter's is.
        raise UnsatisfiableRangeError(_why_unsatisfiable(sent_range, size), size)
    if matches(etag):
        return not_modified(etag)
    try:
        response = cast(Response, send_file(path, req.environ, mimetype=media_type, as_attachment=True,
                             download_name=download_name, conditional=True, etag=etag, max_age=None,
                             response_class=ApiResponse))
    except RequestedRangeNotSatisfiable:
        raise UnsatisfiableRangeError(_why_unsatisfiable(req.headers.get("Range", ""), size), size) from None
    response.cache_control.private = True  # the key holder's answer: no shared cache keeps it
    return response


def _why_unsatisfiable(header: str, size: int) -> str:
    parsed = parse_range_header(header)
    if parsed is None:
        return f"Range: {header!r} is not a byte range such as 'bytes=1000-'."
    if len(parsed.ranges) != 1:
        return "Range: ask for one range at a time (multipart answers are not served)."
    return f"Range: {header!r} asks for no byte of the file, which holds {size} bytes."
