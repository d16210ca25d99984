"""The OpenAPI 3.1 document of one app, built from the operations it installed and their parameter
rules (it cannot drift from what the server checks)."""

from __future__ import annotations

import re
from typing import Any

from api.context import this_app
from api.description.examples import add_examples
from api.description.responses import problem_response
from api.description.schemas import SCHEMAS
from api.limits import CONDITIONAL_MULTIPLE
from api.operations import Operation, Outcome, app_operations
from api.transport.conditional import MAX_ETAGS
from api.transport.urls import public_base

API_VERSION = "1.0.0"
# The product's name as it is written; a client generator is given its package name
# (`gosterge_api_client`) rather than deriving one from the title.
TITLE = "Gösterge API"

# Every tag an operation names, with what it groups (tests/api/test_openapi.py checks that none is missing).
TAGS = {
    "Public procurement": "Statistics computed from the weekly release of the national e-procurement platform "
                          "(EKAP): competition, concentration, direct procurement, local suppliers, volumes by "
                          "province and sector, supply flows between provinces, and the ten largest authorities "
                          "and contractors. 1 credit per call; `/datasets` is free.",
    "Awards and parties": "The single contract and the parties behind it, from the same release: every awarded lot "
                          "with its red flags, authorities and contractors found by name (Turkish letters folded) "
                          "and their profiles, and the usual tender discount by sector, procedure, province and "
                          "year. 1 credit per call.",
    "Watchlists": "Saved awards filters of a key: the awards new to each since an earlier release (1 credit a "
                  "page), and a weekly digest of them mailed to a confirmed address, with a one-click "
                  "unsubscribe link. Creating, listing and deleting them is free.",
    "Reference lists": "Free lists of the vocabulary the statistics use: provinces (with their boundaries), "
                       "sectors, authority types, procedures, the red flags an award can carry, and the consumer price "
                       "index for real terms.",
    "Finance news": "Articles summarised in Turkish and English from official documents of the Federal Reserve, "
                    "the European Central Bank, SEC 8-K filings and the Official Gazette of Türkiye.",
    "Account": "The caller's own key: the APIs it may call, credits left, rate limit and expiry. Free.",
    "Accounts": "Self-registration: ask for a key, the mailbox owner approves by e-mail, collect the key once.",
    "Admin": "Keys and weekly releases, for keys with the admin scope; every change is audited.",
    "Downloads": "The release served, whole: its tables as loaded (zipped) and its OCDS 1.1 release package (gzip), "
                 "built once when it was loaded. The list is free; a file costs the credits it lists, and "
                 "resumes (byte ranges) within a day of paying are free.",
    "Meta": "This document and the page that renders it.",
}

RATE_HEADERS = {
    "X-RateLimit-Limit": ("integer", "Requests allowed in the current window."),
    "X-RateLimit-Remaining": ("integer", "Requests left in the current window."),
    "X-RateLimit-Reset": ("integer", "When the window resets, in epoch seconds."),
    "RateLimit-Policy": ("string", "IETF draft RateLimit-Policy field, e.g. `\"default\";q=60;w=60`."),
    "RateLimit": ("string", "IETF draft RateLimit field, e.g. `\"default\";r=59;t=42`."),
}

PAGE_HEADERS = {
    "Link": {"description": "`<full URL of the next page>; rel=\"next\"` (RFC 8288); absent on the last page. "
             "A key sent as `apikey` is left out of it.", "schema": {"type": "string"}},
    "X-Next-Cursor": {"description": "The page's `next_cursor`; absent on the last page.", "schema": {"type": "string"}},
    "X-Total-Count": {"description": "The page's `total`: items matching the filters, on every page.",
                      "schema": {"type": "integer", "minimum": 0}},
}

