"""Watchlists through the API: creating with filters checked by the /awards rules, the key's own list,
another key's 404, the cap of 50, and the new awards since a release with the paging, CSV, ETags and
credits of /awards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from store.db import session_scope
from store.releases import find_release
from store.retention import mark_pruned
from tests.api.test_watchlist_digests import NEW_AWARDS, SECOND, load
from tests.helpers import assert_problem, error_parameters, walk_pages, write_release
from tests.loaders.test_procurement_statistics import TABLES

PREFIX = "/v1/public-procurement/watchlists"


@pytest.fixture
def two(make_app, tmp_path, make_key):
    """W47 then W48 (three new awards of authority A2) loaded, W48 served, and a key."""
    app = make_app()
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    load(app, write_release(tmp_path / "w48", SECOND, release="2026-W48", published="2026-11-27T06:00:00Z"))
    return app, app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}


def create(client, auth, **body):  # noqa: ANN001, ANN003
    return client.post(PREFIX, json={"name": "w", **body}, headers=auth)


def test_create_normalises_the_filters_and_answers_with_its_location(app, client, auth):
    answer = create(client, auth, filters={"province": "izmir", "supplierProvince": 6, "sector": "13",
                                           "procedure": "open", "authorityType": "municipality", "authority": "A2",
                                           "contractor": "C1", "flag": "single-bid", "minValue": 100})
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["filters"] == {"province": 35, "supplierProvince": 6, "sector": 13, "procedure": "open",
                               "authorityType": "municipality", "authority": "A2", "contractor": "C1",
                               "flag": ["single-bid"], "minValue": 100}
    assert body["notify"] is None and body["createdAt"].endswith("Z") and len(body["id"]) >= 20
    assert answer.headers["Location"].endswith(f"{PREFIX}/{body['id']}")
    assert body["awardsUrl"] == f"{answer.headers['Location']}/awards"
    assert client.get(f"{PREFIX}/{body['id']}", headers=auth).get_json() == body
    as_list = create(client, auth, filters={"flag": ["single-bid", "winner-share"]}).get_json()
    assert as_list["filters"] == {"flag": ["single-bid", "winner-share"]}


@pytest.mark.parametrize(("filters", "named"), [
    ({"sektor": 13}, ["filters.sektor"]),
    ({"province": "Atlantis"}, ["filters.province"]),
    ({"flag": "single-bid,nope"}, ["filters.flag"]),
    ({"minValue": -1}, ["filters.minValue"]),
    ({"minValue": "10"}, ["filters.minValue"]),
    ({"authority": ""}, ["filters.authority"]),
    ({"sector": True, "procedure": "auction"}, ["filters.sector", "filters.procedure"]),
    ("province=6", ["filters"]),
])
def test_an_unknown_filter_or_a_bad_value_is_a_400_naming_it(client, auth, filters, named):
    answer = create(client, auth, filters=filters)
    assert sorted(error_parameters(assert_problem(answer, 400, "invalid_parameters"))) == sorted(named)
    assert client.get(PREFIX, headers=auth).get_json()["total"] == 0


@pytest.mark.parametrize(("body", "named"), [({"name": ""}, ["name"]), ({"name": "x" * 101}, ["name"]),
                                             ({"notify": "not an address"}, ["notify"]),
                                             ({"colour": "red"}, ["colour"])])
def test_bad_fields_are_named(client, auth, body, named):
    answer = client.post(PREFIX, json={"name": "w", **body}, headers=auth)
    assert error_parameters(assert_problem(answer, 400, "invalid_parameters")) == named


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=12), value=st.one_of(st.text(max_size=8), st.integers(), st.none(),
                                                                st.floats(allow_nan=True)))
def test_any_filter_is_taken_as_the_awards_query_takes_it_or_named(client, auth, name, value):
    """A watchlist's filter is accepted exactly when /awards accepts the same query parameter."""
    answer = create(client, auth, filters={name: value})
    if name == "minValue":
        return
    query = client.get("/v1/public-procurement/awards", query_string={name: value if isinstance(value, str)
                                                                       else str(value)}, headers=auth)
    if isinstance(value, str):
        assert (answer.status_code == 201) == (query.status_code == 200)
    if answer.status_code == 201:
        assert query.status_code == 200
        client.delete(f"{PREFIX}/{answer.get_json()['id']}", headers=auth)
    else:
        assert error_parameters(assert_problem(answer, 400, "invalid_parameters")) == [f"filters.{name}"]


def test_another_keys_watchlist_is_a_404_and_the_list_is_the_keys_own(client, auth, make_key):
    mine = create(client, auth).get_json()
    other = {"Authorization": f"Bearer {make_key()}"}
    for method, path in (("get", ""), ("delete", ""), ("get", "/awards")):
        assert_problem(getattr(client, method)(f"{PREFIX}/{mine['id']}{path}", headers=other), 404, "not_found")
    assert client.get(PREFIX, headers=other).get_json()["total"] == 0
    assert_problem(client.get(f"{PREFIX}/nosuchwatchlist", headers=auth), 404, "not_found")
    assert client.delete(f"{PREFIX}/{mine['id']}", headers=auth).status_code == 204
    assert_problem(client.get(f"{PREFIX}/{mine['id']}", headers=auth), 404, "not_found")


