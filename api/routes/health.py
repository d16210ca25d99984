"""/v1/health and /v1/ready: what a load balancer asks, with no key and no rate limit."""

from __future__ import annotations

from flask import Blueprint, Response

from api.catalogue import describe_paths, problem_response
from api.db import db_session
from api.endpoint import json_body
from api.limits import limiter
from api.problems import NotReady
from store.errors import StoreError
from store.releases import get_served_release_name

bp = Blueprint("health", __name__, url_prefix="/v1")


def _answer(body: dict[str, str]) -> Response:
    # Every probe must reach the process, never a cache on the way.
    return Response(json_body(body), mimetype="application/json", headers={"Cache-Control": "no-store"})


# Exempt by name as well: a default limit added to the limiter one day must not reach the probes.
@bp.get("/health")
@limiter.exempt
def health() -> Response:
    """Liveness: the process answers; the store is not asked, so a database outage does not make a
    load balancer restart healthy workers."""
    return _answer({"status": "ok"})


@bp.get("/ready")
@limiter.exempt
def ready() -> Response:
    """Readiness: the store answers and a release is served; 503 otherwise."""
    try:
        release = get_served_release_name(db_session())
    except StoreError as error:
        raise NotReady(f"The store does not answer: {type(error).__name__}.",
                       headers={"Cache-Control": "no-store"}) from None
    if release is None:
        raise NotReady("No release is served yet; load one with `gosterge load procurement`.",
                       headers={"Cache-Control": "no-store"})
    return _answer({"status": "ready", "release": release})


STATUS = {"type": "object", "required": ["status"], "properties": {
    "status": {"type": "string", "enum": ["ok", "ready"], "description": "`ok` (alive) or `ready`."},
    "release": {"type": "string", "description": "The ISO week of the release served, e.g. `2026-W47`."}}}
NO_STORE = {"Cache-Control": {"description": "`no-store`: probes must reach the process.", "schema": {"type": "string"}}}


def _probe(operation_id: str, summary: str, description: str, ready: str, *,
           problems: dict[str, dict] | None = None) -> dict:
    # 400: every path refuses an over-long query string (api/logs.py), the probes too.
    return {"get": {
        "operationId": operation_id, "tags": ["Meta"], "security": [],
        "summary": f"{summary}; no key, no rate limit", "description": description,
        "responses": {"200": {"description": ready, "headers": NO_STORE,
                              "content": {"application/json": {"schema": STATUS}}},
                      "400": problem_response(400), **(problems or {})},
    }}


describe_paths({
    "/v1/health": _probe(
        "get_health", "Liveness: the process answers (the store is not asked)",
        "For a load balancer's liveness check: 200 whenever the process answers. The store is not asked, so "
        "a database outage does not get healthy workers restarted.", "Alive"),
    "/v1/ready": _probe(
        "get_ready", "Readiness: the store answers and a release is served",
        "For a load balancer's readiness check: 200 with the release served; a 503 problem while the store "
        "does not answer or no release has been loaded yet.", "Ready to serve", problems={"503": problem_response(503)}),
})
