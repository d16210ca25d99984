"""RFC 9457 problem documents: the problem classes and the one function that renders them."""

from __future__ import annotations

import json
from typing import Any

from flask import Response

from api.context import this_app

PROBLEM_MEDIA_TYPE = "application/problem+json"


class Problem(Exception):
    """An error answer; subclasses fix status, slug and title (decisions.md, "Slugs")."""

    status = 500
    slug = "internal_error"
    title = "Internal error"

    def __init__(self, detail: str | None = None, *, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(detail or self.title)
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


class InvalidParameters(Problem):
    status, slug, title = 400, "invalid_parameters", "Invalid parameters"

    def __init__(self, errors: list[dict[str, Any]], detail: str | None = None):
        if detail is None:
            detail = f"Invalid value for: {', '.join(dict.fromkeys(e['parameter'] for e in errors))}."
        super().__init__(detail, errors=errors)


class Unauthorized(Problem):
    status, slug, title = 401, "unauthorized", "Unauthorized"

    def __init__(self, detail: str | None = None, *, invalid_token: bool = False):
        # RFC 9110 11.6.1: a 401 names the scheme to use; RFC 6750 3.1 adds `invalid_token` when a
        # key was presented but is unknown, expired or revoked.
        challenge = 'Bearer realm="gosterge"' + (', error="invalid_token"' if invalid_token else "")
        super().__init__(detail, headers={"WWW-Authenticate": challenge})


class PaymentRequired(Problem):
    status, slug, title = 402, "payment_required", "Payment required"


class Forbidden(Problem):
    status, slug, title = 403, "forbidden", "Forbidden"


class NotFound(Problem):
    status, slug, title = 404, "not_found", "Not found"


class MethodNotAllowed(Problem):
    status, slug, title = 405, "method_not_allowed", "Method not allowed"


class Conflict(Problem):
    status, slug, title = 409, "conflict", "Conflict"


class RequestTimeout(Problem):
    status, slug, title = 408, "request_timeout", "Request timeout"


class Gone(Problem):
    status, slug, title = 410, "gone", "Gone"


class PayloadTooLarge(Problem):
    status, slug, title = 413, "payload_too_large", "Payload too large"


class RangeNotSatisfiable(Problem):
    status, slug, title = 416, "range_not_satisfiable", "Range not satisfiable"


class UnsupportedMediaType(Problem):
    status, slug, title = 415, "unsupported_media_type", "Unsupported media type"


class RateLimited(Problem):
    status, slug, title = 429, "rate_limited", "Too many requests"


class InternalError(Problem):
    status, slug, title = 500, "internal_error", "Internal error"


class UpstreamError(Problem):
    status, slug, title = 502, "upstream_error", "Data source unavailable"


class UpstreamAuth(Problem):
    status, slug, title = 502, "upstream_auth", "Data source refused the service's credential"


class UpstreamTimeout(Problem):
    status, slug, title = 504, "upstream_timeout", "Data source timed out"


class NotReady(Problem):
    status, slug, title = 503, "not_ready", "Not ready"


def problem_type(slug: str) -> str:
    return f"{this_app().config['PROBLEM_BASE'].rstrip('/')}/{slug}"


def problem_body(*, slug: str, title: str, status: int, detail: str | None,
                 extra: dict[str, Any]) -> dict[str, Any]:
    """The only place a problem document is built: an error answer's, or one recorded below the API
    and shown inside another answer (an upload's status)."""
    body: dict[str, Any] = {"type": problem_type(slug), "title": title, "status": status}
    if detail:
        body["detail"] = detail
    body.update(extra)
    return body


def render_problem(problem: Problem) -> Response:
    body = problem_body(slug=problem.slug, title=problem.title, status=problem.status, detail=problem.detail,
                        extra=problem.extra)
    response = Response(json.dumps(body, ensure_ascii=False), status=problem.status, mimetype=PROBLEM_MEDIA_TYPE)
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response
