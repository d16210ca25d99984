"""Headers every answer carries: never sniffed, and private to the key that asked."""

from __future__ import annotations

from typing import Any

from flask import Response
from werkzeug.datastructures import Headers

from api.context import request_state

NO_SNIFF = ("X-Content-Type-Options", "nosniff")
# An answer to a keyed request is the key holder's: a shared cache must not keep it. Answers that
# carry a key say no-store themselves.
PRIVATE = ("Cache-Control", "private")


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    # Added, not set: no answer carries nosniff before this point.
    if "api_key" in request_state() and header_value(headers, PRIVATE[0]) is None:
        headers.extend((NO_SNIFF, PRIVATE))
    else:
        headers.add(*NO_SNIFF)
    return response


def header_value(headers: Headers, name: str) -> str | None:
    """`headers.get(name)`, without the exception werkzeug raises and catches inside it for a header
    that is not there, which is most of what such a look-up costs."""
    wanted = name.lower()
    for key, value in headers:
        if key.lower() == wanted:
            return value
    return None


# Headers werkzeug fixes as an answer is sent: it makes these URLs absolute.
_FIXED_ON_SENDING = frozenset({"location", "content-location"})


class ApiResponse(Response):
    """Flask's response, sending its headers as they stand when nothing in them needs werkzeug's fixes.

    Before sending, werkzeug copies every header into a new set, checking each value again as it goes
    (`get_wsgi_headers`), to make Location URLs absolute, drop the length of 1xx, 204 and 304
    answers and add a missing length. A paid answer needs none of that: its headers were checked as
    they were added, and the copy was a measurable part of the framework's work on it. Any answer that does
    need a fix takes werkzeug's own way. tests/test_library_canaries.py fails when werkzeug fixes more."""

    def get_wsgi_headers(self, environ: dict[str, Any]) -> Headers:
        status = self.status_code
        if 200 <= status < 600 and status not in (204, 304):
            has_length = False
            for name, _ in self.headers:
                lowered = name.lower()
                if lowered in _FIXED_ON_SENDING:
                    return super().get_wsgi_headers(environ)
                has_length = has_length or lowered == "content-length"
            if has_length:
                return self.headers  # werkzeug only lists them (`to_wsgi_list`), it does not change them
        return super().get_wsgi_headers(environ)
