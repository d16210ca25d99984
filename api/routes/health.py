"""/v1/health and /v1/ready: what a load balancer asks, with no key and no rate limit."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from api.areas import Area
from api.db import db_session
from api.limits import limiter
from api.operations import Outcome, json_body
from api.problems import NotReady
from store.errors import StoreError
from store.releases import get_served_release_name

area = Area(Blueprint("health", __name__, url_prefix="/v1"), "Meta")
STATUS = {"type": "object", "required": ["status"], "properties": {
    "status": {"type": "string", "enum": ["ok", "ready"], "description": "`ok` (alive) or `ready`."},
    "release": {"type": "string", "description": "The ISO week of the release served, e.g. `2026-W47`."}}}
NO_STORE = {"Cache-Control": {"description": "`no-store`: probes must reach the process.", "schema": {"type": "string"}}}
# 400: every path refuses an over-long query string (api/logs.py) and unknown parameters, the probes too.
PROBE_PROBLEMS = (400,)


def _answer(body: dict[str, str]) -> Response:
    # Every probe must reach the process, never a cache on the way.
    return Response(json_body(body), mimetype="application/json", headers={"Cache-Control": "no-store"})


# Exempt by name as well: a default limit added to the limiter one day must not reach the probes.
@area.get("/health", public=True, outcomes=[Outcome(200, "Alive", STATUS, headers=NO_STORE)],
          problems=PROBE_PROBLEMS)
@limiter.exempt
def get_health(values: dict[str, Any]) -> Response:
    """Liveness: the process answers (the store is not asked); no key, no rate limit
    For a load balancer's liveness check: 200 whenever the process answers. The store is not asked, so
    a database outage does not get healthy workers restarted."""
    return _answer({"status": "ok"})


@area.get("/ready", public=True, outcomes=[Outcome(200, "Ready to serve", STATUS, headers=NO_STORE)],
          problems=(*PROBE_PROBLEMS, 503))
@limiter.exempt
def get_ready(values: dict[str, Any]) -> Response:
    """Readiness: the store answers and a release is served; no key, no rate limit
    For a load balancer's readiness check: 200 with the release served; a 503 problem while the store
    does not answer or no release has been loaded yet."""
    try:
        release = get_served_release_name(db_session())
    except StoreError as error:
        raise NotReady(f"The store does not answer: {type(error).__name__}.",
                       headers={"Cache-Control": "no-store"}) from None
    if release is None:
        raise NotReady("No release is served yet; load one with `gosterge load procurement`.",
                       headers={"Cache-Control": "no-store"})
    return _answer({"status": "ready", "release": release})
