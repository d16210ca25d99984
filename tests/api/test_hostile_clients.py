"""What an attacker and a careless client tried: each is a clear problem now."""

from __future__ import annotations

import base64
import hashlib
import json
import logging

import pytest

from api.transport.paging import MAC_BYTES
from store.db import session_scope
from store.keys import find_key
from tests.api.test_news_api import news  # noqa: F401  (fixture)
from tests.helpers import assert_problem, error_parameters

BASE = "/v1/public-procurement"
PAID = f"{BASE}/competition-indices"
FREE = f"{BASE}/sectors"
ARTICLES = "/v1/finance-news/articles"


@pytest.fixture
def signup_client(make_app):
    """A client of a server that takes sign-ups: it knows the host names it answers to."""
    return make_app(TRUSTED_HOSTS="localhost").test_client()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def credits_of(app, key: str) -> int:  # noqa: ANN001
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        return find_key(session, key).credits


def unsigned_cursor(position, filters_digest: str) -> str:  # noqa: ANN001
    """A cursor as the first version made them: a SHA-256 checksum anyone can compute."""
    payload = json.dumps({"p": position, "f": filters_digest}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(hashlib.sha256(payload).digest()[:8] + payload).decode().rstrip("=")


def digest_of(cursor: str) -> str:
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    # After the signature: searching for the first `{` fails when the signature holds that byte.
    return json.loads(raw[MAC_BYTES:])["f"]


# Cursors.
def test_forged_cursor_positions_are_400_on_cursor(loaded_app, auth):
    client = loaded_app.test_client()
    real = client.get(f"{PAID}?limit=2", headers=auth).get_json()["next_cursor"]
    for position in ([1, 10**20], [1, -1], [10**20, 5], [1, "5"]):
        forged = unsigned_cursor(position, digest_of(real))
        body = assert_problem(client.get(f"{PAID}?limit=2&cursor={forged}", headers=auth), 400, "invalid_parameters")
        assert error_parameters(body) == ["cursor"]


def test_a_cursor_works_only_on_its_own_endpoint(loaded_app, auth):
    client = loaded_app.test_client()
    cursor = client.get(f"{PAID}?limit=2", headers=auth).get_json()["next_cursor"]
    assert client.get(f"{PAID}?limit=2&cursor={cursor}", headers=auth).status_code == 200
    body = assert_problem(client.get(f"{BASE}/concentration-indices?limit=2&cursor={cursor}", headers=auth), 400,
                          "invalid_parameters")
    assert error_parameters(body) == ["cursor"]


def test_news_cursor_with_a_nul_is_400(news, app, auth):  # noqa: F811
    client = app.test_client()
    real = client.get(f"{ARTICLES}?limit=2", headers=auth).get_json()["next_cursor"]
    forged = unsigned_cursor("2026-01-01T00:00:00Z|\u0000fed-00", digest_of(real))
    assert_problem(client.get(f"{ARTICLES}?limit=2&cursor={forged}", headers=auth), 400, "invalid_parameters")


def test_workers_sharing_a_store_agree_on_the_cursor_key(loaded_app, make_app, make_key, auth):
    cursor = loaded_app.test_client().get(f"{PAID}?limit=2", headers=auth).get_json()["next_cursor"]
    other = make_app()  # another worker on the same store, no key configured: the stored one is used
    assert other.test_client().get(f"{PAID}?limit=2&cursor={cursor}", headers=auth).status_code == 200
    configured = make_app(CURSOR_SECRET="another-secret-of-enough-length")
    assert_problem(configured.test_client().get(f"{PAID}?limit=2&cursor={cursor}", headers=auth), 400,
                   "invalid_parameters")


# Input at the edges.
@pytest.mark.parametrize("query", ["since=9999-12-31T23:59:59.5Z", "since=0001-01-01T00:00:00%2B14:00",
                                   "until=9999-12-31", "until=0001-01-01T00:00:00%2B14:00"])
def test_times_at_the_calendar_edges_are_400(news, app, auth, query):  # noqa: F811
    body = assert_problem(app.test_client().get(f"{ARTICLES}?{query}", headers=auth), 400, "invalid_parameters")
    assert error_parameters(body) == [query.split("=")[0]]


@pytest.mark.parametrize("period", ["²", "02020", "２０２０", "٢٠٢٠", "0202"])
def test_periods_outside_the_documented_pattern_are_400_and_free(loaded_app, make_key, period):
    key = make_key(credits=5)
    from urllib.parse import quote

    body = assert_problem(loaded_app.test_client().get(f"{PAID}?period={quote(period)}", headers=bearer(key)), 400,
                          "invalid_parameters")
    assert error_parameters(body) == ["period"]
    assert credits_of(loaded_app, key) == 5


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, '{"email": ' + "9" * 5000 + "}"])
def test_json_bodies_too_deep_or_too_long_a_number_are_400(signup_client, body):
    assert_problem(signup_client.post("/v1/accounts", data=body, content_type="application/json"), 400,
                   "invalid_parameters")


