"""Every error becomes a problem document: ours, Werkzeug's HTTP errors, store failures, the unexpected."""

from __future__ import annotations

import logging

from flask import Flask, Response
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import HTTPException, SecurityError

from api.context import request_state
from api.limits import rate_limited_problem
from api.problems import (
    InternalError,
    InvalidParameters,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    Problem,
    RequestTimeout,
    UpstreamAuth,
    UpstreamError,
    UpstreamTimeout,
    render_problem,
)
from store.errors import StoreAuthError, StoreError, StoreTimeoutError

log = logging.getLogger("gosterge.errors")


def store_problem(exc: StoreError) -> Problem:
    if isinstance(exc, StoreTimeoutError):
        return UpstreamTimeout("A database statement ran past its time limit.")
    if isinstance(exc, StoreAuthError):
        return UpstreamAuth("The database refused the service's credential.")
    return UpstreamError("The database cannot be reached.")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(exc: Problem) -> Response:
        return render_problem(exc)

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(exc: RateLimitExceeded) -> Response:
        return render_problem(rate_limited_problem(exc))

    @app.errorhandler(StoreError)
    def _store(exc: StoreError) -> Response:
        log.warning("store failure (request %s): %s", request_state().get("request_id"), exc)
        return render_problem(store_problem(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        if isinstance(exc, SecurityError):  # a Host outside GOSTERGE_TRUSTED_HOSTS
            return render_problem(InvalidParameters([{"parameter": "Host", "message": "is not a host this "
                                                      "service answers to"}]))
        if exc.code == 404:
            problem: Problem = NotFound("No such endpoint; the API is described at /v1/openapi.json.")
        elif exc.code == 405:
            allowed = ", ".join(sorted(getattr(exc, "valid_methods", None) or []))
            problem = MethodNotAllowed(f"Allowed methods: {allowed}.", headers={"Allow": allowed} if allowed else {})
        elif exc.code == 408:  # a release upload's read past its deadline (api/transport/bodydeadline.py)
            problem = RequestTimeout(exc.description)
        elif exc.code == 413:
            problem = PayloadTooLarge("The request body is too large.")
        elif exc.code == 400:
            # Werkzeug refused the request itself (a malformed body, say): still the 400 of decisions.md,
            # whose `errors` the document promises on every 400.
            problem = InvalidParameters([{"parameter": "body", "message": exc.description or "is malformed"}])
        else:
            problem = Problem(exc.description)
            problem.status, problem.title = exc.code or 500, exc.name
            problem.slug = {415: "unsupported_media_type"}.get(exc.code or 0, "internal_error")
        return render_problem(problem)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unexpected error (request %s)", request_state().get("request_id"))
        return render_problem(InternalError(f"Unexpected error; quote request id {request_state().get('request_id')} when reporting it."))