DESCRIPTION = f"""Türkiye's public procurement statistics and official finance news.

**Authentication**: `Authorization: Bearer <key>` or the `apikey` query parameter. Sending both with
different values is refused with 401.

**Order of checks**: authentication (401), the key's APIs (403), rate limit (429), parameters (400),
credits (402), then the answer (200, 304, 404). Only a 200 of a paid endpoint costs credits (and a
206 of a release file the key has not paid for within a day: `/downloads/{{name}}`); a 304 is
free, and does not count against the rate limit when the server answers it from memory for a real
`ETag`; a 304 for `If-None-Match: *`, or one that had to read the store, counts. Requests without a
known key count against the default rate of their client address (then 429). `HEAD` costs nothing;
of a paid endpoint it carries nothing measured from the body (no `Content-Length`, `ETag`,
`Content-Encoding` or paging headers) and ignores `If-None-Match`. `OPTIONS` is 405. Request bodies are at most 16 KB (413), except the release upload, and must arrive
within 5 s of the headers (408, then the connection is closed).

**Conditional requests**: every data endpoint sends a strong `ETag`; send it back in `If-None-Match`
for a bodiless 304 while the data is unchanged. The ETag of a procurement answer changes when a new
release is served. Free 304s are limited per key to {CONDITIONAL_MULTIPLE} times its rate (past that a 304 counts
against the rate like any request), and `If-None-Match` may list at most {MAX_ETAGS} ETags (400 otherwise).

**Paging**: `limit` (1-200, default 50) and `cursor` (the `next_cursor` of the previous page, with the
same filters). Cursors are signed and bound to the endpoint that issued them: an edited or forged
cursor, another endpoint's, one sent with other filters, or one from a release no longer served is 400
on `cursor`. Unknown and repeated query parameters are 400.

**Units**: every amount is in nominal Turkish lira (TRY), not adjusted for inflation (use
`/price-index` for real terms); shares are fractions from 0 to 1; the Herfindahl-Hirschman index runs
from 0 to 10,000. Each field's description gives its unit and definition.

**Transport**: answers are gzip-compressed for clients that send `Accept-Encoding: gzip` (a
compressed answer has its own strong ETag, `"…:gzip"`, and `If-None-Match` works with either); paged
endpoints send `Link: <next URL>; rel="next"`, `X-Next-Cursor` and `X-Total-Count`, and answer CSV for
`Accept: text/csv` or `format=csv` with the same paging headers.

**Procurement conventions**: each statistic is defined in its field's description below; the choices
behind them (which items an index holds, precision, ties) are in the project's `docs/decisions.md`,
section "Public procurement". Amounts are nominal TRY
rounded to the kuruş (at most 2 decimals; `amount = localAmount + otherAmount` exactly); shares,
averages and HHI are unrounded doubles.
Index endpoints carry every subject of the dimension for every year from 2019 to the latest year of
the release and `all`, with counts of 0 and null statistics where the set is empty. Procedure ids:
`open`, `restricted`, `negotiated-21a` … `negotiated-21f`, `design-contest`, `framework`, and for awards
under the Law 4734 article-3 exceptions `exception-3a` … `exception-3h` (served by `/procedures`).

## Licence

The data keeps the terms of its sources: each procurement dataset's citation is served by
`/v1/public-procurement/datasets`, each news source's licence or acknowledgement by
`/v1/finance-news/sources`, and the province boundaries (Natural Earth) are in the public domain.
Headlines and summaries are machine-written from the original document, which is authoritative.
"""


def _parameter(param, location: str = "query", required: bool = False) -> dict[str, Any]:  # noqa: ANN001
    return {"name": param.name, "in": location, "required": required, "description": param.description,
            "schema": param.document_schema()}


def _public_operation(spec: Operation) -> dict[str, Any]:
    """A public operation (no key): its documented answers and problems."""
    responses: dict[str, Any] = {}
    for outcome in spec.outcomes:
        responses[str(outcome.status)] = _outcome(outcome)
    for status in spec.problems:
        responses[str(status)] = problem_response(status)
    parameters = [_parameter(p, "path", True) for p in spec.path_params]
    parameters += [_parameter(p, required=p.name in spec.required) for p in spec.params]
    operation: dict[str, Any] = {"operationId": spec.operation_id, "tags": [spec.tag], "security": [],
                                 "summary": spec.summary, "description": spec.description}
    if parameters:
        operation["parameters"] = parameters
    if spec.request_body:
        operation["requestBody"] = spec.request_body
    return operation | {"responses": responses}


def _outcome(outcome: Outcome) -> dict[str, Any]:
    response: dict[str, Any] = {"description": outcome.description}
    if outcome.headers:
        response["headers"] = outcome.headers
    if outcome.schema is not None:
        response["content"] = {outcome.media_type: {"schema": outcome.schema}}
    return response


def _headers(names: dict[str, tuple[str, str]]) -> dict[str, Any]:
    return {name: {"description": text, "schema": {"type": kind}} for name, (kind, text) in names.items()}


