"""Absolute URLs follow the request; X-Forwarded-* counts only behind trusted proxies; a configured
GOSTERGE_PUBLIC_BASE_URL wins."""

from __future__ import annotations

import pytest

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "api.example.org", "X-Forwarded-For": "203.0.113.9"}


def servers(app, headers=None, base_url="http://localhost:9000"):  # noqa: ANN001
    document = app.test_client().get("/v1/openapi.json", headers=headers or {}, base_url=base_url).get_json()
    return [{"url": server["url"]} for server in document["servers"]]


def test_without_a_base_url_the_request_host_is_used(make_app):
    app = make_app(PUBLIC_BASE_URL="")
    assert servers(app) == [{"url": "http://localhost:9000"}]


def test_forwarded_headers_are_ignored_unless_proxies_are_trusted(make_app):
    app = make_app(PUBLIC_BASE_URL="")
    assert servers(app, FORWARDED) == [{"url": "http://localhost:9000"}]


def test_forwarded_headers_of_a_trusted_proxy_are_honoured(make_app):
    app = make_app(PUBLIC_BASE_URL="", TRUSTED_PROXIES=1)
    assert servers(app, FORWARDED) == [{"url": "https://api.example.org"}]


def test_a_configured_base_url_wins(make_app):
    app = make_app(PUBLIC_BASE_URL="https://gosterge.example/", TRUSTED_PROXIES=1)
    assert servers(app, FORWARDED) == [{"url": "https://gosterge.example"}]


@pytest.mark.parametrize("value", ["-1", "x"])
def test_trusted_proxies_must_be_a_count(value):
    from api.config import load_config

    with pytest.raises(ValueError, match="GOSTERGE_TRUSTED_PROXIES"):
        load_config(environ={"GOSTERGE_TRUSTED_PROXIES": value})


def test_only_trusted_hosts_are_answered_when_configured(make_app):
    from tests.helpers import assert_problem, error_parameters

    app = make_app(PUBLIC_BASE_URL="", TRUSTED_HOSTS="api.example.org:8443, localhost")
    client = app.test_client()
    assert client.get("/v1/openapi.json", base_url="http://api.example.org:8443").status_code == 200
    # The port is compared too: another one would go into the links built from the Host.
    assert_problem(client.get("/v1/openapi.json", base_url="http://api.example.org:9999"), 400, "invalid_parameters")
    # A forged Host would otherwise write the sign-up's approval links to a host of the sender's choosing.
    body = assert_problem(client.post("/v1/accounts", json={"email": "owner@example.com", "apis": ["finance-news"]},
                                      base_url="http://evil.test"), 400, "invalid_parameters")
    assert error_parameters(body) == ["Host"]


def test_mail_without_a_base_url_or_trusted_hosts_refuses_sign_ups(make_app, caplog):
    """The approval links carry the decision token: built from a forged Host, a mail scanner following
    them hands the decision to the forger's host."""
    import logging

    from tests.helpers import assert_problem

    with caplog.at_level(logging.ERROR, logger="gosterge"):
        app = make_app(PUBLIC_BASE_URL="", TRUSTED_HOSTS="", SMTP_URL="smtp://127.0.0.1:9")
    assert any("GOSTERGE_PUBLIC_BASE_URL" in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)
    body = assert_problem(app.test_client().post("/v1/accounts", json={"email": "owner@example.com",
                                                                       "apis": ["finance-news"]},
                                                 base_url="http://evil.example"), 503, "not_ready")
    assert "GOSTERGE_PUBLIC_BASE_URL" in body["detail"] and "evil" not in body["detail"]
    # Either setting lets them through (and the mail server, which does not answer here, is asked).
    for setting in ({"PUBLIC_BASE_URL": "https://api.example.org"}, {"TRUSTED_HOSTS": "localhost"}):
        answer = make_app(SMTP_URL="smtp://127.0.0.1:9", **setting).test_client().post(
            "/v1/accounts", json={"email": "owner@example.com", "apis": ["finance-news"]})
        assert answer.status_code == 502


def test_outbox_mail_and_poll_url_never_follow_a_forged_host(make_app, tmp_path, monkeypatch):
    """Without SMTP the approval mail is written to the outbox, and whoever reads it follows its links:
    a forged Host must not choose where they (or the poll_url) point. Without a configured address
    the sign-up is refused as in SMTP mode; with one, the links use it whatever Host says."""
    from email import message_from_bytes

    import api.mail
    from tests.helpers import assert_problem

    monkeypatch.setattr(api.mail, "VAR_DIR", tmp_path)
    signup = {"email": "owner@example.com", "apis": ["finance-news"]}
    body = assert_problem(make_app(SMTP_URL="", PUBLIC_BASE_URL="", TRUSTED_HOSTS="").test_client().post(
        "/v1/accounts", json=signup, base_url="http://evil.example"), 503, "not_ready")
    assert "GOSTERGE_PUBLIC_BASE_URL" in body["detail"]
    assert not (tmp_path / "outbox").exists()
    client = make_app(SMTP_URL="", PUBLIC_BASE_URL="http://127.0.0.1:8000").test_client()
    answer = client.post("/v1/accounts", json=signup, base_url="http://evil.example")
    assert answer.status_code == 202 and answer.get_json()["poll_url"].startswith("http://127.0.0.1:8000/v1/accounts/")
    [mail] = (tmp_path / "outbox").glob("*.eml")
    text = message_from_bytes(mail.read_bytes()).get_payload(decode=True).decode()
    assert "evil" not in text and "http://127.0.0.1:8000/v1/accounts/" in text