@pytest.mark.parametrize("path", ["/v1/admin/keys/99999999999999999999999/revoke",
                                  "/v1/admin/releases/99999999999999999999999/activate"])
def test_ids_beyond_64_bits_in_admin_paths_are_404(client, make_key, path):
    assert_problem(client.post(path, headers=bearer(make_key(is_admin=True))), 404, "not_found")


# HEAD is safe.
def test_head_on_a_paid_endpoint_costs_nothing(loaded_app, make_key):
    key = make_key(credits=3)
    response = loaded_app.test_client().head(PAID, headers=bearer(key))
    assert response.status_code == 200 and response.get_data() == b""
    assert credits_of(loaded_app, key) == 3


def test_a_free_head_tells_neither_the_total_nor_the_next_page(loaded_app, make_key):
    response = loaded_app.test_client().head(f"{PAID}&limit=1" if "?" in PAID else f"{PAID}?limit=1",
                                             headers=bearer(make_key()))
    assert response.status_code == 200
    assert not {"X-Total-Count", "X-Next-Cursor", "Link"} & set(response.headers.keys())


def test_a_free_head_carries_nothing_that_depends_on_the_body(loaded_app, make_key):
    """Over real HTTP: a HEAD of a paid operation tells no length, no body-derived ETag and no
    compression (each of which would measure the paid body), whatever the query matches; it ignores
    If-None-Match (a 304 would confirm a guessed body); and it costs nothing."""
    import requests

    from tests.helpers import LiveServer

    key = make_key(credits=5)
    headers = {**bearer(key), "Accept-Encoding": "gzip"}
    varying = ("Date", "X-Request-Id", "RateLimit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
    with LiveServer(loaded_app) as server:
        etag = requests.get(f"{server.url}{PAID}?limit=1", headers=headers, timeout=10).headers["ETag"]
        shown = []
        for query in ("?limit=1", "?limit=100", "?dimension=province&limit=100", "?dimension=procedure&limit=3"):
            head = requests.head(f"{server.url}{PAID}{query}", headers=headers, timeout=10)
            assert head.status_code == 200 and head.content == b""
            assert not {"Content-Length", "ETag", "Content-Encoding"} & set(head.headers), dict(head.headers)
            shown.append({k: v for k, v in head.headers.items() if k not in varying})
        assert all(headers_shown == shown[0] for headers_shown in shown), shown
        guessed = requests.head(f"{server.url}{PAID}?limit=1", headers={**headers, "If-None-Match": etag}, timeout=10)
        assert guessed.status_code == 200 and "ETag" not in guessed.headers
        free = requests.head(f"{server.url}{FREE}", headers=headers, timeout=10)
        assert "ETag" in free.headers  # a free operation's HEAD keeps its validator: the GET costs nothing either
    assert credits_of(loaded_app, key) == 4


@pytest.mark.parametrize("header", ["gzip;q=0", "gzip;q=0.0, identity", "*;q=0", "identity"])
def test_gzip_refused_by_the_client_is_not_sent(loaded_app, auth, header):
    response = loaded_app.test_client().get(PAID, headers={**auth, "Accept-Encoding": header})
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert not response.headers["ETag"].endswith(':gzip"')
    again = loaded_app.test_client().get(PAID, headers={**auth, "Accept-Encoding": "gzip;q=0.5, br"})
    assert again.headers["Content-Encoding"] == "gzip"


# Answers that were not problem documents.
def test_options_is_a_problem_with_allow(client, auth):
    response = client.options(FREE, headers=auth)
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


# Headers.
def test_keyed_answers_are_private_and_never_sniffed(loaded_app, auth):
    client = loaded_app.test_client()
    data = client.get(PAID, headers=auth)
    assert data.headers["Cache-Control"] == "private"
    for response in (data, client.get("/v1/openapi.json"), client.get("/v1/nothing"), client.get(FREE)):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_admin_key_creation_is_never_stored(client, make_key):
    created = client.post("/v1/admin/keys", headers=bearer(make_key(is_admin=True)),
                          json={"apis": ["finance-news"], "credits": 1})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"


# Keys in the access log.
@pytest.mark.parametrize("where", ["{path}?api_key={key}", "{path}?key={key}", "/v1/finance-news/articles/{key}",
                                   "{path}?tag=x{key}"])
def test_anything_shaped_like_a_key_is_redacted_from_the_access_log(client, make_key, caplog, where):
    key = make_key()
    with caplog.at_level(logging.INFO, logger="gosterge.access"):
        client.get(where.format(path=ARTICLES, key=key))
    assert caplog.records and key not in caplog.text and key[3:20] not in caplog.text


# Unkeyed requests and the rates an admin may set.
def test_requests_without_a_known_key_get_the_default_rate_per_address(make_app):
    client = make_app(DEFAULT_RATE="3/minute").test_client()
    statuses = [client.get(FREE, headers=bearer("gk_unknown")).status_code for _ in range(3)]
    statuses += [client.get(FREE).status_code for _ in range(2)]
    assert statuses == [401, 401, 401, 429, 429]


@pytest.mark.parametrize("rate", ["0/minute", "1/99999999999 years", "1/year", "10000000001/second"])
def test_admin_rates_beyond_sane_bounds_are_400(client, make_key, rate):
    body = assert_problem(client.post("/v1/admin/keys", headers=bearer(make_key(is_admin=True)),
                                      json={"apis": ["finance-news"], "credits": 1, "rate": rate}),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["rate"]


# If-None-Match: * and 304s that read the store.
def test_star_304s_count_against_the_rate_limit(loaded_app, make_key):
    client = loaded_app.test_client()
    key = make_key(rate="3/minute")
    assert client.get(PAID, headers=bearer(key)).status_code == 200
    assert client.get(PAID, headers={**bearer(key), "If-None-Match": "*"}).status_code == 304
    assert client.get(PAID, headers={**bearer(key), "If-None-Match": "*"}).status_code == 304
    assert_problem(client.get(PAID, headers={**bearer(key), "If-None-Match": "*"}), 429, "rate_limited")


def test_304s_that_read_the_store_count_against_the_rate_limit(make_app, make_key, loaded_database):
    app = make_app(ANSWER_CACHE_BYTES=0)
    client = app.test_client()
    key = make_key(rate="2/minute", target_app=app)
    etag = client.get(PAID, headers=bearer(key)).headers["ETag"]
    assert client.get(PAID, headers={**bearer(key), "If-None-Match": etag}).status_code == 304
    assert_problem(client.get(PAID, headers={**bearer(key), "If-None-Match": etag}), 429, "rate_limited")


# Conditional requests have a rate of their own.
def test_a_flood_of_conditional_requests_is_refused_but_revalidation_is_not(loaded_app, make_key):
    """On a 30/minute key, 1,000 If-None-Match: the first 300 (ten times the key's rate) are free 304s;
    past them a 304 counts like any request, so the key's own 30 end the flood with 429s. None costs
    a credit."""
    from api.limits import CONDITIONAL_MULTIPLE

    client = loaded_app.test_client()
    key = make_key(rate="30/minute", credits=10)
    etag = client.get(PAID, headers=bearer(key)).headers["ETag"]
    statuses = [client.get(PAID, headers={**bearer(key), "If-None-Match": etag}).status_code for _ in range(1000)]
    free = CONDITIONAL_MULTIPLE * 30
    assert CONDITIONAL_MULTIPLE == 10
    assert statuses == [304] * free + [304] * 29 + [429] * (1000 - free - 29)
    assert credits_of(loaded_app, key) == 9


def test_a_client_revalidating_its_pages_is_never_refused(loaded_app, make_key):
    """A page fetched once and revalidated thirty times (ten times the key's rate) on a 3/minute key:
    every revalidation is a free 304, and the key's rate is still there for two more answers."""
    client = loaded_app.test_client()
    key = make_key(rate="3/minute")
    etag = client.get(PAID, headers=bearer(key)).headers["ETag"]
    revalidated = [client.get(PAID, headers={**bearer(key), "If-None-Match": etag}).status_code for _ in range(30)]
    assert revalidated == [304] * 30
    assert [client.get(f"{PAID}?limit={n}", headers=bearer(key)).status_code for n in (2, 3)] == [200, 200]
    assert_problem(client.get(PAID, headers=bearer(key)), 429, "rate_limited")


def test_if_none_match_lists_a_bounded_number_of_etags(loaded_app, auth):
    from api.transport.conditional import MAX_ETAGS

    client = loaded_app.test_client()
    etag = client.get(PAID, headers=auth).headers["ETag"]
    guesses = [f'"guess{n}"' for n in range(MAX_ETAGS - 1)]
    assert client.get(PAID, headers={**auth, "If-None-Match": ", ".join([*guesses, etag])}).status_code == 304
    body = assert_problem(client.get(PAID, headers={**auth, "If-None-Match": ", ".join([*guesses, '"x"', etag])}),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["If-None-Match"] and str(MAX_ETAGS) in body["errors"][0]["message"]


# Bodies no larger than each route needs.
def test_large_bodies_are_refused_where_none_is_needed(signup_client):
    big_form = {"token": "t" * 200_000, "action": "approve"}
    assert_problem(signup_client.post("/v1/accounts/abc/decision", data=big_form), 413, "payload_too_large")
    big_json = '{"email": "a@example.com", "apis": ["finance-news"], "pad": "' + "x" * 1_000_000 + '"}'
    assert_problem(signup_client.post("/v1/accounts", data=big_json, content_type="application/json"), 413,
                   "payload_too_large")


def test_the_decision_page_is_rate_limited_per_address(make_app):
    client = make_app(DECISION_RATE_PER_ADDRESS="3/hour").test_client()
    statuses = [client.post("/v1/accounts/abc/decision", data={"token": "x", "action": "approve"}).status_code
                for _ in range(5)]
    assert statuses == [404, 404, 404, 429, 429]


@pytest.mark.parametrize("label", ["invoice\u202etxt.exe", "two\u2028lines", "para\u2029graph", "iso\u2066late",
                                   "ad\u200bmin", "\ufeffadmin", "ad\u00admin", "ad\u034fmin", "ad\u180emin",
                                   "ad\u2060min", "tag\U000e0041", "ad\u3164min"])
def test_key_labels_refuse_bidi_controls_line_separators_and_invisible_characters(client, make_key, label):
    """A label that reads like another ("admin" with a zero-width space in it) is refused, and the
    problem names the character."""
    body = assert_problem(client.post("/v1/admin/keys", headers=bearer(make_key(is_admin=True)),
                                      json={"apis": ["finance-news"], "credits": 1, "label": label}),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["label"]
    assert "U+" in body["errors"][0]["message"]


def test_key_labels_keep_turkish_and_other_visible_text(client, make_key):
    label = "Bakanlık — ğüşıöç İĞÜŞÖÇ · 日本 · مرحبا"
    created = client.post("/v1/admin/keys", headers=bearer(make_key(is_admin=True)),
                          json={"apis": ["finance-news"], "credits": 1, "label": label})
    assert created.status_code == 201 and created.get_json()["label"] == label


@pytest.mark.parametrize("upload_id", ["abc%00def", "%00", "a" * 33, "a.b"])
def test_upload_ids_of_characters_no_id_has_are_404(client, make_key, upload_id):
    assert_problem(client.get(f"/v1/admin/releases/uploads/{upload_id}", headers=bearer(make_key(is_admin=True))),
                   404, "not_found")


def test_a_402_says_the_credits_left(loaded_app, make_key):
    key = make_key(credits=0)
    response = loaded_app.test_client().get(PAID, headers=bearer(key))
    assert_problem(response, 402, "payment_required")
    assert response.headers["X-Credits-Remaining"] == "0"
