"""The shared behaviour of every keyed endpoint: order of checks, problems, credits, limits, ETags."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from store.db import session_scope
from store.keys import get_key, revoke_key
from tests.helpers import assert_problem, error_parameters

PAID = "/v1/public-procurement/competition-indices"
FREE = "/v1/public-procurement/sectors"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def credits_of(app, key_id: int) -> int:
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        return get_key(session, key_id).credits


def test_missing_key_is_401(client):
    assert_problem(client.get(PAID), 401, "unauthorized")


def test_unknown_key_is_401(client):
    assert_problem(client.get(PAID, headers=bearer("gk_nope")), 401, "unauthorized")


def test_malformed_authorization_header_is_401(client):
    assert_problem(client.get(PAID, headers={"Authorization": "Basic abc"}), 401, "unauthorized")


def test_expired_key_is_401(client, make_key):
    key = make_key(expires_at=datetime.now(UTC) - timedelta(seconds=1))
    body = assert_problem(client.get(PAID, headers=bearer(key)), 401, "unauthorized")
    assert "expired" in body["detail"]


def test_revoked_key_is_401(app, client, make_key):
    key = make_key()
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        revoke_key(session, 1, now=datetime.now(UTC))
    assert_problem(client.get(PAID, headers=bearer(key)), 401, "unauthorized")


def test_key_in_query_parameter_is_accepted(client, make_key):
    assert client.get(f"{FREE}?apikey={make_key()}").status_code == 200


def test_two_different_keys_are_refused(client, make_key):
    first, second = make_key(), make_key()
    assert_problem(client.get(f"{FREE}?apikey={first}", headers=bearer(second)), 401, "unauthorized")


def test_same_key_twice_is_fine(client, make_key):
    key = make_key()
    assert client.get(f"{FREE}?apikey={key}", headers=bearer(key)).status_code == 200


def test_key_for_other_api_is_403(client, make_key):
    key = make_key(apis=["finance-news"])
    assert_problem(client.get(PAID, headers=bearer(key)), 403, "forbidden")


def test_forbidden_comes_before_rate_limit_and_parameters(client, make_key):
    key = make_key(apis=["finance-news"], rate="1/minute")
    for _ in range(3):
        assert_problem(client.get(f"{PAID}?limit=0", headers=bearer(key)), 403, "forbidden")


def test_rate_limit_gives_429_with_retry_after(client, make_key):
    key = make_key(rate="2/minute")
    for _ in range(2):
        assert client.get(FREE, headers=bearer(key)).status_code == 200
    response = client.get(FREE, headers=bearer(key))
    body = assert_problem(response, 429, "rate_limited")
    assert body["retry_after"] >= 1
    assert response.headers["Retry-After"] == str(body["retry_after"])
    assert body["upgrade_url"] == "https://pricing.test"
    assert response.headers["X-RateLimit-Remaining"] == "0"


def test_rate_limit_comes_before_parameter_validation(client, make_key):
    key = make_key(rate="1/minute")
    assert client.get(f"{PAID}?limit=0", headers=bearer(key)).status_code == 400
    assert_problem(client.get(f"{PAID}?limit=0", headers=bearer(key)), 429, "rate_limited")


def test_rate_limit_headers_on_every_keyed_answer(client, make_key):
    key = make_key(rate="5/minute")
    for url in (FREE, f"{PAID}?limit=0"):
        response = client.get(url, headers=bearer(key))
        for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"):
            assert name in response.headers, (url, name)
    assert response.headers["X-RateLimit-Limit"] == "5"
    assert response.headers["X-RateLimit-Remaining"] == "3"
    assert response.headers["RateLimit-Policy"] == '"default";q=5;w=60'
    assert int(response.headers["X-RateLimit-Reset"]) > datetime.now(UTC).timestamp()


def test_keys_have_separate_rate_limits(client, make_key):
    first, second = make_key(rate="1/minute"), make_key(rate="1/minute")
    assert client.get(FREE, headers=bearer(first)).status_code == 200
    assert client.get(FREE, headers=bearer(second)).status_code == 200
    assert client.get(FREE, headers=bearer(first)).status_code == 429


def test_invalid_parameters_are_all_listed(client, auth):
    body = assert_problem(client.get(f"{PAID}?limit=0&dimension=planet&period=1990", headers=auth), 400,
                          "invalid_parameters")
    # Every bad one, the year the release does not cover included.
    assert set(error_parameters(body)) == {"limit", "dimension", "period"}
    assert all(e["message"] for e in body["errors"])


def test_unknown_and_repeated_parameters_are_400(client, auth):
    body = assert_problem(client.get(f"{PAID}?colour=red&limit=1&limit=2", headers=auth), 400, "invalid_parameters")
    assert set(error_parameters(body)) == {"colour", "limit"}


def test_parameters_are_checked_before_credits(client, make_key):
    key = make_key(credits=0)
    assert_problem(client.get(f"{PAID}?limit=500", headers=bearer(key)), 400, "invalid_parameters")
    body = assert_problem(client.get(PAID, headers=bearer(key)), 402, "payment_required")
    assert body["credits_required"] == 1
    assert body["upgrade_url"] == "https://pricing.test"


def test_only_a_200_of_a_paid_endpoint_costs(loaded_app, make_key):
    client = loaded_app.test_client()
    key = make_key(credits=3)
    assert client.get(FREE, headers=bearer(key)).status_code == 200
    assert client.get(f"{PAID}?limit=999", headers=bearer(key)).status_code == 400
    first = client.get(PAID, headers=bearer(key))
    assert first.status_code == 200
    assert credits_of(loaded_app, 1) == 2
    again = client.get(PAID, headers={**bearer(key), "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert credits_of(loaded_app, 1) == 2


def test_304_does_not_count_against_the_rate_limit(loaded_app, make_key):
    client = loaded_app.test_client()
    key = make_key(rate="2/minute")
    etag = client.get(PAID, headers=bearer(key)).headers["ETag"]
    for _ in range(5):
        assert client.get(PAID, headers={**bearer(key), "If-None-Match": etag}).status_code == 304
    assert client.get(PAID, headers=bearer(key)).status_code == 200
    assert client.get(PAID, headers=bearer(key)).status_code == 429


@pytest.mark.parametrize("header", ['"nomatch", {etag}', "*", "W/{etag}"])
def test_if_none_match_lists_star_and_weak_forms(loaded_app, auth, header):
    client = loaded_app.test_client()
    etag = client.get(PAID, headers=auth).headers["ETag"]
    response = client.get(PAID, headers={**auth, "If-None-Match": header.format(etag=etag)})
    assert response.status_code == 304


def test_etag_is_strong_and_differs_by_query(loaded_app, auth):
    client = loaded_app.test_client()
    a = client.get(PAID, headers=auth).headers["ETag"]
    b = client.get(f"{PAID}?limit=3", headers=auth).headers["ETag"]
    assert not a.startswith("W/") and a != b


def test_unknown_path_and_wrong_method_are_problems(client, auth):
    assert_problem(client.get("/v1/nothing-here", headers=auth), 404, "not_found")
    response = client.post(FREE, headers=auth)
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_a_400_werkzeug_raises_lists_its_error_as_every_400_does(make_app):
    from werkzeug.exceptions import BadRequest

    app = make_app()

    def refuse():
        raise BadRequest("The browser (or proxy) sent a request that this server could not understand.")

    app.add_url_rule("/v1/refuse", view_func=refuse)
    body = assert_problem(app.test_client().get("/v1/refuse"), 400, "invalid_parameters")
    assert error_parameters(body) == ["body"]


def test_unexpected_error_is_500_problem_without_stack_trace(make_app, make_key, monkeypatch):
    from api.routes import reference

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(reference, "sectors", explode)
    app = make_app()
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.testing = False
    response = app.test_client().get(FREE, headers=bearer(make_key(target_app=app)))
    body = assert_problem(response, 500, "internal_error")
    assert "secret internals" not in response.get_data(as_text=True)
    assert response.headers["X-Request-Id"] in body["detail"]


def test_access_log_has_key_id_and_redacts_apikey(client, make_key, caplog):
    key = make_key()
    with caplog.at_level(logging.INFO, logger="gosterge.access"):
        client.get(f"{FREE}?apikey={key}")
    records = [json.loads(r.getMessage()) for r in caplog.records if r.name == "gosterge.access"]
    assert records and records[-1]["key_id"] == 1
    assert "apikey=REDACTED" in records[-1]["query"]
    assert key not in caplog.text


def test_access_log_is_written_under_a_server_without_logging_set_up(tmp_path):
    # gunicorn configures only its own loggers; the access log must still reach standard error.
    script = (
        "from api import create_app\n"
        "from store.schema import upgrade\n"
        f"app = create_app({{'DATABASE_URL': 'sqlite:///{tmp_path}/x.db'}})\n"
        "upgrade(app.extensions['gosterge.engine'])\n"
        "app.test_client().get('/v1/public-procurement/sectors?apikey=secret')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    [line] = [json.loads(x) for x in done.stderr.splitlines() if x.startswith("{")]
    assert line["path"] == "/v1/public-procurement/sectors" and line["status"] == 401
    assert "secret" not in done.stderr


def test_keys_are_stored_hashed(app, make_key):
    key = make_key()
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        row = get_key(session, 1)
        assert row.key_hash != key and key not in (row.key_hash, row.prefix, row.label)


def test_access_log_lines_escape_line_separators_and_refuse_key_shaped_request_ids(client, make_key, caplog):
    key = make_key()
    with caplog.at_level(logging.INFO, logger="gosterge.access"):
        answer = client.get(f"{FREE}/x\u2028y", headers={"X-Request-Id": key})
    [line] = [r.getMessage() for r in caplog.records if r.name == "gosterge.access"]
    assert "\u2028" not in line and "\\u2028" in line and json.loads(line)["path"].endswith("x\u2028y")
    assert key not in answer.headers["X-Request-Id"] and key not in line
