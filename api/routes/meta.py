"""The OpenAPI document and the health check."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.openapi import build_openapi

bp = Blueprint("meta", __name__)


@bp.get("/v1/openapi.json")
def openapi_document():
    return jsonify(build_openapi())
