"""Hostile and odd input on every string parameter: a 4xx problem or a correct answer, never a 500."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.routes import account, admin, news, parties, procurement, reference
from tests.helpers import assert_problem

NASTY = ["' OR 1=1 --", "\"; DROP TABLE articles; --", "%", "_", "\\", "İĞÜŞÖÇığüşöç", "\u0000", "😀", "a" * 400,
         "-1", "99999999999999999999", "1e308", "NaN", "../../etc/passwd", "<script>alert(1)</script>", " ", ","]
GET_PATHS = [(spec.path, [p.name for p in spec.params])
             for area in (procurement.area, parties.area, reference.area, news.area, account.area, admin.area)
             for spec in area.operations if spec.method == "GET" and "<" not in spec.path and spec.params]


def test_oversized_query_string_is_400(client, auth):
    body = assert_problem(client.get("/v1/public-procurement/sectors?x=" + "a" * 5000, headers=auth), 400,
                          "invalid_parameters")
    assert body["errors"][0]["parameter"] == "query"


def test_oversized_key_header_is_401(client):
    assert_problem(client.get("/v1/public-procurement/sectors", headers={"Authorization": "Bearer " + "k" * 20_000}),
                   401, "unauthorized")


@pytest.mark.slow
def test_oversized_headers_under_gunicorn_are_refused_and_the_server_carries_on(database_url, limiter_storage, auth):
    import requests

    from tests.helpers import Gunicorn

    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage}
    with Gunicorn(env) as server:
        url = f"{server.url}/v1/public-procurement/sectors"
        for headers in ({"X-Padding": "p" * 20_000}, {f"X-H{i}": "v" for i in range(200)},
                        {"Authorization": "Bearer " + "k" * 20_000}):
            refused = requests.get(url, headers=headers, timeout=10)
            assert 400 <= refused.status_code < 500, refused.status_code
        assert requests.get(url, headers=auth, timeout=10).status_code == 200


def test_invalid_utf8_in_query_is_a_problem(client, auth):
    response = client.get("/v1/finance-news/articles?tag=%ff%fe", headers=auth)
    assert response.status_code in (200, 400)
    assert response.status_code == 200 or response.headers["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize(("path", "names"), GET_PATHS, ids=[p for p, _ in GET_PATHS])
def test_nasty_values_never_break_an_endpoint(loaded_app, auth, path, names):
    client = loaded_app.test_client()
    for name in names:
        for value in NASTY:
            response = client.get(f"{path}?{name}={quote(value)}", headers=auth)
            assert response.status_code in (200, 400), (path, name, value, response.status_code)
            if response.status_code == 400:
                assert response.headers["Content-Type"].startswith("application/problem+json")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.text(max_size=60), which=st.sampled_from(GET_PATHS))
def test_random_text_in_any_parameter(loaded_app, auth, value, which):
    path, names = which
    response = loaded_app.test_client().get(f"{path}?{names[0]}={quote(value)}", headers=auth)
    assert response.status_code in (200, 400)


@pytest.mark.parametrize("path", ["/v1/finance-news/articles/fed-%00", "/v1/accounts/%00abc?token=x",
                                  "/v1/accounts/%00abc/decision?token=x&action=approve"])
def test_nul_in_a_path_is_not_found(client, auth, path):
    assert client.get(path, headers=auth).status_code == 404


def test_control_characters_in_a_parameter_are_400(client, auth):
    body = assert_problem(client.get("/v1/finance-news/articles?tag=a%00b", headers=auth), 400, "invalid_parameters")
    assert body["errors"][0]["parameter"] == "tag"


def test_control_characters_in_a_json_field_are_400(make_app):
    response = make_app(TRUSTED_HOSTS="localhost").test_client().post("/v1/accounts", json={"email": "a\u0000@example.com", "apis": ["finance-news"]})
    body = assert_problem(response, 400, "invalid_parameters")
    assert body["errors"][0]["parameter"] == "email"
