"""One declaration, enforced: what an operation declares (query and path parameters, a body) is what the
server parses, in the documented order (401 → 403 → 429 → 400 → 402 → answer), for keyed and public
operations alike; a 400 names every bad parameter, and a paid endpoint's answers all say the credits
left once the key is known."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.operations import app_operations
from tests.helpers import assert_problem, error_parameters

PAID = "/v1/finance-news/articles"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_polling_without_its_token_is_a_400_naming_it(client):
    body = assert_problem(client.get("/v1/accounts/abc"), 400, "invalid_parameters")
    assert error_parameters(body) == ["token"]


@pytest.mark.parametrize("token", ["a" * 65, "a.b", "%C4%B0"])
def test_a_token_outside_its_documented_form_is_a_400_naming_it(client, token):
    body = assert_problem(client.get(f"/v1/accounts/abc?token={token}"), 400, "invalid_parameters")
    assert error_parameters(body) == ["token"]


@pytest.mark.parametrize("path", ["/v1/health", "/v1/openapi.json", "/v1/docs", "/v1/accounts/abc?token=x"])
def test_public_operations_refuse_unknown_parameters_by_name(client, path):
    separator = "&" if "?" in path else "?"
    body = assert_problem(client.get(f"{path}{separator}bogus=1"), 400, "invalid_parameters")
    assert error_parameters(body) == ["bogus"]


def test_the_sign_up_refuses_an_unknown_query_parameter_and_a_bad_field_in_one_answer(client):
    response = client.post("/v1/accounts?bogus=1", json={"email": "owner@example.com", "apis": ["nope"]})
    body = assert_problem(response, 400, "invalid_parameters")
    assert sorted(error_parameters(body)) == ["apis", "bogus"]


def test_the_decision_page_answers_a_bad_link_as_a_page(client):
    response = client.get("/v1/accounts/abc/decision?token=x&action=approve&bogus=1")
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert "bogus" in response.get_data(as_text=True)
    missing = client.get("/v1/accounts/abc/decision?token=x")
    assert missing.status_code == 400 and missing.mimetype == "text/html" and "action" in missing.get_data(as_text=True)
    malformed = client.get("/v1/accounts/a.b/decision?token=x&action=approve")
    assert malformed.status_code == 404 and malformed.mimetype == "text/html"


MALFORMED_IDS = [("POST", "/v1/admin/keys/abc/revoke"), ("POST", "/v1/admin/keys/99999999999/credits"),
                 ("POST", "/v1/admin/releases/-1/activate"), ("GET", "/v1/admin/releases/uploads/a.b"),
                 ("GET", "/v1/finance-news/articles/not-an-id"),
                 ("GET", "/v1/public-procurement/authorities/%20leading-space")]


@pytest.mark.parametrize(("method", "path"), MALFORMED_IDS)
def test_a_malformed_path_id_is_401_without_a_key_and_404_with_one(client, make_key, method, path):
    assert_problem(client.open(path, method=method), 401, "unauthorized")
    key = make_key(is_admin=True, apis=("finance-news", "public-procurement"))
    assert_problem(client.open(path, method=method, headers=bearer(key), json={"credits": 1}), 404, "not_found")


def test_a_malformed_path_id_is_checked_after_the_rate_limit(client, make_key):
    key = make_key(is_admin=True, rate="1/minute")
    assert_problem(client.post("/v1/admin/keys/abc/revoke", headers=bearer(key)), 404, "not_found")
    assert_problem(client.post("/v1/admin/keys/abc/revoke", headers=bearer(key)), 429, "rate_limited")


def test_a_400_names_every_bad_parameter_release_bound_ones_included(loaded_app, auth):
    client = loaded_app.test_client()
    body = assert_problem(client.get("/v1/public-procurement/awards?period=1999&sort=x", headers=auth), 400,
                          "invalid_parameters")
    assert sorted(error_parameters(body)) == ["period", "sort"]
    body = assert_problem(client.get("/v1/public-procurement/competition-indices?dimension=province&subject=zz"
                                     "&period=1999&limit=0", headers=auth), 400, "invalid_parameters")
    assert sorted(error_parameters(body)) == ["limit", "period", "subject"]


def test_a_bad_scope_parameter_is_named_once_not_blamed_on_its_neighbours(loaded_app, auth):
    client = loaded_app.test_client()
    body = assert_problem(client.get("/v1/public-procurement/competition-indices?dimension=nope&subject=06",
                                     headers=auth), 400, "invalid_parameters")
    assert error_parameters(body) == ["dimension"]


@pytest.mark.parametrize(("path", "status"), [(f"{PAID}?bogus=1", 400), (f"{PAID}/fed-0000000000000000", 404),
                                              (f"{PAID}/malformed", 404)])
def test_every_answer_of_a_paid_endpoint_that_knew_the_key_says_the_credits_left(client, make_key, path, status):
    key = make_key(credits=7)
    response = client.get(path, headers=bearer(key))
    assert response.status_code == status
    assert response.headers["X-Credits-Remaining"] == "7"
    assert "X-Credits-Remaining" not in client.get(path).headers  # a 401 knew no key


def test_the_document_lists_the_credits_header_on_a_paid_endpoints_problems(client):
    document = client.get("/v1/openapi.json").get_json()
    responses = document["paths"]["/v1/finance-news/articles/{id}"]["get"]["responses"]
    for status in ("400", "402", "403", "404", "429"):
        assert "X-Credits-Remaining" in responses[status]["headers"], status
    assert "X-Credits-Remaining" not in responses["401"].get("headers", {})


def _path_params(app):
    return [(op.operation_id, p) for op in app_operations(app) for p in op.path_params]


# Path parameters whose values are resolved against the release served (a file listed by /downloads).
NAMED_BY_THE_DATA = {"name"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_path_parameter_takes_exactly_what_its_documented_schema_says(app, data):
    """What the document says of a path parameter is what the server takes: a value of its pattern (or
    a whole number within its bounds) is parsed, anything else names nothing. A release file's name
    also has to be a file of the release served: of its pattern, only what is outside names nothing."""
    with app.test_request_context():
        for _, param in _path_params(app):
            schema = param.document_schema()
            if schema["type"] == "integer":
                value = str(data.draw(st.integers(schema["minimum"], schema["maximum"])))
                outside = str(data.draw(st.sampled_from([schema["minimum"] - 1, schema["maximum"] + 1])))
            else:
                pattern = schema["pattern"]
                value = data.draw(st.from_regex(pattern, fullmatch=True))
                outside = data.draw(st.text(max_size=40).filter(lambda t, p=pattern: not re.fullmatch(p, t)))
            if param.name not in NAMED_BY_THE_DATA:
                param.parse(value)
            with pytest.raises(ValueError):
                param.parse(outside)


def test_every_json_body_is_documented_from_the_fields_that_parse_it(app):
    with app.app_context():
        for operation in app_operations(app):
            if operation.body:
                schema = operation.request_body["content"]["application/json"]["schema"]
                assert list(schema["properties"]) == [f.name for f in operation.body]
                assert schema["required"] == [f.name for f in operation.body if f.required]
