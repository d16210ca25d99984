"""Self-registration for automated agents, end to end through a real SMTP server on loopback."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from urllib.parse import urlparse

import pytest
from aiosmtpd.controller import Controller

from tests.helpers import assert_problem, free_port


class Mailbox:
    """aiosmtpd handler keeping every message it receives, and its envelope recipients: where the
    mail really went."""

    def __init__(self):
        self.messages = []
        self.recipients = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802, ANN001
        self.messages.append(message_from_bytes(envelope.content))
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


@pytest.fixture
def smtp():
    port = free_port()
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield f"smtp://127.0.0.1:{port}", mailbox
    controller.stop()


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 22, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def signup(make_app, smtp, clock):
    url, mailbox = smtp
    app = make_app(SMTP_URL=url, PUBLIC_BASE_URL="http://gosterge.test", CLOCK=clock)
    return app, app.test_client(), mailbox


def links(mailbox) -> dict[str, str]:  # noqa: ANN001
    body = mailbox.messages[-1].get_payload(decode=True).decode()
    found = re.findall(r"http://gosterge\.test(\S+)", body)
    return {"approve": next(u for u in found if "action=approve" in u), "refuse": next(u for u in found if "action=refuse" in u)}


def local(url: str) -> str:
    parsed = urlparse(url)
    return f"{parsed.path}?{parsed.query}"


HOSTS = "localhost,127.0.0.1"  # a server that mails over SMTP must know its host names or base URL


def register(client, email="owner@example.com", apis=("public-procurement",)):  # noqa: ANN001
    return client.post("/v1/accounts", json={"email": email, "apis": list(apis)})


def confirm(client, link: str):  # noqa: ANN001
    page = client.get(link)
    assert page.status_code == 200 and "<form method=\"post\">" in page.get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    action = re.search(r'name="action" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    return client.post(link.split("?")[0], data={"token": token, "action": action})


def test_agent_flow_from_mail_to_key(signup):
    app, client, mailbox = signup
    created = register(client)
    assert created.status_code == 202
    body = created.get_json()
    assert body["status"] == "pending" and body["poll_url"].startswith("http://gosterge.test/v1/accounts/")
    poll = local(body["poll_url"])
    assert client.get(poll).status_code == 202
    message = mailbox.messages[-1]
    assert message["To"] == "owner@example.com"
    approve = local("http://gosterge.test" + links(mailbox)["approve"])
    # Opening the link (as a mail scanner would) decides nothing.
    assert client.get(approve).status_code == 200
    assert client.get(poll).status_code == 202
    assert confirm(client, approve).status_code == 200
    got = client.get(poll)
    assert got.status_code == 200
    key = got.get_json()["key"]
    assert_problem(client.get(poll), 410, "gone")
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/v1/public-procurement/sectors", headers=headers).status_code == 200
    assert_problem(client.get("/v1/finance-news/sources", headers=headers), 403, "forbidden")


def test_key_expires_after_its_lifetime(signup, clock):
    app, client, mailbox = signup
    poll = local(register(client).get_json()["poll_url"])
    confirm(client, local("http://gosterge.test" + links(mailbox)["approve"]))
    key = client.get(poll).get_json()["key"]
    clock.now += timedelta(hours=24, seconds=1)
    assert_problem(client.get("/v1/public-procurement/sectors", headers={"Authorization": f"Bearer {key}"}),
                   401, "unauthorized")


def test_refused_request_is_gone(signup):
    app, client, mailbox = signup
    poll = local(register(client).get_json()["poll_url"])
    assert "Refused" in confirm(client, local("http://gosterge.test" + links(mailbox)["refuse"])).get_data(as_text=True)
    assert_problem(client.get(poll), 410, "gone")


def test_approving_twice_and_forged_tokens(signup):
    app, client, mailbox = signup
    poll = local(register(client).get_json()["poll_url"])
    approve = local("http://gosterge.test" + links(mailbox)["approve"])
    assert confirm(client, approve).status_code == 200
    assert client.get(approve).status_code == 409  # already decided (decisions.md)
    forged = re.sub(r"token=[^&]+", "token=forged", poll)
    assert_problem(client.get(forged), 404, "not_found")
    assert client.get(re.sub(r"token=[^&]+", "token=forged", approve)).status_code == 404


def test_polling_after_expiry_is_gone(signup, clock):
    app, client, mailbox = signup
    poll = local(register(client).get_json()["poll_url"])
    clock.now += timedelta(hours=25)
    assert_problem(client.get(poll), 410, "gone")
    assert client.get(local("http://gosterge.test" + links(mailbox)["approve"])).status_code == 410


@pytest.mark.parametrize(("body", "fields"), [
    ({"email": "not-an-address", "apis": ["public-procurement"]}, ["email"]),
    ({"email": "a@b.com", "apis": ["weather"]}, ["apis"]),
    ({"apis": ["finance-news"]}, ["email"]),
    ({"email": "a@b.com", "apis": [], "extra": 1}, ["apis", "extra"]),
])
def test_bad_registrations_name_each_field(signup, body, fields):
    app, client, mailbox = signup
    problem = assert_problem(client.post("/v1/accounts", json=body), 400, "invalid_parameters")
    assert sorted(e["parameter"] for e in problem["errors"]) == fields
    assert mailbox.messages == []


def test_body_must_be_small_json(signup):
    app, client, mailbox = signup
    assert_problem(client.post("/v1/accounts", data="email=a", content_type="text/plain"), 415, "unsupported_media_type")
    huge = '{"email": "a@b.com", "apis": ["finance-news"], "pad": "' + "x" * 20000 + '"}'
    assert_problem(client.post("/v1/accounts", data=huge, content_type="application/json"), 413, "payload_too_large")


def test_requests_per_email_get_their_mails_up_to_the_cap_and_say_nothing_past_it(signup):
    """Past the address's daily mails the answer is the same 202 as any (it must not tell the requester
    that the address was asked for), and no mail goes out."""
    app, client, mailbox = signup
    answers = [register(client, email="busy@example.com") for _ in range(4)]
    assert [a.status_code for a in answers] == [202] * 4
    assert set(answers[3].get_json()) == set(answers[0].get_json()) and answers[3].get_json()["status"] == "pending"
    assert "Retry-After" not in answers[3].headers
    assert len(mailbox.messages) == 3
    assert client.get(local(answers[3].get_json()["poll_url"])).status_code == 202


def test_a_refusal_by_the_owner_gives_the_mail_back(signup):
    """Otherwise three requests by anyone, refused by the owner, would lock the address out for a day."""
    app, client, mailbox = signup
    for _ in range(3):
        assert register(client, email="owner@example.com").status_code == 202
        assert "Refused" in confirm(client, local("http://gosterge.test" + links(mailbox)["refuse"])).get_data(as_text=True)
    assert register(client, email="owner@example.com").status_code == 202
    assert len(mailbox.messages) == 4


def test_requests_per_address_are_limited(make_app, smtp):
    app = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=smtp[0], SIGNUP_RATE_PER_ADDRESS="2/hour")
    client = app.test_client()
    assert register(client, email="a1@example.com").status_code == 202
    assert register(client, email="a2@example.com").status_code == 202
    response = register(client, email="a3@example.com")
    assert_problem(response, 429, "rate_limited")
    assert int(response.headers["Retry-After"]) >= 1


def test_without_smtp_the_mail_goes_to_the_outbox(make_app, tmp_path, monkeypatch):
    import api.mail

    monkeypatch.setattr(api.mail, "VAR_DIR", tmp_path)
    app = make_app(SMTP_URL="", TRUSTED_HOSTS=HOSTS)
    assert register(app.test_client()).status_code == 202
    files = list((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 1
    assert "action=approve" in message_from_bytes(files[0].read_bytes()).get_payload(decode=True).decode()


def test_longest_legal_address_still_reaches_the_outbox(make_app, tmp_path, monkeypatch):
    import api.mail

    monkeypatch.setattr(api.mail, "VAR_DIR", tmp_path)
    email = "0@" + ".".join(["0" * 63, "a" * 63, "a" * 63, "a" * 60])
    assert len(email) == 254
    response = register(make_app(SMTP_URL="", TRUSTED_HOSTS=HOSTS).test_client(), email=email)
    assert response.status_code == 202
    [path] = (tmp_path / "outbox").glob("*.eml")
    assert message_from_bytes(path.read_bytes())["To"] == email


def test_unreachable_mail_server_is_a_502_and_leaves_nothing_pending(make_app):
    port = free_port()  # nothing listens there
    client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=f"smtp://127.0.0.1:{port}").test_client()
    assert_problem(register(client), 502, "upstream_error")
    from sqlalchemy import func, select

    from store.db import session_scope
    from store.models import AccountRequest

    with session_scope(client.application.extensions["gosterge.sessions"]) as session:
        assert session.scalar(select(func.count()).select_from(AccountRequest)) == 0
    # The request was never mailed, so it must not count against the address's daily allowance.
    app = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=f"smtp://127.0.0.1:{port}", SIGNUP_PER_EMAIL_PER_DAY=1)
    for _ in range(2):
        assert_problem(register(app.test_client()), 502, "upstream_error")


def test_tokens_are_not_logged(signup, caplog):
    app, client, mailbox = signup
    with caplog.at_level("INFO", logger="gosterge.access"):
        poll = local(register(client).get_json()["poll_url"])
        client.get(poll)
    token = re.search(r"token=([^&]+)", poll).group(1)
    assert token not in caplog.text and "token=REDACTED" in caplog.text


@pytest.mark.parametrize("email", ["a:victim@example.com", "root,victim@example.com", "a;victim@example.com",
                                   "a(x)victim@example.com", "a victim@example.com", '"a,b"@example.com',
                                   "vıctim@example.com", "a@example.com, victim@example.com"])
def test_addresses_a_mail_library_could_read_as_several_are_refused(make_app, smtp, email):
    url, mailbox = smtp
    client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url).test_client()
    problem = assert_problem(register(client, email=email), 400, "invalid_parameters")
    assert [e["parameter"] for e in problem["errors"]] == ["email"]
    assert mailbox.recipients == []


@pytest.mark.parametrize(("email", "delivered"), [("Owner@Example.COM", "Owner@example.com"),
                                                  ("user@bücher.example", "user@xn--bcher-kva.example")])
def test_mail_goes_to_exactly_the_validated_address(make_app, smtp, email, delivered):
    url, mailbox = smtp
    assert register(make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url).test_client(), email=email).status_code == 202
    assert mailbox.recipients == [[delivered]]
    assert mailbox.messages[-1]["To"] == delivered


def test_case_variants_share_one_daily_allowance(make_app, smtp):
    url, mailbox = smtp
    client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url).test_client()
    for email in ("Victim@example.com", "VICTIM@example.com", "victim@EXAMPLE.com", "vIcTiM@example.com"):
        assert register(client, email=email).status_code == 202
    assert len(mailbox.recipients) == 3


def test_parallel_registrations_for_one_address_send_at_most_the_cap(make_app, smtp):
    from concurrent.futures import ThreadPoolExecutor

    import requests

    from tests.helpers import LiveServer

    url, mailbox = smtp
    app = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url, SIGNUP_RATE_PER_ADDRESS="1000/hour")
    with LiveServer(app) as server, ThreadPoolExecutor(40) as pool:
        statuses = list(pool.map(lambda i: requests.post(
            f"{server.url}/v1/accounts", json={"email": "target@example.com" if i % 2 else "TARGET@example.com",
                                               "apis": ["finance-news"]}, timeout=60).status_code, range(40)))
    assert statuses.count(202) == 40, statuses
    assert len(mailbox.recipients) == 3


def test_head_on_an_approved_poll_hands_out_nothing(signup):
    app, client, mailbox = signup
    poll = local(register(client).get_json()["poll_url"])
    assert client.head(poll).status_code == 202
    confirm(client, local("http://gosterge.test" + links(mailbox)["approve"]))
    for _ in range(2):
        head = client.head(poll)
        assert head.status_code == 200 and head.get_data() == b""
    got = client.get(poll)
    assert got.status_code == 200 and got.get_json()["key"].startswith("gk_")
    assert got.headers["Cache-Control"] == "no-store"


def test_decision_page_headers_and_a_reopened_link(signup):
    app, client, mailbox = signup
    register(client)
    approve = local("http://gosterge.test" + links(mailbox)["approve"])
    page = client.get(approve)
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer" and page.headers["Cache-Control"] == "no-store"
    assert confirm(client, approve).status_code == 200
    assert client.get(approve).status_code == 409


def test_signup_end_to_end_on_any_port_without_a_base_url(make_app, smtp):
    """The documented flow over real HTTP, on a port the OS picks (never 8000), with no
    GOSTERGE_PUBLIC_BASE_URL but the host names it answers to (GOSTERGE_TRUSTED_HOSTS): every address
    the service writes points back at this server."""
    import requests

    from tests.helpers import LiveServer

    url, mailbox = smtp
    app = make_app(SMTP_URL=url, PUBLIC_BASE_URL="", TRUSTED_HOSTS="127.0.0.1")
    with LiveServer(app) as server:
        assert not server.url.endswith(":8000")
        created = requests.post(f"{server.url}/v1/accounts", json={"email": "owner@example.com",
                                                                   "apis": ["public-procurement"]}, timeout=10)
        assert created.status_code == 202
        poll_url = created.json()["poll_url"]
        assert poll_url.startswith(f"{server.url}/v1/accounts/")
        assert requests.get(poll_url, timeout=10).status_code == 202
        body = mailbox.messages[-1].get_payload(decode=True).decode()
        approve = next(u for u in re.findall(r"https?://\S+", body) if "action=approve" in u)
        assert approve.startswith(f"{server.url}/v1/accounts/")
        page = requests.get(approve, timeout=10)
        assert page.status_code == 200
        token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
        decided = requests.post(approve.split("?")[0], data={"token": token, "action": "approve"}, timeout=10)
        assert decided.status_code == 200 and "Approved" in decided.text
        key = requests.get(poll_url, timeout=10).json()["key"]
        sectors = requests.get(f"{server.url}/v1/public-procurement/sectors",
                               headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert sectors.status_code == 200
        servers = requests.get(f"{server.url}/v1/openapi.json", timeout=10).json()["servers"]
        assert [s["url"] for s in servers] == [server.url]


def test_no_write_lock_is_held_while_the_mail_is_sent(make_app, database_url):
    """Sending the approval mail takes as long as the mail server does; on SQLite a transaction
    left open across it held the write lock, so every credit debit of the service waited on the
    mail server (and a gevent worker, whose SQLite waits do not yield, stalled whole)."""
    import sqlite3

    if not database_url.startswith("sqlite"):
        pytest.skip("the write lock is SQLite's; PostgreSQL locks rows")

    class WritingMailbox(Mailbox):
        def __init__(self):
            super().__init__()
            self.writes = []

        async def handle_DATA(self, server, session, envelope):  # noqa: N802, ANN001
            other = sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0.2)
            try:
                other.execute("UPDATE api_keys SET credits = credits + 1")
                other.commit()
                self.writes.append("written")
            except sqlite3.OperationalError as error:
                self.writes.append(str(error))
            finally:
                other.close()
            return await super().handle_DATA(server, session, envelope)

    port, mailbox = free_port(), WritingMailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=f"smtp://127.0.0.1:{port}").test_client()
        assert register(client).status_code == 202
    finally:
        controller.stop()
    assert mailbox.writes == ["written"]


def _key_id(app, key: str) -> int:  # noqa: ANN001
    from sqlalchemy import select

    from store.db import session_scope
    from store.keys import hash_key
    from store.models import ApiKey

    with session_scope(app.extensions["gosterge.sessions"]) as session:
        return session.scalar(select(ApiKey.id).where(ApiKey.key_hash == hash_key(key)))


def test_visitors_a_keyed_client_names_have_allowances_of_their_own(make_app, smtp, make_key):
    """The dashboard posts every visitor's sign-up from its own address: with its key (the one key
    configured to name visitors) it names the visitor, and ten requests by one visitor no longer lock
    every other out."""
    app = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=smtp[0], SIGNUP_RATE_PER_ADDRESS="2/hour", SIGNUP_RATE_PER_KEY="5/hour")
    client = app.test_client()
    dashboard_key = make_key(target_app=app)
    app.config["SIGNUP_VISITOR_KEYS"] = str(_key_id(app, dashboard_key))
    key = {"Authorization": f"Bearer {dashboard_key}"}

    def ask(visitor, headers=key, n=1):  # noqa: ANN001, ANN202
        return client.post("/v1/accounts", json={"email": f"v{n}@example.com", "apis": ["finance-news"]},
                           headers={**headers, "X-Gosterge-Visitor": visitor}).status_code

    assert [ask("10.0.0.1", n=i) for i in range(3)] == [202, 202, 429]
    assert [ask("10.0.0.2", n=i) for i in range(2)] == [202, 202]
    assert ask("10.0.0.3") == 429  # the key's own allowance, all visitors together (5)
    # Without a valid key the header is ignored: the client's own address decides.
    assert [ask("10.0.0.4", headers={}, n=i) for i in range(3)] == [202, 202, 429]
    assert ask("10.0.0.5", headers={"Authorization": "Bearer gk_unknownunknown"}) == 429


@pytest.mark.parametrize("email", ["=?utf-8?q?evil?=@example.com", "=?a?b?c?=x@example.com",
                                   "=?utf-8?q?a?=b@example.com"])
def test_addresses_the_mail_header_cannot_carry_are_refused_before_anything_is_kept(make_app, smtp, email):
    """email-validator accepts these (plain RFC 5322 characters), but the mail library reads them as
    encoded words and will not put them in a `To` header: a 400 naming `email`, with no request
    recorded and nothing taken from the address's daily allowance."""
    from sqlalchemy import func, select

    from store.db import session_scope
    from store.models import AccountRequest, SignupAllowance

    url, mailbox = smtp
    client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url).test_client()
    problem = assert_problem(register(client, email=email), 400, "invalid_parameters")
    assert [e["parameter"] for e in problem["errors"]] == ["email"]
    assert mailbox.recipients == []
    with session_scope(client.application.extensions["gosterge.sessions"]) as session:
        assert session.scalar(select(func.count()).select_from(AccountRequest)) == 0
        assert session.scalar(select(func.count()).select_from(SignupAllowance)) == 0


