"""The documented problem answers: what each error status means, and its OpenAPI response."""

from __future__ import annotations

from typing import Any

from api.description.schemas import problem_schema_name

ERROR_TEXT = {
    400: "Invalid parameters: `errors` lists each bad parameter with a message.",
    401: "The key is missing, unknown, expired or revoked.",
    402: "Not enough credits: `credits_required` and `upgrade_url` say what to do.",
    403: "The key may not call this API.",
    404: "Not found.",
    408: "The request body did not arrive within GOSTERGE_BODY_SECONDS (5 s) of the headers; the connection is closed.",
    409: "Conflict: another upload is still loading (`uploadId`, `statusUrl`), or the release was pruned.",
    410: "Gone: the request was refused, has expired, or its key was already handed out.",
    413: "The request body is larger than the limit.",
    416: "The `Range` header asks for no byte of the file, more than one range, or is malformed; "
         "`Content-Range: bytes */<size>` gives the size.",
    415: "The request body is not of the expected media type.",
    429: "Rate limited: wait `retry_after` seconds (also the `Retry-After` header).",
    502: "The data source failed (`upstream_error`) or refused the service's credential (`upstream_auth`).",
    503: "Not ready: the store does not answer, no release is served yet, or (sign-up) the server is not set up to send its mail safely.",
    504: "The data source timed out (`upstream_timeout`).",
}


def problem_response(status: int) -> dict[str, Any]:
    """The OpenAPI response of a problem document with this status (its own schema where the status
    has fields of its own, such as `errors` on 400)."""
    schema = {"$ref": f"#/components/schemas/{problem_schema_name(status)}"}
    return {"description": ERROR_TEXT[status], "content": {"application/problem+json": {"schema": schema}}}

