"""Paging and transport conveniences: the Link header, gzip with ETags that stay correct, and CSV pages."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import assert_problem, error_parameters

PAGE = "/v1/public-procurement/competition-indices?dimension=province&limit=5"
GZIP = {"Accept-Encoding": "gzip"}


def next_link(response) -> str | None:  # noqa: ANN001
    match = re.fullmatch(r'<([^>]+)>; rel="next"', response.headers.get("Link", ""))
    return match.group(1) if match else None


def test_link_header_gives_the_full_next_url(loaded_app, auth):
    client = loaded_app.test_client()
    first = client.get(PAGE, headers=auth, base_url="http://api.test:9000")
    cursor = first.get_json()["next_cursor"]
    link = next_link(first)
    assert link == f"http://api.test:9000{PAGE}&cursor={cursor}"
    assert first.headers["X-Next-Cursor"] == cursor
    assert first.headers["X-Total-Count"] == str(first.get_json()["total"])
    second = client.get(link, headers=auth)
    assert second.get_json()["items"][0]["subject"] == 1 and second.get_json()["items"][0]["period"] != "2019"
    last = client.get("/v1/public-procurement/competition-indices?limit=200", headers=auth)
    assert last.get_json()["next_cursor"] is None and "Link" not in last.headers


def test_link_header_leaves_the_key_out_and_uses_a_configured_base(make_app, make_key, loaded_database):
    app = make_app(PUBLIC_BASE_URL="https://gosterge.example")
    key = make_key(target_app=app)
    response = app.test_client().get(f"{PAGE}&apikey={key}")
    link = next_link(response)
    assert link.startswith("https://gosterge.example/v1/public-procurement/competition-indices?")
    assert key not in link and "apikey" not in link


def test_gzip_for_clients_that_ask(loaded_app, auth):
    client = loaded_app.test_client()
    plain = client.get(PAGE, headers=auth)
    packed = client.get(PAGE, headers={**auth, **GZIP})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    # Two representations, two strong validators (RFC 9110 8.8.3).
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert not packed.headers["ETag"].startswith("W/")


@pytest.mark.parametrize("encoding", [{}, GZIP])
def test_if_none_match_still_gives_a_free_304(loaded_app, make_key, encoding):
    key = make_key(credits=10)
    client = loaded_app.test_client()
    headers = {"Authorization": f"Bearer {key}", **encoding}
    first = client.get(PAGE, headers=headers)
    assert first.headers["X-Credits-Remaining"] == "9"
    again = client.get(PAGE, headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["X-Credits-Remaining"] == "9"


def test_csv_page_for_accept_or_format(loaded_app, auth):
    client = loaded_app.test_client()
    page = client.get(PAGE, headers=auth)
    by_accept = client.get(PAGE, headers={**auth, "Accept": "text/csv"})
    by_format = client.get(f"{PAGE}&format=csv", headers=auth)
    for answer in (by_accept, by_format):
        assert answer.status_code == 200
        assert answer.mimetype == "text/csv"
        rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
        items = page.get_json()["items"]
        assert len(rows) == len(items) == 5
        assert list(rows[0]) == list(items[0])
        assert rows[0]["subjectName"] == items[0]["subjectName"]
        assert answer.headers["X-Next-Cursor"] == page.get_json()["next_cursor"]
        assert next_link(answer) is not None and "cursor=" in next_link(answer)
        assert answer.headers["ETag"] != page.headers["ETag"]
    assert "Accept" in by_accept.headers["Vary"]
    # The CSV page's cursor leads to the same next page.
    cursor = by_format.headers["X-Next-Cursor"]
    assert client.get(f"{PAGE}&format=csv&cursor={cursor}", headers=auth).status_code == 200
    assert client.get(f"{PAGE}&cursor={cursor}", headers=auth).get_json() == client.get(next_link(page), headers=auth).get_json()


def test_csv_amounts_are_the_digits_served(loaded_app, auth):
    client = loaded_app.test_client()
    text = client.get("/v1/public-procurement/province-sectors?limit=3&format=csv", headers=auth).get_data(as_text=True)
    served = json.loads(client.get("/v1/public-procurement/province-sectors?limit=3", headers=auth).get_data(as_text=True),
                        parse_float=str)["items"]
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["amount"] for r in rows] == [i["amount"] for i in served]


def test_csv_flattens_nested_fields_to_json_text():
    from api.transport.csvpages import render_csv

    body = json.dumps({"items": [{"id": "a", "tags": ["x", "y"], "companies": [{"name": "Acme", "ticker": None}],
                                  "section": None, "confident": True, "importance": 3}],
                       "total": 1, "next_cursor": None})
    text = render_csv(body, ["id", "tags", "companies", "section", "confident", "importance", "filingItems"])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["id", "tags", "companies", "section", "confident", "importance", "filingItems"],
                    ["a", '["x","y"]', '[{"name":"Acme","ticker":null}]', "", "true", "3", ""]]


def test_csv_escapes_text_a_spreadsheet_would_run_unless_raw_is_asked_for():
    from api.transport.csvpages import render_csv

    body = json.dumps({"items": [{"name": "=HYPERLINK(\"http://x\")", "note": "-1+2", "n": -3, "tab": "\tx",
                                  "plain": "Ankara"}], "total": 1, "next_cursor": None})
    columns = ["name", "note", "n", "tab", "plain"]
    [_, safe] = list(csv.reader(io.StringIO(render_csv(body, columns))))
    assert safe == ["'=HYPERLINK(\"http://x\")", "'-1+2", "-3", "'\tx", "Ankara"]
    [_, raw] = list(csv.reader(io.StringIO(render_csv(body, columns, safe=False))))
    assert raw == ["=HYPERLINK(\"http://x\")", "-1+2", "-3", "\tx", "Ankara"]


def test_raw_csv_is_asked_for_by_format_and_has_its_own_etag(loaded_app, auth):
    client = loaded_app.test_client()
    safe = client.get(f"{PAGE}&format=csv", headers=auth)
    raw = client.get(f"{PAGE}&format=csv-raw", headers=auth)
    assert raw.status_code == 200 and raw.mimetype == "text/csv"
    assert safe.headers["ETag"] != raw.headers["ETag"]


def test_unknown_format_is_named(loaded_app, auth):
    body = assert_problem(loaded_app.test_client().get(f"{PAGE}&format=xml", headers=auth), 400, "invalid_parameters")
    assert error_parameters(body) == ["format"]


def test_unpaged_lists_take_no_format(loaded_app, auth):
    body = assert_problem(loaded_app.test_client().get("/v1/public-procurement/sectors?format=csv", headers=auth),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["format"]


# Query strings as clients write them: repeated and empty names, percent escapes (valid, invalid, not
# UTF-8), `+`, the key and the cursor among them.
QUERY_PARTS = st.sampled_from(["a", "b", "=", "&", "%2F", "+", "ç", "%C3%A7", "%ZZ", "%FF", ";", "x0",
                               "cursor=", "apikey=", "format", "form%61t=", "&&"])
QUERIES = st.lists(QUERY_PARTS, max_size=10).map("".join).map(lambda q: q.encode().decode("latin-1"))


# Cursors as api/transport/paging.py writes them (base64url without padding), and any other text.
CURSORS = st.one_of(st.text("ABCxyz019-_", min_size=1, max_size=40), st.text(max_size=12))


@settings(max_examples=300, deadline=None)
@given(query=QUERIES, host=st.sampled_from(["localhost", "api.test:9000", "[::1]:8000"]), cursor=CURSORS)
def test_the_next_url_keeps_every_parameter_as_read_but_the_cursor_and_the_key(query, host, cursor):
    """The next page's URL is made once per question and host, not per answer: it must be the URL the
    request's own parameters give, in werkzeug's reading of them, with the cursor encoded as a query
    value."""
    from flask import Flask, request

    from api.transport.pagelinks import next_url

    app = Flask(__name__)
    app.config["PUBLIC_BASE_URL"] = ""
    with app.test_request_context("/v1/x", environ_overrides={"QUERY_STRING": query, "HTTP_HOST": host}):
        kept = [(k, v) for k, v in request.args.items(multi=True) if k not in ("cursor", "apikey")]
        expected = f"{request.url_root.rstrip('/')}/v1/x?{urlencode([*kept, ('cursor', cursor)])}"
        assert next_url(cursor) == expected


@settings(max_examples=300)
@given(query=QUERIES, name=st.sampled_from(["format", "apikey", "cursor"]))
def test_a_query_is_read_for_a_name_whenever_parsing_it_could_find_it(query, name):
    from urllib.parse import parse_qsl

    from api.transport.query import may_name

    if not may_name(query, name):
        assert name not in dict(parse_qsl(query.encode("latin-1").decode(), keep_blank_values=True))


def test_answers_without_gzip_still_vary_on_accept_encoding(loaded_app, auth):
    """A shared cache must not hand a plain answer to a client that takes gzip, nor the reverse."""
    client = loaded_app.test_client()
    plain = client.get(PAGE, headers=auth)
    identity = client.get(PAGE, headers={**auth, "Accept-Encoding": "identity"})
    zipped = client.get(PAGE, headers={**auth, **GZIP})
    for response in (plain, identity, zipped):
        assert response.status_code == 200
        assert [v.strip() for v in response.headers["Vary"].split(",")] == ["Accept", "Accept-Encoding"]
    assert "Content-Encoding" not in plain.headers and "Content-Encoding" not in identity.headers
    assert zipped.headers["Content-Encoding"] == "gzip"


HEADER_SETS = st.lists(st.sampled_from([
    ("X-Total-Count", "10"), ("ETag", '"abc"'), ("Location", "/v1/next"), ("Content-Location", "/v1/here?a=ü"),
    ("Vary", "Accept"), ("Content-Length", "999"), ("Cache-Control", "private"),
]), max_size=5, unique=True)


@settings(max_examples=200)
@given(status=st.sampled_from([100, 200, 201, 202, 204, 206, 301, 304, 400, 402, 404, 429, 500]),
       headers=HEADER_SETS, body=st.one_of(st.none(), st.binary(max_size=20)), streamed=st.booleans())
def test_answers_send_the_headers_werkzeug_would(status, headers, body, streamed):
    """ApiResponse sends its headers without werkzeug's copy only where the copy would change nothing."""
    from flask import Response
    from werkzeug.test import EnvironBuilder

    from api.transport.headers import ApiResponse

    environ = EnvironBuilder(path="/v1/x", base_url="http://api.example/").get_environ()

    def sent(response_class):
        content = iter([body or b""]) if streamed else body
        response = response_class(content, status=status, headers=headers)
        return response.get_wsgi_response(environ)[2]

    assert sent(ApiResponse) == sent(Response)
