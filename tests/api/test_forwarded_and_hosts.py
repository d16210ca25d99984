"""Which scheme, host and port the service believes: under gunicorn.conf.py no forwarded header
is believed unless GOSTERGE_TRUSTED_PROXIES counts a proxy, and GOSTERGE_TRUSTED_HOSTS admits a port
only when an entry names it (an entry without a port admits its host on any)."""

from __future__ import annotations

import pytest
import requests
from hypothesis import given
from hypothesis import strategies as st

from api.transport.urls import port_is_trusted
from tests.helpers import PROBLEM_BASE, Gunicorn, assert_problem


def servers_url(response) -> str:  # noqa: ANN001
    body = response.json() if callable(response.json) else response.json  # requests' or Flask's test client's
    return body["servers"][0]["url"]


@pytest.mark.slow
def test_gunicorn_believes_no_forwarded_scheme_without_trusted_proxies(app, database_url, limiter_storage):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage,
           "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE, "GOSTERGE_TRUSTED_PROXIES": "0"}
    with Gunicorn(env) as server:
        forged = {"X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl"}
        answer = requests.get(server.url + "/v1/openapi.json", headers=forged, timeout=10)
    assert servers_url(answer) == server.url  # http://127.0.0.1:port, not https://


@pytest.mark.slow
def test_gunicorn_leaves_the_forwarded_scheme_to_the_counted_proxy(app, database_url, limiter_storage):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage,
           "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE, "GOSTERGE_TRUSTED_PROXIES": "1"}
    with Gunicorn(env) as server:
        answer = requests.get(server.url + "/v1/openapi.json", headers={"X-Forwarded-Proto": "https"}, timeout=10)
    assert servers_url(answer).startswith("https://")


def test_a_trusted_host_on_another_port_is_refused(make_app):
    client = make_app(TRUSTED_HOSTS="127.0.0.1:8000, gosterge.example").test_client()
    assert servers_url(client.get("/v1/openapi.json", headers={"Host": "127.0.0.1:8000"})) == "http://127.0.0.1:8000"
    problem = assert_problem(client.get("/v1/openapi.json", headers={"Host": "127.0.0.1:9999"}), 400,
                             "invalid_parameters")
    assert problem["errors"][0]["parameter"] == "Host"
    assert_problem(client.get("/v1/openapi.json", headers={"Host": "127.0.0.1"}), 400, "invalid_parameters")
    # An entry without a port names the host on any port.
    assert client.get("/v1/openapi.json", headers={"Host": "gosterge.example"}).status_code == 200
    assert client.get("/v1/openapi.json", headers={"Host": "gosterge.example:8080"}).status_code == 200


@given(port=st.integers(1, 65535), configured=st.integers(1, 65535), scheme=st.sampled_from(["http", "https"]))
def test_a_port_is_admitted_only_where_an_entry_names_it(port, configured, scheme):
    assert port_is_trusted(f"api.test:{port}", scheme, [f"api.test:{configured}"]) == (port == configured)
    assert port_is_trusted(f"api.test:{port}", scheme, ["api.test"])
    assert port_is_trusted(f"[::1]:{port}", scheme, [f"[::1]:{configured}"]) == (port == configured)
