"""/v1/public-procurement/downloads: the served release's files, built once when it was loaded (its
tables as loaded, zipped, and its OCDS release package), listed free and downloaded for credits."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Blueprint, Response

from api.areas import Area
from api.context import request_state, this_app, this_request
from api.guard import CREDITS_HEADER, charge
from api.operations import Reply, json_body
from api.params import MAX_LIMIT, path_param
from api.problems import RangeNotSatisfiable
from api.routes.release_params import NO_RELEASE, served_release
from api.transport.files import UnsatisfiableRangeError, file_answer
from api.transport.paging import page_envelope
from api.transport.urls import public_url
from store.downloads import RESUME_WINDOW, charge_download
from store.models import Release
from store.release_files import ReleaseFile, read_release_files

PREFIX = "/v1/public-procurement"
area = Area(Blueprint("procurement_downloads", __name__, url_prefix=PREFIX), "Downloads", api="public-procurement")

COST_RULE = (f"one credit per {MAX_LIMIT} rows of the release (its datasets' rows added up, rounded up; at least 1): "
             f"the pages the same rows take at the largest page size. The listing gives each file's `credits`. "
             f"Charged for a 200; a 206 is free when the key paid for the same file within the last "
             f"{RESUME_WINDOW.days * 24} hours (else it is charged as a whole download, and opens that window); "
             "a 304, a 416 and HEAD are free")
NAME_PATTERN = r"^gosterge-[0-9]{4}-W[0-9]{2}-(tables\.zip|ocds\.json\.gz)$"


def file_credits(release: Release) -> int:
    """What any file of `release` costs: the pages its rows would take at the largest page size."""
    return max(1, math.ceil(release.total_rows / MAX_LIMIT))


def _served_files() -> tuple[Release, list[ReleaseFile]] | None:
    """The release served and its files, read once per request; None before the first release."""
    state = request_state()
    if "release_files" not in state:
        release = served_release()
        stored = read_release_files(Path(this_app().config["RELEASE_FILES_DIR"]), release.id) if release else None
        state.release_files = (release, stored.files if stored else []) if release else None
    return state.release_files


def _served_file(raw: str) -> ReleaseFile:
    served = _served_files()
    found = next((f for f in served[1] if f.name == raw), None) if served else None
    if found is None:
        raise ValueError("is not a file of the release served")
    return found


_NAME = path_param("name", {"type": "string", "pattern": NAME_PATTERN}, "The file's `name`, as the listing gives it.",
                   "file")
# Of the documented form, and a file of the release served; anything else names nothing (404).
FILE = replace(_NAME, parse=lambda raw: _served_file(_NAME.parse(raw)))


def _entry(release: Release, file: ReleaseFile) -> dict[str, Any]:
    return {**file.as_dict(), "url": public_url(f"{PREFIX}/downloads/{file.name}"), "credits": file_credits(release),
            "citations": [{"dataset": d.name, "citation": d.citation, "url": d.url} for d in release.datasets]}


@area.get("/downloads", cost=0, response_schema="DownloadPage")
def list_downloads(values: dict[str, Any]) -> Reply:
    """The served release's files for download, each with its size, SHA-256, citations and cost
    `tables` is the release's five CSV files and manifest as loaded, zipped (unzipped, they load again
    as the same release); `ocds` is its OCDS 1.1 release package, gzip-compressed (docs/ocds.md).
    Each was built once, when the release was loaded. Before the first release the list is empty."""
    served = _served_files()
    if served is None:
        return Reply(page_envelope([], 0, None)[:-1] + ',"release":null}', NO_RELEASE)
    release, files = served
    body = page_envelope([json_body(_entry(release, f)) for f in files], len(files), None)
    return Reply(body[:-1] + f',"release":{json_body(release.name)}}}', f"release-{release.id}")


@area.get("/downloads/<name>", path_params=[FILE], cost_rule=COST_RULE, streamed=True, extra_statuses=[404, 416],
          media_type="application/octet-stream", response_schema="DownloadFile")
def download_file(values: dict[str, Any], name: ReleaseFile) -> Response:
    """One file of the served release, byte for byte as listed
    Its `ETag` is the file's SHA-256 (a matching `If-None-Match` is a 304); one byte range at a time
    (`Range: bytes=first-[last]`, 206 with `Content-Range`; with `If-Range` only while the file is the
    same), so that a large download resumes where it broke."""
    served = _served_files()
    assert served is not None  # `name` was found among the served release's files
    release = served[0]
    try:
        answer = file_answer(name.path, size=name.size, etag=name.sha256, media_type=name.media_type,
                             download_name=name.name)
    except UnsatisfiableRangeError as error:
        raise RangeNotSatisfiable(str(error), headers={"Content-Range": f"bytes */{error.size}"}) from None
    cost, key = file_credits(release), request_state().api_key
    if answer.status_code not in (200, 206) or this_request().method == "HEAD":
        answer.headers[CREDITS_HEADER] = str(key.credits)
        return answer  # a 304 and a HEAD carry no byte of the file: free
    try:
        headers = charge(cost, lambda session: charge_download(
            session, key_id=key.id, sha256=name.sha256, cost=cost, now=datetime.now(UTC),
            resume=answer.status_code == 206))
    except BaseException:
        answer.close()  # the file was opened for the answer that is not sent
        raise
    answer.headers.update(headers)
    return answer
