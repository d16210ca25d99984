"""/v1/public-procurement/downloads: the served release's files listed free, downloaded whole or in a
byte range for the credits the list gives, and resumed within a day for nothing."""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import requests
from sqlalchemy import update

from loaders.procurement.generate import generate_release
from loaders.procurement.load import load_release
from loaders.settings import load_settings
from store.db import session_scope
from store.models import DownloadCharge, Release
from tests.helpers import LiveServer, assert_problem, error_parameters

LIST = "/v1/public-procurement/downloads"


@pytest.fixture
def served(make_app, loaded_database, loaded_files_dir):
    """An app serving the demo release and its download files."""
    return make_app(RELEASE_FILES_DIR=str(loaded_files_dir))


@pytest.fixture
def client(served):
    return served.test_client()


@pytest.fixture
def key(make_key, served):
    def factory(credits: int = 1000) -> dict[str, str]:
        return {"Authorization": f"Bearer {make_key(credits=credits, target_app=served)}"}
    return factory


def _listed(client, headers) -> dict[str, dict]:  # noqa: ANN001
    return {f["kind"]: f for f in client.get(LIST, headers=headers).get_json()["items"]}


def _path(entry: dict) -> str:
    return entry["url"].removeprefix("http://localhost")


def _credits(response) -> int:  # noqa: ANN001
    return int(response.headers["X-Credits-Remaining"])


def test_list_downloads_gives_each_file_with_size_sha256_citations_and_cost(client, key, served, loaded_files_dir):
    headers = key()
    response = client.get(LIST, headers=headers)
    assert response.status_code == 200 and "ETag" in response.headers
    body = response.get_json()
    assert body["release"] == "2026-W47" and body["total"] == 2 and body["next_cursor"] is None
    with session_scope(served.extensions["gosterge.sessions"]) as session:
        rows = session.query(Release).one().total_rows
    for entry in body["items"]:
        stored = next(loaded_files_dir.glob(f"*/{entry['name']}")).read_bytes()
        assert entry["size"] == len(stored) and entry["sha256"] == hashlib.sha256(stored).hexdigest()
        assert entry["url"] == f"http://localhost{LIST}/{entry['name']}"
        assert entry["credits"] == math.ceil(rows / 200)
        assert {c["dataset"] for c in entry["citations"]} == {"authorities", "contractors", "tenders", "awards",
                                                             "direct_purchases"}
    assert {e["kind"]: e["mediaType"] for e in body["items"]} == {"tables": "application/zip",
                                                                   "ocds": "application/gzip"}
    me = client.get("/v1/account", headers=headers).get_json()
    assert me["credits"] == 1000  # the list is free


def test_list_downloads_is_empty_before_the_first_release(app, auth):
    body = app.test_client().get(LIST, headers=auth).get_json()
    assert body == {"items": [], "total": 0, "next_cursor": None, "release": None}


@pytest.mark.parametrize("kind", ["tables", "ocds"])
def test_download_file_whole_matches_its_listing_and_costs_its_credits(client, key, kind):
    headers = key()
    entry = _listed(client, headers)[kind]
    response = client.get(_path(entry), headers=headers)
    assert response.status_code == 200
    assert response.mimetype == entry["mediaType"]
    assert int(response.headers["Content-Length"]) == entry["size"] == len(response.data)
    assert hashlib.sha256(response.data).hexdigest() == entry["sha256"]
    assert response.headers["ETag"] == f'"{entry["sha256"]}"'
    assert response.headers["Accept-Ranges"] == "bytes"
    assert entry["name"] in response.headers["Content-Disposition"]
    assert set(response.headers["Cache-Control"].split(", ")) == {"private", "no-cache"}
    assert _credits(response) == 1000 - entry["credits"]
    again = client.get(_path(entry), headers=headers)  # every whole download is charged
    assert _credits(again) == 1000 - 2 * entry["credits"]


def test_download_file_if_none_match_is_a_free_304(client, key):
    headers = key()
    entry = _listed(client, headers)["ocds"]
    response = client.get(_path(entry), headers={**headers, "If-None-Match": f'"{entry["sha256"]}"',
                                                 "Range": "bytes=0-9"})
    assert response.status_code == 304 and response.data == b""
    assert _credits(response) == 1000
    assert client.get("/v1/account", headers=headers).get_json()["credits"] == 1000