def test_the_51st_watchlist_is_refused_and_the_list_pages_newest_first(client, auth):
    made = [create(client, auth, name=f"w{n}").get_json()["id"] for n in range(50)]
    assert_problem(create(client, auth, name="one too many"), 409, "conflict")
    listed = walk_pages(client, PREFIX, auth, limit=7)
    assert [w["id"] for w in listed] == made[::-1]
    answer = client.get(PREFIX, headers=auth)
    assert answer.headers.get("X-Credits-Remaining") is None  # free
    client.delete(f"{PREFIX}/{made[0]}", headers=auth)
    assert create(client, auth, name="room again").status_code == 201


def test_new_awards_since_the_release_before_by_default_or_as_named(two):
    app, client, auth = two
    everything = create(client, auth).get_json()["id"]
    followed = create(client, auth, filters={"authority": "A2", "minValue": 2000}).get_json()["id"]
    page = client.get(f"{PREFIX}/{everything}/awards", headers=auth).get_json()
    assert page["since"] == "2026-W47" and page["total"] == 3
    assert [i["lot"] for i in client.get(f"{PREFIX}/{followed}/awards?sort=value", headers=auth).get_json()["items"]] \
        == [3, 2]
    assert client.get(f"{PREFIX}/{everything}/awards?since=2026-W48", headers=auth).get_json()["total"] == 0
    unknown = client.get(f"{PREFIX}/{everything}/awards?since=2019-W01", headers=auth)
    assert error_parameters(assert_problem(unknown, 400, "invalid_parameters")) == ["since"]
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        from datetime import UTC, datetime

        assert mark_pruned(session, find_release(session, "2026-W47").id, now=datetime.now(UTC))
    pruned = client.get(f"{PREFIX}/{everything}/awards", headers=auth)
    assert "2026-W47" in assert_problem(pruned, 409, "conflict")["detail"]


def test_new_awards_page_as_awards_do_with_csv_etags_and_credits(two):
    app, client, auth = two
    watchlist = create(client, auth).get_json()["id"]
    path = f"{PREFIX}/{watchlist}/awards"
    first = client.get(f"{path}?limit=2", headers=auth)
    body = first.get_json()
    assert len(body["items"]) == 2 and body["next_cursor"] and first.headers["X-Credits-Remaining"] == "999"
    rest = client.get(f"{path}?limit=2&cursor={body['next_cursor']}", headers=auth).get_json()
    assert [i["lot"] for i in body["items"] + rest["items"]] == [1, 2, 3] and rest["next_cursor"] is None
    awards = client.get("/v1/public-procurement/awards?authority=A2&limit=200", headers=auth).get_json()["items"]
    assert [a for a in awards if a["tenderId"] == "2026/000777"] == body["items"] + rest["items"]
    again = client.get(f"{path}?limit=2", headers={**auth, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    csv = client.get(f"{path}?format=csv", headers=auth)
    assert csv.mimetype == "text/csv" and csv.get_data(as_text=True).count("2026/000777") == len(NEW_AWARDS)
    assert client.get(path, headers={**auth, "Accept": "text/csv"}).mimetype == "text/csv"


def test_with_no_release_before_every_matching_award_is_new(make_app, tmp_path, make_key):
    app = make_app()
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    client, auth = app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}
    watchlist = create(client, auth, filters={"authority": "A1"}).get_json()["id"]
    page = client.get(f"{PREFIX}/{watchlist}/awards", headers=auth).get_json()
    assert page["since"] is None and page["total"] == 2


def test_without_a_release_the_page_is_empty(client, auth):
    watchlist = create(client, auth).get_json()["id"]
    assert client.get(f"{PREFIX}/{watchlist}/awards", headers=auth).get_json() == {
        "items": [], "total": 0, "next_cursor": None, "since": None}


def test_a_notify_address_needs_a_known_public_address(make_app, make_key):
    app = make_app(SMTP_URL="smtp://127.0.0.1:9")
    client, auth = app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}
    assert_problem(create(client, auth, notify="owner@example.com"), 503, "not_ready")
    assert create(client, auth).status_code == 201


def test_link_tokens_are_not_logged(make_app, make_key, caplog, tmp_path, monkeypatch):
    monkeypatch.setattr("api.mail.VAR_DIR", tmp_path)
    app = make_app(PUBLIC_BASE_URL="http://gosterge.test")
    client, auth = app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}
    create(client, auth, notify="owner@example.com")
    from email import message_from_bytes

    mail = message_from_bytes(next((tmp_path / "outbox").glob("*.eml")).read_bytes())
    token = mail.get_payload(decode=True).decode().split("token=")[1].split()[0]
    client.get(f"{PREFIX}/confirm?token={token}")
    client.post(f"{PREFIX}/confirm?token={token}", data={"confirm": "yes"})
    assert token not in caplog.text


ANNOUNCED = {"tender_id": "2026/000900", "authority_id": "A1", "tender_date": "2026-11-18", "procedure": "open",
             "sector": 23, "estimated_cost": 5000, "lots": 2}