def test_concurrent_decisions_have_one_winner(make_app, smtp):
    """Ten presses of the buttons at once (approve and refuse mixed), three times: each time one
    decision is taken (200) and the others are told it was already decided (409); only a winning
    refusal gives the mail back, and the page shown agrees with what was stored."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    import requests
    from sqlalchemy import select

    from store.db import session_scope
    from store.models import AccountRequest, SignupAllowance
    from tests.helpers import LiveServer

    url, mailbox = smtp
    app = make_app(SMTP_URL=url, PUBLIC_BASE_URL="http://gosterge.test")
    barrier = Barrier(10)

    def press(path: str, token: str, action: str) -> tuple[str, int, str]:
        barrier.wait()
        answer = requests.post(f"{server.url}{path}", data={"token": token, "action": action}, timeout=30)
        return action, answer.status_code, answer.text

    with LiveServer(app) as server, ThreadPoolExecutor(10) as pool:
        for trial in range(3):
            email = f"owner{trial}@example.com"
            register(app.test_client(), email=email)
            link = links(mailbox)["refuse"]
            path, token = link.split("?")[0], re.search(r"token=([^&]+)", link).group(1)
            answers = list(pool.map(press, [path] * 10, [token] * 10, ["approve", "refuse"] * 5))
            assert sorted(status for _, status, _ in answers) == [200] + [409] * 9, [(a, s) for a, s, _ in answers]
            [(action, text)] = [(action, text) for action, status, text in answers if status == 200]
            with session_scope(app.extensions["gosterge.sessions"]) as session:
                status = session.scalar(select(AccountRequest.status).where(AccountRequest.email == email))
                used = session.scalar(select(SignupAllowance.used).where(SignupAllowance.address == email))
            assert status == ("approved" if action == "approve" else "refused")
            assert ("Approved" in text) == (action == "approve")
            assert used == (1 if action == "approve" else 0)


@pytest.mark.parametrize("configured", ["", "0", "999"])
def test_only_the_dashboards_own_key_may_name_visitors(make_app, smtp, make_key, configured):
    """Any other key (news-only, no credits, self-registered) naming invented visitors gets nothing
    from it: the header is ignored and the client's own address decides, as without a key."""
    app = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=smtp[0], SIGNUP_RATE_PER_ADDRESS="2/hour",
                   SIGNUP_VISITOR_KEYS=configured)
    client = app.test_client()
    key = {"Authorization": f"Bearer {make_key(target_app=app, apis=('finance-news',), credits=0)}"}
    statuses = [client.post("/v1/accounts", json={"email": f"v{n}@example.com", "apis": ["finance-news"]},
                            headers={**key, "X-Gosterge-Visitor": f"invented-{n}"}).status_code for n in range(3)]
    assert statuses == [202, 202, 429]


@pytest.mark.parametrize(("variants", "mails"), [
    (["target@example.com", "target+1@example.com", "target+2@example.com", "TARGET+x@example.com"], 3),
    (["first.last@gmail.com", "firstlast@gmail.com", "f.i.r.s.t.last+x@gmail.com", "firstlast@googlemail.com"], 3),
    (["first.last@example.com", "firstlast@example.com", "f.irstlast@example.com", "fi.rstlast@example.com"], 4),
])
def test_one_mailbox_shares_one_daily_allowance_whatever_it_is_called(make_app, smtp, variants, mails):
    """`+tag` reaches the same mailbox everywhere, and Gmail ignores dots (googlemail.com is gmail.com):
    such spellings share the three mails a day. Elsewhere dots make different mailboxes."""
    url, mailbox = smtp
    client = make_app(TRUSTED_HOSTS=HOSTS, SMTP_URL=url).test_client()
    assert [register(client, email=email).status_code for email in variants] == [202] * 4
    assert len(mailbox.recipients) == mails
