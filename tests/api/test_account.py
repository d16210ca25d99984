"""What a caller learns about its own key: /v1/account, X-Credits-Remaining, WWW-Authenticate, and
rate-limit headers that agree with each other."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.helpers import assert_problem

PAID = "/v1/public-procurement/competition-indices?limit=1"
FREE = "/v1/public-procurement/sectors"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.parametrize("apis", [["finance-news"], ["public-procurement"]])
def test_account_describes_the_calling_key(client, make_key, apis):
    expires = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    key = make_key(apis=apis, credits=42, rate="7/minute", expires_at=expires)
    response = client.get("/v1/account", headers=bearer(key))
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body == {"keyId": body["keyId"], "prefix": key[:10], "apis": apis, "credits": 42, "rate": "7/minute",
                    "expiresAt": "2030-01-02T03:04:05Z"}
    assert isinstance(body["keyId"], int)
    # Free: reading it twice leaves the credits as they were.
    assert client.get("/v1/account", headers=bearer(key)).get_json()["credits"] == 42
    assert response.headers["X-RateLimit-Limit"] == "7"


def test_account_needs_a_key(client):
    assert_problem(client.get("/v1/account"), 401, "unauthorized")


def test_account_of_a_key_that_never_expires(client, make_key):
    assert client.get("/v1/account", headers=bearer(make_key())).get_json()["expiresAt"] is None


def test_paid_answers_say_the_credits_left(client, make_key):
    key = make_key(credits=5)
    response = client.get(PAID, headers=bearer(key))
    assert response.status_code == 200
    assert response.headers["X-Credits-Remaining"] == "4"
    again = client.get(PAID, headers={**bearer(key), "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["X-Credits-Remaining"] == "4"  # a 304 is free
    assert "X-Credits-Remaining" not in client.get(FREE, headers=bearer(key)).headers
    assert client.get("/v1/account", headers=bearer(key)).get_json()["credits"] == 4


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer gk_unknown_key_value"},
                                     {"Authorization": "Basic dXNlcjpwYXNz"}])
@pytest.mark.parametrize("path", [FREE, PAID, "/v1/account", "/v1/admin/keys"])
def test_every_401_says_how_to_authenticate(client, headers, path):
    response = client.get(path, headers=headers)
    assert_problem(response, 401, "unauthorized")
    assert re.fullmatch(r'Bearer( .*)?', response.headers["WWW-Authenticate"])


def test_expired_key_401_names_the_bearer_scheme(client, make_key):
    key = make_key(expires_at=datetime.now(UTC) - timedelta(seconds=1))
    response = client.get(FREE, headers=bearer(key))
    assert_problem(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert 'error="invalid_token"' in response.headers["WWW-Authenticate"]


def test_retry_after_and_ratelimit_reset_agree(client, make_key, monkeypatch):
    # Mid-second: the window's end is a whole second, the clock is not.
    monkeypatch.setattr(time, "time", lambda: 1_800_000_000.4)
    key = make_key(rate="1/minute")
    assert client.get(FREE, headers=bearer(key)).status_code == 200
    response = client.get(FREE, headers=bearer(key))
    assert_problem(response, 429, "rate_limited")
    reset = int(re.search(r";t=(\d+)", response.headers["RateLimit"]).group(1))
    assert int(response.headers["Retry-After"]) == reset == response.get_json()["retry_after"]
    assert 1 <= reset <= 60
