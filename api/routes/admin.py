"""/v1/admin: keys and weekly releases, for keys with the admin scope; every change is audited."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, g, request

from api.auth import now
from api.bodies import Field, api_names, boolean, parse_json, request_body_schema, text, whole_number
from api.db import db_session
from api.endpoint import Area, Reply, json_body
from api.paging import page_envelope
from api.params import Param
from api.problems import InvalidParameters, NotFound, UnsupportedMediaType
from loaders.procurement.load import load_release
from loaders.procurement.release import ReleaseRejectedError
from store.errors import NotFoundError
from store.keys import add_credits, create_key, list_keys, record_audit, revoke_key
from store.models import ApiKey, Release
from store.releases import activate_release, list_releases
from store.times import format_utc

area = Area(Blueprint("admin", __name__, url_prefix="/v1/admin"), "admin", "Admin")
KEY_ID = Param("key_id", {"type": "integer", "minimum": 1}, "Key id, from GET /v1/admin/keys.")
RELEASE_ID = Param("release_id", {"type": "integer", "minimum": 1}, "Release id, from GET /v1/admin/releases.")


def key_view(key: ApiKey) -> dict[str, Any]:
    return {"id": key.id, "prefix": key.prefix, "label": key.label, "apis": key.api_list, "credits": key.credits,
            "rate": key.rate, "admin": key.is_admin, "createdAt": format_utc(key.created_at),
            "expiresAt": format_utc(key.expires_at) if key.expires_at else None,
            "revokedAt": format_utc(key.revoked_at) if key.revoked_at else None}


def release_view(release: Release) -> dict[str, Any]:
    return {"id": release.id, "release": release.name, "publishedAt": format_utc(release.published_at),
            "loadedAt": format_utc(release.loaded_at), "synthetic": release.synthetic, "rows": release.total_rows,
            "uploadedBy": release.uploaded_by, "active": release.is_active}


def _audit(action: str, target: str, detail: str = "") -> None:
    record_audit(db_session(), actor=f"key:{g.api_key.id}", action=action, target=target, detail=detail, now=now())


def _rate(value: Any) -> str:
    from limits import parse

    if not isinstance(value, str):
        raise ValueError("must be a rate such as 60/minute")
    try:
        parse(value)
    except ValueError:
        raise ValueError("must be a rate such as 60/minute") from None
    return value


NEW_KEY_FIELDS = [
    Field("apis", {"type": "array", "items": {"type": "string", "enum": ["finance-news", "public-procurement"]},
                   "minItems": 1}, api_names, required=True),
    Field("credits", {"type": "integer", "minimum": 0, "maximum": 10**12}, whole_number(0, 10**12), required=True),
    Field("rate", {"type": "string", "description": "e.g. 60/minute"}, _rate),
    Field("expiresInDays", {"type": "integer", "minimum": 1, "maximum": 3650}, whole_number(1, 3650)),
    Field("admin", {"type": "boolean"}, boolean, default=False),
    Field("label", {"type": "string", "maxLength": 200}, text(200), default=""),
]
CREDIT_FIELDS = [Field("credits", {"type": "integer", "minimum": 1, "maximum": 10**12}, whole_number(1, 10**12),
                       required=True)]


@area.get("/keys", cost=0, response_schema="KeyPage")
def list_api_keys(values: dict[str, Any]) -> Reply:
    """Every key, newest last (never the keys themselves)"""
    items = [json_body(key_view(k)) for k in list_keys(db_session())]
    return Reply(page_envelope(items, len(items), None), "keys")


@area.post("/keys", response_schema="KeyCreated", request_body=request_body_schema(NEW_KEY_FIELDS), success_status=201)
def create_api_key(values: dict[str, Any]) -> Reply:
    """Create a key; the answer shows it once"""
    body = parse_json(NEW_KEY_FIELDS)
    session = db_session()
    expires = now() + timedelta(days=body["expiresInDays"]) if body["expiresInDays"] else None
    row, key = create_key(session, apis=body["apis"], credits=body["credits"], now=now(), expires_at=expires,
                          rate=body["rate"] or current_app.config["DEFAULT_RATE"], is_admin=body["admin"],
                          label=body["label"])
    _audit("key.create", str(row.id), ",".join(body["apis"]))
    session.commit()
    return Reply(json_body({**key_view(row), "key": key}), "", status=201)


def _key_change(key_id: int, change) -> Reply:  # noqa: ANN001
    session = db_session()
    try:
        row = change(session)
    except NotFoundError:
        raise NotFound(f"No key with id {key_id}.") from None
    session.commit()
    return Reply(json_body(key_view(row)), "")


@area.post("/keys/<int:key_id>/revoke", response_schema="Key", path_params=[KEY_ID], extra_statuses=[404])
def revoke_api_key(values: dict[str, Any], key_id: int) -> Reply:
    """Revoke a key; it answers 401 from then on"""
    def change(session):  # noqa: ANN001, ANN202
        row = revoke_key(session, key_id, now=now())
        _audit("key.revoke", str(key_id))
        return row
    return _key_change(key_id, change)


@area.post("/keys/<int:key_id>/credits", response_schema="Key", path_params=[KEY_ID], extra_statuses=[404],
           request_body=request_body_schema(CREDIT_FIELDS))
def top_up_api_key(values: dict[str, Any], key_id: int) -> Reply:
    """Add credits to a key"""
    amount = parse_json(CREDIT_FIELDS)["credits"]

    def change(session):  # noqa: ANN001, ANN202
        row = add_credits(session, key_id, amount)
        _audit("key.topup", str(key_id), str(amount))
        return row
    return _key_change(key_id, change)


@area.get("/releases", cost=0, response_schema="ReleasePage")
def list_release_history(values: dict[str, Any]) -> Reply:
    """Every loaded release, newest first: when, how many rows, who uploaded it, which one is served"""
    items = [json_body(release_view(r)) for r in list_releases(db_session())]
    return Reply(page_envelope(items, len(items), None), "releases")


UPLOAD_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"],
    "properties": {"file": {"type": "string", "format": "binary", "description": "The weekly release as a ZIP"}}}}}}


@area.post("/releases", response_schema="Release", request_body=UPLOAD_BODY, success_status=201)
def upload_release(values: dict[str, Any]) -> Reply:
    """Upload a weekly release (ZIP): validated, computed and served in one step
    A refused release answers 400 with every problem by file, row and column; the release served
    before stays served. Large releases take minutes: give the server a long enough worker time-out."""
    if request.mimetype != "multipart/form-data":
        raise UnsupportedMediaType("Send the release as multipart/form-data with a `file` part.")
    upload = request.files.get("file")
    if upload is None:
        raise InvalidParameters([{"parameter": "file", "message": "is required: the release ZIP"}])
    with tempfile.TemporaryDirectory(prefix="gosterge-upload-") as folder:
        path = Path(folder) / "release.zip"
        upload.save(path)
        try:
            result = load_release(path, current_app.extensions["gosterge.sessions"], uploaded_by=f"key:{g.api_key.id}")
        except ReleaseRejectedError as exc:
            problem = InvalidParameters([p.as_dict() for p in exc.problems],
                                        detail=f"The release was refused: {exc.total} problem(s).")
            problem.extra["total"] = exc.total
            raise problem from None
    session = db_session()
    _audit("release.upload", str(result.release_id), result.name)
    session.commit()
    release = session.get(Release, result.release_id)
    return Reply(json_body(release_view(release)), "", status=201)


@area.post("/releases/<int:release_id>/activate", response_schema="Release", path_params=[RELEASE_ID],
           extra_statuses=[404])
def activate_stored_release(values: dict[str, Any], release_id: int) -> Reply:
    """Serve an earlier or later release (roll back or forward)"""
    session = db_session()
    try:
        release = activate_release(session, release_id)
    except NotFoundError:
        raise NotFound(f"No release with id {release_id}.") from None
    _audit("release.activate", str(release_id), release.name)
    session.commit()
    return Reply(json_body(release_view(release)), "")