@pytest.fixture
def announced(make_app, tmp_path, make_key):
    """W47, then W48 with a new awarded tender of A2 (three lots) and a new tender of A1 only announced."""
    app = make_app()
    load(app, write_release(tmp_path / "w47", TABLES, release="2026-W47"))
    tables = {**SECOND, "tenders.csv": [*SECOND["tenders.csv"], ANNOUNCED]}
    load(app, write_release(tmp_path / "w48", tables, release="2026-W48", published="2026-11-27T06:00:00Z"))
    return app, app.test_client(), {"Authorization": f"Bearer {make_key(target_app=app)}"}


def test_new_tenders_include_announced_ones_and_follow_the_tender_filters(announced):
    app, client, auth = announced
    everything = create(client, auth).get_json()["id"]
    page = client.get(f"{PREFIX}/{everything}/tenders", headers=auth)
    body = page.get_json()
    assert page.headers["X-Credits-Remaining"] == "999" and body["since"] == "2026-W47"
    assert [(t["tenderId"], t["lots"], t["awardedLots"]) for t in body["items"]] == [
        ("2026/000777", 3, 3), ("2026/000900", 2, 0)]
    assert body["items"][1]["authority"] == {"id": "A1", "name": "Ankara Kurum", "type": "ministry", "province": 6}
    assert body["items"][1]["estimatedCost"] == 5000
    cases = {"authority": "A1", "province": 35, "sector": 23, "minValue": 6000}
    expected = {"authority": ["2026/000900"], "province": ["2026/000777"], "sector": ["2026/000900"],
                "minValue": ["2026/000777"]}
    for name, value in cases.items():
        watchlist = create(client, auth, filters={name: value}).get_json()["id"]
        items = client.get(f"{PREFIX}/{watchlist}/tenders", headers=auth).get_json()["items"]
        assert [t["tenderId"] for t in items] == expected[name], name
    by_contractor = create(client, auth, filters={"contractor": "C1"}).get_json()["id"]
    assert client.get(f"{PREFIX}/{by_contractor}/tenders", headers=auth).get_json()["total"] == 0
    assert client.get(f"{PREFIX}/{everything}/tenders?since=2026-W48", headers=auth).get_json()["total"] == 0
    first = client.get(f"{PREFIX}/{everything}/tenders?limit=1", headers=auth).get_json()
    rest = client.get(f"{PREFIX}/{everything}/tenders?limit=1&cursor={first['next_cursor']}", headers=auth).get_json()
    assert [t["tenderId"] for t in first["items"] + rest["items"]] == ["2026/000777", "2026/000900"]


def test_a_release_loaded_before_tenders_were_kept_is_a_503(announced):
    app, client, auth = announced
    from sqlalchemy import update

    from store.models import Release

    with session_scope(app.extensions["gosterge.sessions"]) as session:
        session.execute(update(Release).where(Release.name == "2026-W47").values(tenders=False))
    watchlist = create(client, auth).get_json()["id"]
    assert "load it again" in assert_problem(client.get(f"{PREFIX}/{watchlist}/tenders", headers=auth), 503,
                                             "not_ready")["detail"]


def test_the_mail_links_pages_offer_only_their_own_methods(loaded_app):
    """A link's page is not under /watchlists/, where `/watchlists/{id}` would match it too and its
    DELETE be offered (an OPTIONS there listed it)."""
    client = loaded_app.test_client()
    for page in ("confirm", "unsubscribe"):
        answer = client.open(f"/v1/public-procurement/digests/{page}?token=x", method="OPTIONS")
        assert set(answer.headers["Allow"].split(", ")) <= {"GET", "HEAD", "POST", "OPTIONS"}, answer.headers


@pytest.mark.parametrize("filters", [{"province": 6, "sector": 43, "flag": ["single-bid"]},
                                     {"supplierProvince": 81, "flag": "single-bid,winner-share"}])
def test_filters_take_the_json_forms_their_schema_documents(loaded_app, make_key, filters):
    from jsonschema import validate

    from api.routes.watchlists import FILTER_SCHEMA

    validate(filters, FILTER_SCHEMA)
    client = loaded_app.test_client()
    auth = {"Authorization": f"Bearer {make_key(target_app=loaded_app)}"}
    assert client.post("/v1/public-procurement/watchlists", json={"name": "x", "filters": filters},
                       headers=auth).status_code == 201


@pytest.mark.parametrize("filters", [{"province": ""}, {"sector": 44}, {"flag": []}, {"procedure": ""}])
def test_filters_the_schema_refuses_are_refused(loaded_app, make_key, filters):
    from jsonschema import ValidationError, validate

    from api.routes.watchlists import FILTER_SCHEMA

    with pytest.raises(ValidationError):
        validate(filters, FILTER_SCHEMA)
    client = loaded_app.test_client()
    auth = {"Authorization": f"Bearer {make_key(target_app=loaded_app)}"}
    answer = client.post("/v1/public-procurement/watchlists", json={"name": "x", "filters": filters}, headers=auth)
    assert answer.status_code == 400 and answer.get_json()["errors"][0]["parameter"].startswith("filters.")
