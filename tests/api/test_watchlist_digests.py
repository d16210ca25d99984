"""Weekly digests of watchlists end to end: two releases loaded, watchlists created through the API,
digests over a real SMTP server (aiosmtpd) and to the outbox, unsubscribe without a key."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from api.digests import NewAwardsCache, send_all_digests, send_digests, start_digest_sender
from loaders.procurement.load import load_release
from store.awards import AwardFilters
from store.db import session_scope
from store.models import WatchlistDigest
from store.reference.flags import FLAG_BITS
from store.watchlists import NewAward, NewAwardSet, WatchFilters, matches
from tests.api.test_accounts import Mailbox, smtp  # noqa: F401  (the fixture)
from tests.helpers import write_release
from tests.loaders.test_procurement_statistics import TABLES

BASE = "http://gosterge.test"
PREFIX = "/v1/public-procurement/watchlists"
LINKS = "/v1/public-procurement/digests"
# Release W48: W47's awards and a new tender of authority A2 with three awarded lots.
NEW_TENDER = {"tender_id": "2026/000777", "authority_id": "A2", "tender_date": "2026-11-19", "procedure": "open",
              "sector": 13, "estimated_cost": 9000, "lots": 3}
NEW_AWARDS = [{"tender_id": "2026/000777", "lot": lot, "bids": 2, "contractor_id": "C1", "contract_value": 1000 * lot}
              for lot in (1, 2, 3)]
SECOND = {**TABLES, "tenders.csv": [*TABLES["tenders.csv"], NEW_TENDER],
          "awards.csv": [*TABLES["awards.csv"], *NEW_AWARDS]}


def load(app, directory: Path) -> None:  # noqa: ANN001
    load_release(directory, app.extensions["gosterge.sessions"])


@pytest.fixture
def watched(make_app, smtp, tmp_path, make_key):  # noqa: F811
    """W47 loaded and served, an app that mails over SMTP, and a key."""
    url, mailbox = smtp
    app = make_app(SMTP_URL=url, PUBLIC_BASE_URL=BASE, DASHBOARD_URL="http://dash.test")
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    key = make_key(target_app=app)
    return app, app.test_client(), {"Authorization": f"Bearer {key}"}, mailbox, tmp_path


def create(client, auth, **body):  # noqa: ANN001, ANN003
    answer = client.post(PREFIX, json={"name": "İzmir", **body}, headers=auth)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def mailed_link(message, path: str) -> str:  # noqa: ANN001
    body = message.get_payload(decode=True).decode()
    return re.search(re.escape(BASE + path) + r"\?token=[A-Za-z0-9_-]+", body).group(0).removeprefix(BASE)


def press(client, link: str, field: str, value: str):  # noqa: ANN001
    page = client.get(link)
    assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    return client.post(link, data={field: value})


def test_the_new_awards_of_a_followed_authority_reach_the_confirmed_address_only(watched):
    app, client, auth, mailbox, tmp_path = watched
    confirmed = create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    create(client, auth, name="other", filters={"authority": "A2"}, notify="stranger@example.com")
    assert [m["To"] for m in mailbox.messages] == ["owner@example.com", "stranger@example.com"]
    confirm_link = mailed_link(mailbox.messages[0], f"{LINKS}/confirm")
    assert press(client, confirm_link, "confirm", "yes").status_code == 200
    assert client.get(f"{PREFIX}/{confirmed['id']}", headers=auth).get_json()["notify"]["confirmed"] is True
    # A sender before the next release has nothing to send: the watchlist follows later releases.
    assert send_all_digests(app.extensions["gosterge.sessions"], app.config).handled == 0

    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    new = client.get(f"{confirmed['awardsUrl'].removeprefix(BASE)}?limit=200", headers=auth).get_json()
    assert sorted((i["tenderId"], i["lot"]) for i in new["items"]) == [("2026/000777", lot) for lot in (1, 2, 3)]
    assert new["since"] == "2026-W47" and new["total"] == 3
    assert client.get(f"{PREFIX}/{confirmed['id']}/awards?since=2026-W47", headers=auth).get_json()["total"] == 3
    assert client.get(f"{PREFIX}/{confirmed['id']}/awards?since=2026-W48", headers=auth).get_json()["total"] == 0

    run = send_all_digests(app.extensions["gosterge.sessions"], app.config)
    assert run.counts == {"sent": 1}
    digests = mailbox.messages[2:]
    assert [m["To"] for m in digests] == ["owner@example.com"]
    text = digests[0].get_payload(decode=True).decode()
    assert text.count("İKN 2026/000777") == 3 and "3 yeni" in text and "İzmir Belediyesi" in text
    assert "http://dash.test/awards?authority=A2" in text
    assert digests[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert digests[0]["List-Unsubscribe"].strip("<>").startswith(f"{BASE}{LINKS}/unsubscribe?token=")
    assert "<" not in text.replace("<http", "")  # plain text: nothing a mail client would run

    # Once per release, however often the senders run.
    assert send_all_digests(app.extensions["gosterge.sessions"], app.config).handled == 0
    assert len(mailbox.messages) == 3

    unsubscribe = mailed_link(digests[0], f"{LINKS}/unsubscribe")
    done = press(client, unsubscribe, "List-Unsubscribe", "One-Click")
    assert done.status_code == 200 and "Abonelikten çıkıldı" in done.get_data(as_text=True)
    assert client.post(unsubscribe, data={"List-Unsubscribe": "One-Click"}).status_code == 410
    third = {**SECOND, "tenders.csv": [*SECOND["tenders.csv"], {**NEW_TENDER, "tender_id": "2026/000778"}],
             "awards.csv": [*SECOND["awards.csv"], {**NEW_AWARDS[0], "tender_id": "2026/000778"}]}
    load(app, write_release(tmp_path / "w49", third, release="2026-W49", published="2026-12-04T06:00:00Z"))
    assert send_all_digests(app.extensions["gosterge.sessions"], app.config).handled == 0
    assert len(mailbox.messages) == 3


def test_a_one_click_unsubscribe_needs_no_page(watched):
    app, client, auth, mailbox, tmp_path = watched
    create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    press(client, mailed_link(mailbox.messages[0], f"{LINKS}/confirm"), "confirm", "yes")
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    send_all_digests(app.extensions["gosterge.sessions"], app.config)
    link = mailed_link(mailbox.messages[-1], f"{LINKS}/unsubscribe")
    answer = client.post(link, data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    watchlist = client.get(PREFIX, headers=auth).get_json()["items"][0]
    assert watchlist["notify"]["unsubscribed"] is True


def test_opening_the_links_changes_nothing(watched):
    app, client, auth, mailbox, _ = watched
    made = create(client, auth, filters={}, notify="owner@example.com")
    link = mailed_link(mailbox.messages[0], f"{LINKS}/confirm")
    for _ in range(2):
        page = client.get(link)
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
        assert page.get_data(as_text=True).index("Adresi onaylayın") < page.get_data(as_text=True).index("Confirm")
    assert client.get(f"{PREFIX}/{made['id']}", headers=auth).get_json()["notify"]["confirmed"] is False
    assert client.post(link, data={"confirm": "yes"}).status_code == 200
    assert client.get(link).status_code == 410
    assert client.get(f"{LINKS}/confirm?token=unknown").status_code == 404
    assert client.get(f"{LINKS}/unsubscribe").status_code == 400


def test_a_failed_send_is_retried_and_recorded_and_the_load_is_unaffected(make_app, tmp_path, make_key):
    app = make_app(SMTP_URL="smtp://127.0.0.1:9", PUBLIC_BASE_URL=BASE)
    sessions = app.extensions["gosterge.sessions"]
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    client, auth = app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}
    # The confirmation mail cannot go out either: 502 and nothing created.
    refused = client.post(PREFIX, json={"name": "x", "notify": "owner@example.com"}, headers=auth)
    assert refused.status_code == 502 and client.get(PREFIX, headers=auth).get_json()["total"] == 0
    app.config["SMTP_URL"] = ""
    app.config["OUTBOX"] = str(tmp_path / "outbox")
    create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    with session_scope(sessions) as session:
        from store.models import Watchlist
        session.execute(Watchlist.__table__.update().values(confirmed=True))
    app.config["SMTP_URL"] = "smtp://127.0.0.1:9"
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))  # the load does not wait for mail
    clock = datetime.now(UTC)
    run = send_digests(sessions, app.config, now=lambda: clock)
    assert run.counts == {"pending": 1}
    with session_scope(sessions) as session:
        digest = session.scalars(select(WatchlistDigest)).one()
        assert digest.attempts == 1 and digest.last_error and digest.status == "pending"
    # Not due again before its backoff; then sent once the mail server is back (the outbox here).
    assert send_digests(sessions, app.config, now=lambda: clock).handled == 0
    app.config["SMTP_URL"] = ""
    later = clock + timedelta(minutes=2)
    assert send_digests(sessions, app.config, now=lambda: later).counts == {"sent": 1}
    with session_scope(sessions) as session:
        digest = session.scalars(select(WatchlistDigest)).one()
        assert (digest.status, digest.attempts, digest.matches) == ("sent", 2, 3)


def test_without_smtp_digests_go_to_the_outbox(make_app, tmp_path, make_key, monkeypatch):
    monkeypatch.setattr("api.mail.VAR_DIR", tmp_path)
    app = make_app(SMTP_URL="", PUBLIC_BASE_URL=BASE)
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    client, auth = app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}
    create(client, auth, filters={"sector": 13}, notify="owner@example.com")
    confirmation = message_from_bytes(next((tmp_path / "outbox").glob("*.eml")).read_bytes())
    assert client.post(mailed_link(confirmation, f"{LINKS}/confirm"), data={"confirm": "yes"}).status_code == 200
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    assert send_all_digests(app.extensions["gosterge.sessions"], app.config).counts == {"sent": 1}
    mails = sorted((tmp_path / "outbox").glob("*.eml"))
    bodies = [message_from_bytes(m.read_bytes()).get_payload(decode=True).decode() for m in mails]
    assert len(mails) == 2 and any("İKN 2026/000777" in body for body in bodies)


def test_several_senders_at_once_send_each_digest_once(watched):
    app, client, auth, mailbox, tmp_path = watched
    for n in range(6):
        create(client, auth, name=f"w{n}", filters={"authority": "A2"}, notify=f"owner{n}@example.com")
    for message in list(mailbox.messages):
        client.post(mailed_link(message, f"{LINKS}/confirm"), data={"confirm": "yes"})
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    import threading

    runs = []
    threads = [threading.Thread(target=lambda: runs.append(
        send_all_digests(app.extensions["gosterge.sessions"], app.config))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.counts.get("sent", 0) for r in runs) == 6
    assert sorted(m["To"] for m in mailbox.messages[6:]) == sorted(f"owner{n}@example.com" for n in range(6))


def test_the_background_sender_of_the_api_sends_them(watched):
    app, client, auth, mailbox, tmp_path = watched
    create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    press(client, mailed_link(mailbox.messages[0], f"{LINKS}/confirm"), "confirm", "yes")
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    sender = start_digest_sender(app.extensions["gosterge.sessions"], {**app.config, "DIGEST_SENDER_SECONDS": 1})
    assert sender is not None
    import time

    deadline = time.monotonic() + 20
    while len(mailbox.messages) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    sender.stop()
    assert [m["To"] for m in mailbox.messages] == ["owner@example.com", "owner@example.com"]


def test_the_daily_cap_per_address_holds_back_digests(watched):
    app, client, auth, mailbox, tmp_path = watched
    for n in range(3):
        create(client, auth, name=f"w{n}", filters={}, notify="owner@example.com")
    for message in list(mailbox.messages):
        client.post(mailed_link(message, f"{LINKS}/confirm"), data={"confirm": "yes"})
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    run = send_all_digests(app.extensions["gosterge.sessions"], {**app.config, "DIGESTS_PER_ADDRESS_PER_DAY": 2})
    assert run.counts == {"sent": 2, "capped": 1}


def test_the_new_awards_are_computed_once_per_release(watched, monkeypatch):
    app, client, auth, mailbox, tmp_path = watched
    for n in range(3):
        create(client, auth, name=f"w{n}", filters={"authority": "A2"}, notify=f"o{n}@example.com")
    for message in list(mailbox.messages):
        client.post(mailed_link(message, f"{LINKS}/confirm"), data={"confirm": "yes"})
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    calls = []
    import api.digests

    real = api.digests.new_awards
    monkeypatch.setattr(api.digests, "new_awards", lambda *a, **k: calls.append(1) or real(*a, **k))
    run = send_digests(app.extensions["gosterge.sessions"], app.config, cache=NewAwardsCache())
    assert run.counts == {"sent": 3} and len(calls) == 1


AWARD = st.builds(
    NewAward, tender_id=st.sampled_from(["T1", "T2", "T3"]), lot=st.integers(1, 3), province=st.integers(1, 3),
    supplier_province=st.one_of(st.none(), st.integers(1, 3)), sector=st.integers(1, 3),
    procedure=st.sampled_from(["open", "restricted"]), authority_type=st.sampled_from(["ministry", "municipality"]),
    authority_id=st.sampled_from(["A1", "A2"]), contractor_id=st.sampled_from(["C1", "C2"]),
    flags=st.integers(0, 31), contract_value=st.decimals(0, 1000, places=2), estimated_cost=st.none(),
    discount=st.none(), tender_date=st.just("2026-01-01"))
FILTERS = st.builds(
    WatchFilters, awards=st.builds(
        AwardFilters, province=st.one_of(st.none(), st.integers(1, 3)),
        supplier_province=st.one_of(st.none(), st.integers(1, 3)), sector=st.one_of(st.none(), st.integers(1, 3)),
        procedure=st.one_of(st.none(), st.just("open")), authority_type=st.one_of(st.none(), st.just("ministry")),
        authority=st.one_of(st.none(), st.just("A1")), contractor=st.one_of(st.none(), st.just("C2")),
        flags=st.lists(st.sampled_from(list(FLAG_BITS)), max_size=2).map(tuple)),
    min_value=st.one_of(st.none(), st.decimals(0, 1000, places=2)))


@given(awards=st.lists(AWARD, max_size=40), filters=FILTERS)
def test_the_indexed_set_finds_exactly_the_awards_that_match_largest_first(awards, filters):
    ordered = sorted(awards, key=lambda a: -a.contract_value)
    assert NewAwardSet(ordered).matching(filters) == [a for a in ordered if matches(filters, a)]


def test_a_deleted_watchlist_or_a_revoked_key_gets_no_digest(watched, make_key):
    app, client, auth, mailbox, tmp_path = watched
    deleted = create(client, auth, filters={"authority": "A2"}, notify="deleted@example.com")
    other = {"Authorization": f"Bearer {make_key(target_app=app)}"}
    create(client, other, filters={"authority": "A2"}, notify="revoked@example.com")
    for message in list(mailbox.messages):
        client.post(mailed_link(message, f"{LINKS}/confirm"), data={"confirm": "yes"})
    assert client.delete(f"{PREFIX}/{deleted['id']}", headers=auth).status_code == 204
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        from store.keys import revoke_key

        revoke_key(session, 2, now=datetime.now(UTC))
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    assert send_all_digests(app.extensions["gosterge.sessions"], app.config).handled == 0
    assert len(mailbox.messages) == 2


def test_building_a_digest_holds_no_write_lock_a_paid_answer_waits_for(watched, monkeypatch):
    """The national run's fault: the release's anti-join ran inside a write transaction, and on
    SQLite a paid answer's credit debit waited for it past the busy timeout (502)."""
    app, client, auth, mailbox, tmp_path = watched
    create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    press(client, mailed_link(mailbox.messages[0], f"{LINKS}/confirm"), "confirm", "yes")
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    import api.digests

    real, answers = api.digests.new_awards, []

    def slow_anti_join(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        answers.append(client.get("/v1/public-procurement/awards?limit=1", headers=auth).status_code)
        return real(*args, **kwargs)

    monkeypatch.setattr(api.digests, "new_awards", slow_anti_join)
    assert send_digests(app.extensions["gosterge.sessions"], app.config, cache=NewAwardsCache()).counts == {"sent": 1}
    assert answers == [200]


def _children(pid: int) -> list[str]:
    """The command lines of a process's children (Linux /proc)."""
    found = []
    for task in Path("/proc").iterdir():
        try:
            status = (task / "status").read_text()
            parent = int(re.search(r"^PPid:\s+(\d+)", status, re.M).group(1))
            if parent == pid:
                found.append((task / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, ValueError, AttributeError):
            continue
    return found


@pytest.mark.slow
def test_under_gunicorn_a_process_of_its_own_sends_them(watched, database_url, limiter_storage):
    """A gevent worker runs one greenlet at a time: a release's first digest, which reads for seconds
    on a national release, must not run in it. The master keeps a sender process instead."""
    from tests.helpers import Gunicorn

    app, client, auth, mailbox, tmp_path = watched
    create(client, auth, filters={"authority": "A2"}, notify="owner@example.com")
    press(client, mailed_link(mailbox.messages[0], f"{LINKS}/confirm"), "confirm", "yes")
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage,
           "GOSTERGE_SMTP_URL": app.config["SMTP_URL"], "GOSTERGE_PUBLIC_BASE_URL": BASE,
           "GOSTERGE_DIGEST_SENDER_SECONDS": "1"}
    import time

    with Gunicorn(env) as server:
        senders = [c for c in _children(server.process.pid) if "cli digests send --every 1" in c]
        deadline = time.monotonic() + 60
        while len(mailbox.messages) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
    assert len(senders) == 1, _children(server.process.pid)
    assert [m["To"] for m in mailbox.messages] == ["owner@example.com", "owner@example.com"]
    assert not _children(server.process.pid)  # the sender stops with the server


def test_the_gunicorn_master_switches_the_workers_sender_off(monkeypatch):
    from api.digest_process import start_digest_process

    class Arbiter:
        class log:  # noqa: N801
            @staticmethod
            def warning(*args: object) -> None:
                pass

    monkeypatch.setenv("GOSTERGE_DIGEST_SENDER_SECONDS", "30")
    monkeypatch.setenv("GOSTERGE_PUBLIC_BASE_URL", "")
    assert start_digest_process(Arbiter()) is None  # no public address: no links, no sender
    import os

    assert os.environ["GOSTERGE_DIGEST_SENDER_SECONDS"] == "0"  # what the workers forked next inherit