def test_download_file_resumed_range_equals_the_tail_and_is_free_within_a_day(client, key):
    headers = key()
    entry = _listed(client, headers)["tables"]
    whole = client.get(_path(entry), headers=headers)
    paid = _credits(whole)
    start = entry["size"] // 3
    resumed = client.get(_path(entry), headers={**headers, "Range": f"bytes={start}-",
                                                "If-Range": f'"{entry["sha256"]}"'})
    assert resumed.status_code == 206
    assert resumed.headers["Content-Range"] == f"bytes {start}-{entry['size'] - 1}/{entry['size']}"
    assert resumed.data == whole.data[start:]
    assert int(resumed.headers["Content-Length"]) == entry["size"] - start
    assert _credits(resumed) == paid


def test_download_file_range_without_payment_is_charged_once_then_resumes_free(client, key):
    headers = key()
    entry = _listed(client, headers)["ocds"]
    first = client.get(_path(entry), headers={**headers, "Range": "bytes=0-99"})
    assert first.status_code == 206 and len(first.data) == 100
    assert _credits(first) == 1000 - entry["credits"]
    rest = client.get(_path(entry), headers={**headers, "Range": "bytes=100-"})
    assert rest.status_code == 206 and _credits(rest) == 1000 - entry["credits"]
    assert hashlib.sha256(first.data + rest.data).hexdigest() == entry["sha256"]


def test_download_file_range_a_day_after_payment_is_charged_again(client, key, served):
    headers = key()
    entry = _listed(client, headers)["tables"]
    client.get(_path(entry), headers=headers)
    with session_scope(served.extensions["gosterge.sessions"]) as session:
        session.execute(update(DownloadCharge).values(charged_at=datetime.now(UTC) - timedelta(days=1, minutes=1)))
    late = client.get(_path(entry), headers={**headers, "Range": "bytes=5-"})
    assert late.status_code == 206 and _credits(late) == 1000 - 2 * entry["credits"]


def test_download_file_resume_by_another_key_is_charged(client, key):
    first, second = key(), key()
    entry = _listed(client, first)["tables"]
    client.get(_path(entry), headers=first)
    other = client.get(_path(entry), headers={**second, "Range": "bytes=5-"})
    assert other.status_code == 206 and _credits(other) == 1000 - entry["credits"]


def test_download_file_if_range_of_another_file_sends_it_whole(client, key):
    headers = key()
    entry = _listed(client, headers)["tables"]
    response = client.get(_path(entry), headers={**headers, "Range": "bytes=5-", "If-Range": '"0123abcd"'})
    assert response.status_code == 200 and len(response.data) == entry["size"]
    assert _credits(response) == 1000 - entry["credits"]


@pytest.mark.parametrize("header", ["bytes=99999999-", "bytes=0-1,5-9", "lines=1-2", "bytes=z-"])
def test_download_file_range_it_cannot_serve_is_a_free_416(client, key, header):
    headers = key()
    entry = _listed(client, headers)["tables"]
    response = client.get(_path(entry), headers={**headers, "Range": header})
    body = assert_problem(response, 416, "range_not_satisfiable")
    assert "Range" in body["detail"]
    assert response.headers["Content-Range"] == f"bytes */{entry['size']}"
    assert _credits(response) == 1000


def test_download_file_malformed_range_is_416_whatever_if_range_says(client, key):
    # An If-Range that matches nothing would have the Range ignored and the whole file sent and charged.
    headers = key()
    entry = _listed(client, headers)["tables"]
    response = client.get(_path(entry), headers={**headers, "Range": "{}", "If-Range": ""})
    assert_problem(response, 416, "range_not_satisfiable")
    assert _credits(response) == 1000


@pytest.mark.parametrize("condition", ["*", "etag"])
def test_download_file_malformed_range_is_416_before_if_none_match(client, key, condition):
    # The declared header's form is checked first, as every declared parameter is: a matching
    # If-None-Match does not turn a Range the document calls invalid into a 304.
    headers = key()
    entry = _listed(client, headers)["tables"]
    tag = "*" if condition == "*" else f'"{entry["sha256"]}"'
    response = client.get(_path(entry), headers={**headers, "Range": "u", "If-None-Match": tag})
    assert_problem(response, 416, "range_not_satisfiable")
    assert _credits(response) == 1000


def test_download_file_without_enough_credits_is_402_and_takes_nothing(client, key):
    entry = _listed(client, key())["tables"]
    poor = key(credits=entry["credits"] - 1)
    response = client.get(_path(entry), headers=poor)
    body = assert_problem(response, 402, "payment_required")
    assert body["credits_required"] == entry["credits"] and _credits(response) == entry["credits"] - 1
    # Nothing was remembered either: a range is not free afterwards.
    assert_problem(client.get(_path(entry), headers={**poor, "Range": "bytes=5-"}), 402, "payment_required")
    # Answers that carry no byte of the file are free whatever the key holds.
    assert client.get(_path(entry), headers={**poor, "If-None-Match": f'"{entry["sha256"]}"'}).status_code == 304
    head = client.head(_path(entry), headers=poor)
    assert head.status_code == 200 and int(head.headers["Content-Length"]) == entry["size"]
    assert _credits(head) == entry["credits"] - 1


