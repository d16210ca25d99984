"""The OpenAPI document, and the page that renders it with Redoc served from the package (no CDN)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, url_for
from werkzeug.wrappers import Response as BaseResponse

from api.areas import Area
from api.context import this_request
from api.description.openapi import build_openapi
from api.operations import Outcome

area = Area(Blueprint("meta", __name__, url_prefix="/v1"), "Meta")
# Every path refuses an over-long query string (api/logs.py) and unknown parameters, these too.
TOO_LONG = (400,)
REDOC_DIR = Path(__file__).resolve().parent.parent / "static" / "redoc"
REDOC_SCRIPT = "redoc.standalone.js"
SCRIPT_MAX_AGE_SECONDS = 24 * 3600
# The one address on another origin the bundle loads: the Redocly logo beside "API docs by Redocly".
# It is replaced by an empty image when served, so the page loads nothing from elsewhere; the file
# itself stays as published (its checksum is in api/static/redoc/README.md).
REMOTE_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
EMPTY_IMAGE = b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E"

# Relative addresses: the page works under whatever host and prefix serves /v1.
DOCS_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gösterge API</title></head>
<body style="margin:0"><redoc spec-url="openapi.json"></redoc>
<script src="docs/{REDOC_SCRIPT}"></script></body></html>"""

# Redoc's styles are injected at run time (styled-components) and its search runs in a worker it
# builds from a blob: URL; nothing else may load, and nothing from another origin.
DOCS_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
               "font-src 'self' data:; connect-src 'self'; worker-src blob:; frame-ancestors 'none'; "
               "base-uri 'none'; form-action 'none'")


@area.get("/openapi.json", public=True, problems=TOO_LONG,
          outcomes=[Outcome(200, "The OpenAPI 3.1 document", {"type": "object"})])
def get_openapi(values: dict[str, Any]) -> Response:
    """This document
    The OpenAPI 3.1 document of the API, built from the same rules that check each request."""
    return jsonify(build_openapi())


# Paths for a person's browser, not operations of the API: left out of the OpenAPI document (a
# redirect there has no 2xx answer, and OpenAPI linters refuse a path ending in a slash).
UNDOCUMENTED_PATHS = frozenset({"/v1/"})


@area.blueprint.get("/")
def api_root() -> BaseResponse:
    """The API's root sends a person to the page that describes it."""
    # url_for keeps the prefix a trusted proxy declares (X-Forwarded-Prefix).
    return redirect(url_for("meta.get_docs_page"), code=302)


@area.get("/docs", public=True, problems=TOO_LONG, outcomes=[Outcome(200, "The page", {"type": "string"}, "text/html")])
def get_docs_page(values: dict[str, Any]) -> Response:
    """This document, to read (HTML)
    A page rendering this document with Redoc, served from the package: it loads nothing from another
    origin."""
    response = Response(DOCS_PAGE, mimetype="text/html")
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    return response


@cache
def redoc_script() -> bytes:
    script = (REDOC_DIR / REDOC_SCRIPT).read_bytes()
    if REMOTE_LOGO not in script:
        raise RuntimeError(f"{REDOC_SCRIPT} changed: check which addresses it loads (tests/api/test_docs_page.py)")
    return script.replace(REMOTE_LOGO, EMPTY_IMAGE)


@area.get(f"/docs/{REDOC_SCRIPT}", public=True, problems=TOO_LONG,
          outcomes=[Outcome(200, "The script", {"type": "string"}, "text/javascript"),
                    Outcome(304, "Not modified: the `If-None-Match` ETag still matches.")])
def get_docs_script(values: dict[str, Any]) -> BaseResponse:
    """The Redoc script of the page
    Redoc 2.5.4 (MIT licence), the standalone bundle the documentation page runs."""
    response = Response(redoc_script(), mimetype="text/javascript")
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = SCRIPT_MAX_AGE_SECONDS
    return response.make_conditional(this_request())
