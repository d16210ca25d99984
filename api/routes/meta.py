"""The OpenAPI document."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.catalogue import describe_paths
from api.openapi import build_openapi

bp = Blueprint("meta", __name__)


@bp.get("/v1/openapi.json")
def openapi_document():
    return jsonify(build_openapi())


describe_paths({
    "/v1/openapi.json": {"get": {
        "operationId": "get_openapi", "tags": ["Meta"], "summary": "This document", "security": [],
        "responses": {"200": {"description": "The OpenAPI 3.1 document",
                              "content": {"application/json": {"schema": {"type": "object"}}}}},
    }},
})