@pytest.mark.parametrize("name", ["gosterge-2026-W46-tables.zip", "gosterge-2026-W47-ocds.json", "files.json",
                                  ".building-1-tables.zip"])
def test_download_file_unknown_name_is_404(client, key, name):
    body = assert_problem(client.get(f"{LIST}/{name}", headers=key()), 404, "not_found")
    assert body["detail"] == f"No file {name!r}."


def test_downloads_unknown_parameter_is_400(client, key):
    headers = key()
    entry = _listed(client, headers)["tables"]
    for path in (LIST, _path(entry)):
        body = assert_problem(client.get(f"{path}?limit=5", headers=headers), 400, "invalid_parameters")
        assert error_parameters(body) == ["limit"]


def test_downloads_need_a_key_of_the_procurement_api(client, key, make_key, served):
    entry = _listed(client, key())["tables"]
    assert_problem(client.get(_path(entry)), 401, "unauthorized")
    news_only = {"Authorization": f"Bearer {make_key(apis=['finance-news'], target_app=served)}"}
    assert_problem(client.get(_path(entry), headers=news_only), 403, "forbidden")


def test_downloads_list_only_the_served_release_once_older_ones_are_pruned(make_app, loaded_database, key,
                                                                            loaded_files_dir, tmp_path):
    files = tmp_path / "files"
    shutil.copytree(loaded_files_dir, files)
    app = make_app(RELEASE_FILES_DIR=str(files))
    client, headers = app.test_client(), {"Authorization": "Bearer " + _key(app)}
    old = _listed(client, headers)["tables"]
    newer = generate_release("tiny", seed=8, out=tmp_path / "w48.zip", published=datetime(2026, 11, 27, 6, tzinfo=UTC))
    load_release(newer, app.extensions["gosterge.sessions"], keep=1,
                 settings=replace(load_settings(), release_files_dir=files))
    body = client.get(LIST, headers=headers).get_json()
    assert body["release"] == "2026-W48"
    assert {f["name"] for f in body["items"]} == {"gosterge-2026-W48-tables.zip", "gosterge-2026-W48-ocds.json.gz"}
    assert_problem(client.get(_path(old), headers=headers), 404, "not_found")
    assert not any(files.glob(f"*/{old['name']}"))  # the pruned release's files are gone


def _key(app) -> str:  # noqa: ANN001
    from store.keys import create_key

    with session_scope(app.extensions["gosterge.sessions"]) as session:
        _, clear = create_key(session, apis=["public-procurement"], credits=1000, rate="1000/minute",
                              now=datetime.now(UTC))
    return clear


def test_download_ocds_package_names_its_own_download_as_uri(client, key):
    headers = key()
    entry = _listed(client, headers)["ocds"]
    package = json.loads(gzip.decompress(client.get(_path(entry), headers=headers).data))
    assert package["uri"].endswith(_path(entry))


def test_download_file_is_sent_as_stored_to_a_client_that_takes_gzip(client, key):
    headers = key()
    entry = _listed(client, headers)["tables"]
    response = client.get(_path(entry), headers={**headers, "Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in response.headers
    assert hashlib.sha256(response.data).hexdigest() == entry["sha256"]


def test_download_file_in_parallel_ranges_over_http_is_charged_once(served, key):
    """A segmented download manager: four ranges at once on a real server, one charge, the file whole."""
    headers = key()
    with LiveServer(served) as server:
        entry = requests.get(server.url + LIST, headers=headers, timeout=10).json()["items"][0]
        size, quarter = entry["size"], -(-entry["size"] // 4)
        ranges = [(start, min(start + quarter, size) - 1) for start in range(0, size, quarter)]

        def fetch(part: tuple[int, int]) -> requests.Response:
            return requests.get(entry["url"], headers={**headers, "Range": f"bytes={part[0]}-{part[1]}"}, timeout=10)

        with ThreadPoolExecutor(len(ranges)) as pool:
            parts = list(pool.map(fetch, ranges))
        account = requests.get(server.url + "/v1/account", headers=headers, timeout=10).json()
    assert [p.status_code for p in parts] == [206] * len(ranges)
    assert hashlib.sha256(b"".join(p.content for p in parts)).hexdigest() == entry["sha256"]
    assert account["credits"] == 1000 - entry["credits"]
