"""/v1/admin: keys and weekly releases, for keys with the admin scope; every change is audited."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Blueprint

from api.areas import Area
from api.auth import now
from api.bodies import (
    Field,
    api_names,
    boolean,
    text,
    whole_number,
)
from api.context import request_state, this_app, this_request
from api.db import db_session
from api.operations import Reply, json_body
from api.params import path_param
from api.problems import Conflict, InvalidParameters, NotFound, UnsupportedMediaType, problem_body
from api.transport.paging import page_envelope
from loaders.procurement.jobs import JobState, UploadRunningError, read_job, receive_upload
from store.errors import NotFoundError, ReleasePrunedError
from store.keys import add_credits, check_rate, create_key, list_keys, record_audit, revoke_key
from store.models import ApiKey, Release
from store.plaintext import PLAIN_TEXT_PATTERN
from store.reference.apis import APIS
from store.releases import activate_release, list_releases
from store.times import format_utc

area = Area(Blueprint("admin", __name__, url_prefix="/v1/admin"), "Admin", api="admin")
# Ids are INTEGER columns (32 bits on PostgreSQL): a larger id names nothing, so it is a 404, not a
# value the database driver refuses with a 500.
MAX_ID = 2**31 - 1
KEY_ID = path_param("key_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                    "Key id, from GET /v1/admin/keys.", "key")
RELEASE_ID = path_param("release_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                        "Release id, from GET /v1/admin/releases.", "release")


def key_view(key: ApiKey) -> dict[str, Any]:
    return {"id": key.id, "prefix": key.prefix, "label": key.label, "apis": key.api_list, "credits": key.credits,
            "rate": key.rate, "admin": key.is_admin, "createdAt": format_utc(key.created_at),
            "expiresAt": format_utc(key.expires_at) if key.expires_at else None,
            "revokedAt": format_utc(key.revoked_at) if key.revoked_at else None}


def release_view(release: Release) -> dict[str, Any]:
    return {"id": release.id, "release": release.name, "publishedAt": format_utc(release.published_at),
            "loadedAt": format_utc(release.loaded_at), "synthetic": release.synthetic, "rows": release.total_rows,
            "uploadedBy": release.uploaded_by, "active": release.is_active, "pruned": release.pruned_at is not None,
            "prunedAt": format_utc(release.pruned_at) if release.pruned_at else None}


def _audit(action: str, target: str, detail: str = "") -> None:
    record_audit(db_session(), actor=f"key:{request_state().api_key.id}", action=action, target=target, detail=detail, now=now())


def _rate(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a rate such as 60/minute")
    return check_rate(value)


NEW_KEY_FIELDS = [
    Field("apis", {"type": "array", "items": {"type": "string", "enum": list(APIS)},
                   "minItems": 1, "description": "The APIs the key may call."}, api_names, required=True),
    Field("credits", {"type": "integer", "minimum": 0, "maximum": 10**12,
                      "description": "Credits to start with; a paid answer costs 1."}, whole_number(0, 10**12),
          required=True),
    Field("rate", {"type": "string", "pattern": "^[1-9][0-9]{0,8}/(second|minute|hour|day)$",
                   "description": "Rate limit, e.g. `60/minute`: 1 to 10^9 requests per second, minute, hour or day "
                   "(other forms of the `limits` library are accepted too); default: the server's default rate."},
          _rate),
    Field("expiresInDays", {"type": "integer", "minimum": 1, "maximum": 3650,
                            "description": "Days until the key stops working; default: never."}, whole_number(1, 3650)),
    Field("admin", {"type": "boolean", "description": "Whether the key may call /v1/admin."}, boolean, default=False),
    Field("label", {"type": "string", "maxLength": 200, "pattern": PLAIN_TEXT_PATTERN,
                    "description": "Free text to recognise the key by, without control characters, line "
                    "separators, bidirectional controls or invisible characters (Unicode categories Cc, Cf, Zl, Zp, "
                    "the combining grapheme joiner, Hangul fillers)."}, text(200),
          default=""),
]
CREDIT_FIELDS = [Field("credits", {"type": "integer", "minimum": 1, "maximum": 10**12,
                                   "description": "Credits to add to the key."}, whole_number(1, 10**12),
                       required=True)]


@area.get("/keys", cost=0, response_schema="KeyPage")
def list_api_keys(values: dict[str, Any]) -> Reply:
    """Every key, newest last (never the keys themselves)"""
    items = [json_body(key_view(k)) for k in list_keys(db_session())]
    return Reply(page_envelope(items, len(items), None), "keys")


@area.post("/keys", response_schema="KeyCreated", body=NEW_KEY_FIELDS, success_status=201)
def create_api_key(body: dict[str, Any]) -> Reply:
    """Create a key; the answer shows it once"""
    session = db_session()
    expires = now() + timedelta(days=body["expiresInDays"]) if body["expiresInDays"] else None
    row, key = create_key(session, apis=body["apis"], credits=body["credits"], now=now(), expires_at=expires,
                          rate=body["rate"] or this_app().config["DEFAULT_RATE"], is_admin=body["admin"],
                          label=body["label"])
    _audit("key.create", str(row.id), ",".join(body["apis"]))
    return Reply(json_body({**key_view(row), "key": key}), "", status=201, headers={"Cache-Control": "no-store"})


def _changed_key(key_id: int, change: Callable[[Any], ApiKey]) -> ApiKey:
    """The key after `change`, or 404 for an id that names no key."""
    try:
        return change(db_session())
    except NotFoundError:
        raise NotFound(f"No key with id {key_id}.") from None


@area.post("/keys/<key_id>/revoke", response_schema="Key", path_params=[KEY_ID], extra_statuses=[404])
def revoke_api_key(values: dict[str, Any], key_id: int) -> Reply:
    """Revoke a key; it answers 401 from then on"""
    row = _changed_key(key_id, lambda session: revoke_key(session, key_id, now=now()))
    _audit("key.revoke", str(key_id))
    return Reply(json_body(key_view(row)), "")


@area.post("/keys/<key_id>/credits", response_schema="Key", path_params=[KEY_ID], extra_statuses=[404],
           body=CREDIT_FIELDS)
def top_up_api_key(values: dict[str, Any], key_id: int) -> Reply:
    """Add credits to a key"""
    amount = values["credits"]
    row = _changed_key(key_id, lambda session: add_credits(session, key_id, amount))
    _audit("key.topup", str(key_id), str(amount))
    return Reply(json_body(key_view(row)), "")


@area.get("/releases", cost=0, response_schema="ReleasePage")
def list_release_history(values: dict[str, Any]) -> Reply:
    """Every loaded release, newest first: when, how many rows, who uploaded it, which one is served"""
    items = [json_body(release_view(r)) for r in list_releases(db_session())]
    return Reply(page_envelope(items, len(items), None), "releases")


UPLOAD_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"],
    "properties": {"file": {"type": "string", "format": "binary", "description": "The weekly release as a ZIP"}}}}}}
UPLOADS = "/releases/uploads"
# No id has other characters (PostgreSQL refuses NUL).
UPLOAD_ID = path_param("upload_id", {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
                       "Upload id, from the `statusUrl` of POST /v1/admin/releases.", "upload")


def _status_url(job_id: str) -> str:
    return f"{area.blueprint.url_prefix}{UPLOADS}/{job_id}"


def job_view(state: JobState) -> dict[str, Any]:
    job = state.job
    release = db_session().get(Release, job.release_id) if job.release_id else None
    recorded = state.problem
    problem = None if recorded is None else problem_body(slug=recorded.slug, title=recorded.title,
                                                         status=recorded.status, detail=recorded.detail,
                                                         extra=recorded.extra)
    return {"id": job.id, "status": state.status, "stage": job.stage, "itemsWritten": job.items_written,
            "statusUrl": _status_url(job.id), "uploadedBy": job.uploaded_by,
            "createdAt": format_utc(job.created_at), "updatedAt": format_utc(job.updated_at),
            "finishedAt": format_utc(job.finished_at) if job.finished_at else None,
            "release": release_view(release) if release else None, "problem": problem}


@area.post("/releases", response_schema="ReleaseUpload", request_body=UPLOAD_BODY, success_status=202,
           extra_statuses=[409])
def upload_release(values: dict[str, Any]) -> Reply:
    """Upload a weekly release (ZIP); it is loaded in the background
    The answer (202) carries `statusUrl` (also in `Location`): poll it for the stage, then the release
    served or the problem listing every refusal by file, row and column. The release served before
    stays served until the new one is switched in whole. One upload loads at a time: while one runs,
    another is refused with 409 naming the running upload (`uploadId`, `statusUrl`), so releases are
    served in the order their uploads were accepted."""
    if this_request().mimetype != "multipart/form-data":
        raise UnsupportedMediaType("Send the release as multipart/form-data with a `file` part.")
    this_request().max_content_length = this_app().config["MAX_UPLOAD_BYTES"]
    upload = this_request().files.get("file")
    if upload is None:
        raise InvalidParameters([{"parameter": "file", "message": "is required: the release ZIP"}])
    uploads = Path(this_app().config["UPLOAD_DIR"])
    try:
        job = receive_upload(db_session(), uploads, upload.save, uploaded_by=f"key:{request_state().api_key.id}",
                             database_url=this_app().config["DATABASE_URL"])
    except UploadRunningError as running:
        raise Conflict(f"Upload {running.job.id} is still loading; upload again once it has finished.",
                       uploadId=running.job.id, statusUrl=_status_url(running.job.id)) from None
    view = job_view(JobState(job, job.status, None))
    return Reply(json_body(view), "", status=202, headers={"Location": view["statusUrl"]})


@area.get(f"{UPLOADS}/<upload_id>", cost=0, response_schema="ReleaseUpload", path_params=[UPLOAD_ID],
          extra_statuses=[404])
def get_release_upload(values: dict[str, Any], upload_id: str) -> Reply:
    """An uploaded release: `running` with its stage, then `loaded` (with the release), `refused` (with
    the problem listing every refusal) or `failed` (with the reason)"""
    try:
        state = read_job(db_session(), upload_id, Path(this_app().config["UPLOAD_DIR"]))
    except NotFoundError:
        raise NotFound(f"No upload {upload_id!r}.") from None
    return Reply(json_body(job_view(state)), "")


@area.post("/releases/<release_id>/activate", response_schema="Release", path_params=[RELEASE_ID],
           extra_statuses=[404, 409])
def activate_stored_release(values: dict[str, Any], release_id: int) -> Reply:
    """Serve an earlier or later release (roll back or forward)
    A release pruned by retention (`pruned: true` in the listing) cannot be served again: 409."""
    try:
        release = activate_release(db_session(), release_id)
    except NotFoundError:
        raise NotFound(f"No release with id {release_id}.") from None
    except ReleasePrunedError as pruned:
        raise Conflict(f"Not activated: {pruned}.") from None
    _audit("release.activate", str(release_id), release.name)
    return Reply(json_body(release_view(release)), "")