def _operation(spec: Operation) -> dict[str, Any]:
    if spec.public:
        return _public_operation(spec)
    etag = {"ETag": {"description": "Strong validator of this answer.", "schema": {"type": "string"}}}
    success = str(spec.success_status)
    responses: dict[str, Any] = {
        success: {
            "description": "OK" if success == "200" else "Created",
            "headers": _headers(RATE_HEADERS) if spec.method != "GET" else {**etag, **_headers(RATE_HEADERS)},
            "content": {spec.media_type: {"schema": {"$ref": f"#/components/schemas/{spec.response_schema}"}}},
        },
    }
    if spec.success_status == 204:  # a deletion answers with no body
        responses[success] = {"description": "Deleted", "headers": _headers(RATE_HEADERS)}
    if spec.method == "GET":
        responses["304"] = {"description": "Not modified: the `If-None-Match` ETag still matches.", "headers": etag}
    if spec.links:
        responses[success]["links"] = spec.links
    if any(p.name == "format" for p in spec.params):
        responses[success]["content"]["text/csv"] = {"schema": {
            "type": "string", "description": "The page's items as RFC 4180 CSV under a header row of the item "
            "fields; null as an empty cell, arrays and objects as their JSON text (decisions.md)."}}
        responses[success]["headers"].update(PAGE_HEADERS)
    if spec.streamed:
        _file_answers(responses, success, etag)
    if spec.paid:
        credits = {"X-Credits-Remaining": {"description": "Credits the key holds after this answer, in credits.",
                                           "schema": {"type": "integer", "minimum": 0}}}
        responses[success]["headers"].update(credits)
        responses["304"]["headers"] = {**etag, **credits}
        if "206" in responses:
            responses["206"]["headers"].update(credits)
    statuses = [400, 401, 403, 429, 502, 504, *spec.extra_statuses]
    if spec.paid:
        statuses.append(402)
    if spec.request_body:
        statuses += [408, 413, 415]
    for status in sorted(set(statuses)):
        responses[str(status)] = problem_response(status)
        if status == 429:
            responses["429"]["headers"] = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}}
        if status == 401:
            responses["401"]["headers"] = {"WWW-Authenticate": {
                "description": "`Bearer realm=\"gosterge\"`, with `error=\"invalid_token\"` when the key sent is "
                               "unknown, expired or revoked (RFC 6750).", "schema": {"type": "string"}}}
        elif spec.paid:  # every answer of a paid endpoint that knew the key says its credits
            responses[str(status)].setdefault("headers", {}).update(credits)
    parameters = [_parameter(p, "path", True) for p in spec.path_params]
    parameters += [_parameter(p, required=p.name in spec.required) for p in spec.params]
    if spec.method == "GET":
        parameters.append({"name": "If-None-Match", "in": "header", "required": False,
                           "description": "An ETag from an earlier answer.", "schema": {"type": "string"}})
    if spec.streamed:
        parameters += FILE_PARAMETERS
    cost = spec.cost_rule or ("free" if spec.cost == 0 else f"{spec.cost} credit per call")
    operation: dict[str, Any] = {}
    if spec.request_body:
        operation["requestBody"] = spec.request_body
    return operation | {
        "operationId": spec.operation_id,
        "tags": [spec.tag],
        "summary": spec.summary,
        "description": f"{spec.description}\n\nCost: {cost}.".strip(),
        "parameters": parameters,
        "responses": responses,
    } | ({"x-credits-rule": spec.cost_rule} if spec.cost_rule else {"x-credits": spec.cost})


FILE_MEDIA_TYPES = ("application/zip", "application/gzip")
FILE_PARAMETERS = [
    {"name": "Range", "in": "header", "required": False, "schema": {"type": "string", "pattern": "^bytes=.+$"},
     "description": "One byte range, `bytes=first-[last]` or `bytes=-suffix` (RFC 9110 14.2): a 206 with those "
                    "bytes. More than one range, or none within the file, is a 416."},
    {"name": "If-Range", "in": "header", "required": False, "schema": {"type": "string"},
     "description": "The file's ETag: the range is served only while the file is the same, otherwise the whole "
                    "file (200)."},
]


def _file_answers(responses: dict[str, Any], success: str, etag: dict[str, Any]) -> None:
    """A file's answers: its bytes whole (200) or one range of them (206), by their media types."""
    content = {media: {"schema": {"$ref": "#/components/schemas/DownloadFile"}} for media in FILE_MEDIA_TYPES}
    length = {"Content-Length": {"description": "Bytes in this answer: the file's `size`, or the range's length.",
                                 "schema": {"type": "integer", "minimum": 0}},
              "Accept-Ranges": {"description": "`bytes`.", "schema": {"type": "string"}}}
    responses[success]["content"] = content
    responses[success]["headers"].update(length)
    responses["206"] = {"description": "Partial content: the range asked for.", "content": content,
                        "headers": {**etag, **length, "Content-Range": {
                            "description": "`bytes first-last/size` (RFC 9110 14.4).", "schema": {"type": "string"}},
                                    **_headers(RATE_HEADERS)}}


def build_openapi() -> dict[str, Any]:
    """The whole document for the current app's operations, with the server base from configuration."""
    paths: dict[str, Any] = {}
    for spec in app_operations():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", spec.path)  # Flask's <int:id> is OpenAPI's {id}
        paths.setdefault(path, {})[spec.method.lower()] = _operation(spec)
    base = public_base()
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": TITLE, "version": API_VERSION, "description": DESCRIPTION,
            "contact": {"name": "Gösterge", "url": f"{base}/v1/docs"},
            "license": {"name": "Terms of each source (see the Licence section)", "url": f"{base}/v1/docs#section/Licence"},
        },
        "servers": [{"url": public_base(), "description": "This server."}],
        "security": [{"bearerAuth": []}, {"apiKeyQuery": []}],
        "tags": [{"name": name, "description": text} for name, text in TAGS.items()],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer", "description": "`Authorization: Bearer <key>`."},
                "apiKeyQuery": {"type": "apiKey", "in": "query", "name": "apikey",
                                "description": "The key as the `apikey` query parameter."},
            },
        },
    }
    add_examples(document, problem_base=this_app().config["PROBLEM_BASE"])
    return document
