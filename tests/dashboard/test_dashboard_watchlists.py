"""Following awards from the dashboard: the Follow buttons of the awards explorer and the profiles, the
Watchlists page and the visitor's own key, run by Streamlit's AppTest against a real API on loopback (the
`live` fixture), every watchlist read back from the API itself."""

from __future__ import annotations

import os
from email import message_from_bytes
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest
import requests
from streamlit.testing.v1 import AppTest

from dashboard.i18n import text
from tests.dashboard.test_dashboard import APP

PP = "/v1/public-procurement"
# Parties of the demo release (tiny, seed 7), as the browser tests use them.
AUTHORITY, CONTRACTOR = "A000040", "F0000197"
# Every filter the explorer reads from its address, as a digest mail's link writes them.
ADDRESS = {"province": "6", "supplierProvince": "34", "sector": "23", "procedure": "open",
           "authorityType": "municipality", "authority": AUTHORITY, "contractor": CONTRACTOR,
           "flag": "single-bid,winner-share", "minValue": "2500000"}
# The same filters as the API gives a watchlist's back: ids as /awards items give them.
SAVED = {"province": 6, "supplierProvince": 34, "sector": 23, "procedure": "open", "authorityType": "municipality",
         "authority": AUTHORITY, "contractor": CONTRACTOR, "flag": ["single-bid", "winner-share"], "minValue": 2500000}


def page(path: str, *, key: str | None = None, **query: str) -> AppTest:
    """A page run as a visitor who entered `key` on the API key page (None: a visitor without one)."""
    app = AppTest.from_file(APP, default_timeout=60)
    if key:
        app.session_state["visitor_key"] = key
    for name, value in query.items():
        app.query_params[name] = value
    app.run()
    app.switch_page(path)
    app.run()
    assert not app.exception, app.exception
    return app


def call(live, method: str, path: str, key: str, **kwargs) -> requests.Response:  # noqa: ANN001
    return requests.request(method, f"{live.url}{PP}{path}", headers={"Authorization": f"Bearer {key}"},
                            timeout=10, **kwargs)


def held(live, key: str) -> list[dict]:  # noqa: ANN001
    answer = call(live, "GET", "/watchlists", key, params={"limit": 50})
    answer.raise_for_status()
    return answer.json()["items"]


def save(app: AppTest, language: str = "en", **fields: str) -> AppTest:
    """Fill the Follow form's fields (by label) and press its button."""
    for label, value in fields.items():
        next(w for w in app.text_input if w.label == text(label, language)).input(value)
    next(b for b in app.button if b.label == text("follow_save", language)).click()
    app.run()
    assert not app.exception, app.exception
    return app


def texts(app: AppTest) -> str:
    """What the page says in its infos, successes, warnings, errors, captions and Markdown (escapes unseen)."""
    parts = [e.value for kind in ("info", "success", "warning", "error", "caption", "markdown") for e in app.get(kind)]
    return " ".join(str(p) for p in parts).replace("\\", "").replace("\u2060", "")


def links(app: AppTest) -> list[tuple[str, dict[str, list[str]]]]:
    return [(link.proto.page, parse_qs(link.proto.query_string)) for link in app.get("page_link")]


@pytest.mark.parametrize("language", ["tr", "en"])
def test_without_a_key_of_their_own_a_visitor_is_told_how_to_get_one_and_nothing_is_created(live, language):
    dashboard_key = os.environ["GOSTERGE_API_KEY"]
    for path, query in (("views/awards.py", ADDRESS), ("views/watchlists.py", {}),
                        ("views/profile.py", {"kind": "authority", "id": AUTHORITY})):
        app = page(path, lang=language, **query)
        assert text("needs_own_key", language) in texts(app), path
        assert any(target == "api-key" for target, _ in links(app)), path
        # No form to fill: nothing can be made under the dashboard's own key.
        assert not [b for b in app.button if b.label == text("follow_save", language)], path
        assert not app.error, [e.value for e in app.error]
    assert held(live, dashboard_key) == []


def test_follow_on_the_explorer_saves_exactly_the_filters_its_address_shows(live, make_key):
    key = make_key()
    app = page("views/awards.py", key=key, lang="en", **ADDRESS)
    # Each name of the digest's link is read from the address into its filter.
    assert app.sidebar.selectbox(key="w_province").value == "6"
    assert app.sidebar.selectbox(key="w_supplierProvince").value == "34"
    assert app.sidebar.selectbox(key="w_sector").value == "23"
    assert app.sidebar.selectbox(key="w_procedure").value == "open"
    assert app.sidebar.selectbox(key="w_authorityType").value == "municipality"
    assert app.sidebar.text_input(key="w_party_authority").value == AUTHORITY
    assert app.sidebar.text_input(key="w_party_contractor").value == CONTRACTOR
    assert app.sidebar.multiselect(key="w_flag").value == ["single-bid", "winner-share"]
    assert app.sidebar.number_input(key="w_minValue").value == 2_500_000
    assert app.query_params["minValue"] in ("2500000", ["2500000"])
    # /awards takes no least value: the page says the table does not apply it.
    assert "not applied to the table" in texts(app)
    app = save(app)
    assert not app.error, [e.value for e in app.error]
    [saved] = held(live, key)
    assert saved["filters"] == SAVED
    assert saved["name"].startswith("Ankara · Supplier in İstanbul · 23 ")  # offered from the filters in words
    assert saved["notify"] is None
    assert any(target == "watchlists" for target, _ in links(app))
    assert held(live, os.environ["GOSTERGE_API_KEY"]) == []  # never the dashboard's own key


def test_follow_takes_a_name_and_an_address_for_the_digest(live, loaded_app, make_key, monkeypatch, tmp_path):
    import api.mail

    monkeypatch.setattr(api.mail, "VAR_DIR", tmp_path)  # no SMTP: the confirmation goes to the outbox
    monkeypatch.setitem(loaded_app.config, "PUBLIC_BASE_URL", "http://gosterge.test")
    key = make_key()
    app = page("views/awards.py", key=key, lang="tr", sector="23", flag="single-bid")
    app = save(app, "tr", follow_name="İnşaat tek teklif", follow_email="izleyen@example.com")
    assert not app.error, [e.value for e in app.error]
    [saved] = held(live, key)
    assert saved["name"] == "İnşaat tek teklif" and saved["filters"] == {"sector": 23, "flag": ["single-bid"]}
    assert saved["notify"] == {"address": "izleyen@example.com", "confirmed": False, "unsubscribed": False}
    assert "izleyen@example.com adresine bir onay bağlantısı gönderildi" in texts(app)
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1


@pytest.mark.parametrize(("kind", "party"), [("authority", AUTHORITY), ("contractor", CONTRACTOR)])
def test_follow_on_a_profile_follows_the_party(live, make_key, kind, party):
    key = make_key()
    app = save(page("views/profile.py", key=key, lang="en", kind=kind, id=party, period="2024"))
    assert not app.error, [e.value for e in app.error]
    [saved] = held(live, key)
    assert saved["filters"] == {kind: party}
    assert saved["name"] == f"{text('kind_' + kind, 'en')} {party}"


def test_watchlists_page_lists_each_with_its_new_awards_and_deletes(live, make_key):
    key, other = make_key(), make_key()
    made = [call(live, "POST", "/watchlists", key, json=body).json() for body in (
        {"name": "Ankara'nın idaresi", "filters": {"authority": AUTHORITY}},
        {"name": "Büyük inşaat", "filters": {"sector": 23, "flag": ["single-bid"], "minValue": 1000}})]
    call(live, "POST", "/watchlists", other, json={"name": "Someone else's", "filters": {}})
    app = page("views/watchlists.py", key=key, lang="en")
    assert not app.error, [e.value for e in app.error]
    # Newest first, the other key's not shown.
    assert [h.value.replace("\\", "") for h in app.subheader] == ["Büyük inşaat", "Ankara'nın idaresi"]
    said = texts(app)
    assert "Authority A000040" in said and "Flag: Single valid bid" in said and "At least TRY 1,000" in said
    assert said.count("Weekly digest: none") == 2
    # The demo is the only release loaded: every matching award is new, and the tables hold them all.
    assert said.count(text("new_since_first", "en")) == 2
    for shown, watched in zip(app.dataframe, reversed(made), strict=True):
        new = call(live, "GET", f"/watchlists/{watched['id']}/awards", key, params={"limit": 100}).json()
        assert len(shown.value) == min(100, new["total"]) > 0
        assert list(shown.value["İKN"]) == [item["tenderId"] for item in new["items"]]
    explorer = [query for target, query in links(app) if target == "awards"]
    assert explorer == [{"sector": ["23"], "flag": ["single-bid"], "minValue": ["1000"], "lang": ["en"]},
                        {"authority": [AUTHORITY], "lang": ["en"]}]
    app.button(key=f"delete_{made[0]['id']}").click().run()
    assert not app.exception, app.exception
    assert [w["id"] for w in held(live, key)] == [made[1]["id"]]
    assert "“Ankara'nın idaresi” was deleted." in texts(app)
    assert [h.value for h in app.subheader] == ["Büyük inşaat"]
    assert len(held(live, other)) == 1


def test_watchlists_page_says_the_digest_address_state(live, loaded_app, make_key, monkeypatch, tmp_path):
    import api.mail

    monkeypatch.setattr(api.mail, "VAR_DIR", tmp_path)
    monkeypatch.setitem(loaded_app.config, "PUBLIC_BASE_URL", "http://gosterge.test")
    key = make_key()
    call(live, "POST", "/watchlists", key, json={"name": "Mail", "filters": {}, "notify": "a@example.com"})
    app = page("views/watchlists.py", key=key, lang="tr")
    assert "Haftalık özet: a@example.com onay bekliyor" in texts(app)
    # The address's owner follows the mail's link and presses its button: the page says it is confirmed.
    mail = message_from_bytes(next((tmp_path / "outbox").glob("*.eml")).read_bytes())
    token = mail.get_payload(decode=True).decode().split("token=")[1].split()[0]
    requests.post(f"{live.url}{PP}/digests/confirm", params={"token": token}, data={"confirm": "yes"},
                  timeout=10).raise_for_status()
    app = page("views/watchlists.py", key=key, lang="en")
    assert "Weekly digest: a@example.com confirmed" in texts(app)
    # Unsubscribing is a digest's link (a release's mail); its effect on the row is what the page reads.
    from sqlalchemy import update

    from store.db import session_scope
    from store.models import Watchlist

    with session_scope(loaded_app.extensions["gosterge.sessions"]) as session:
        session.execute(update(Watchlist).values(unsubscribed=True))
    app = page("views/watchlists.py", key=key, lang="tr")
    assert "Haftalık özet: a@example.com abonelikten çıktı" in texts(app)


def test_a_visitor_enters_their_own_key_on_the_api_key_page(live, make_key):
    app = page("views/api_key.py", lang="en")
    app.text_input(key="w_own_key").input("gk_not_a_key")
    next(b for b in app.button if b.label == text("own_key_use", "en")).click()
    app.run()
    assert app.error and "visitor_key" not in app.session_state
    key = make_key()
    app.text_input(key="w_own_key").input(key)
    next(b for b in app.button if b.label == text("own_key_use", "en")).click()
    app.run()
    assert app.session_state["visitor_key"] == key
    assert f"(…{key[-4:]})" in texts(app)
    app.button(key="w_own_key_forget").click().run()
    assert "visitor_key" not in app.session_state


def test_watchlist_labels_join_the_one_catalogue_in_two_languages():
    from dashboard import i18n
    from dashboard.i18n_watchlists import WATCH_LABELS

    assert not set(WATCH_LABELS) & (i18n.LABELS.keys() - WATCH_LABELS.keys())
    assert all(tr and en and tr != en for tr, en in WATCH_LABELS.values())


def test_the_filters_shown_are_the_filters_saved_and_the_address_they_open():
    from dashboard.watchlists import chosen_filters, explorer_query

    shown = {**ADDRESS, "flag": ["single-bid", "winner-share"], "minValue": 2_500_000.0, "contractor": ""}
    saved = chosen_filters(shown)
    assert saved == {**{k: v for k, v in ADDRESS.items() if k != "contractor"},
                     "flag": ["single-bid", "winner-share"], "minValue": 2_500_000}
    assert explorer_query(saved, "tr") == {**{k: v for k, v in ADDRESS.items() if k != "contractor"}, "lang": "tr"}
    assert chosen_filters({"minValue": "-5", "flag": "", "sector": None}) == {}
    assert chosen_filters({"minValue": "12.5"}) == {"minValue": 12.5}


def test_the_digest_mail_links_to_the_explorer_by_the_names_it_reads():
    from api.watchmail import dashboard_link

    link = urlsplit(dashboard_link("http://dashboard.test/", SAVED) or "")
    assert link.path == "/awards" and dict(parse_qsl(link.query)) == ADDRESS


def test_the_fifty_first_follow_is_refused_in_the_pages_language(live, make_key):
    key = make_key()
    for n in range(50):
        call(live, "POST", "/watchlists", key, json={"name": f"L{n}", "filters": {}}).raise_for_status()
    app = save(page("views/awards.py", key=key, lang="tr", sector="23"), "tr")
    assert [e.value for e in app.error] == [text("follow_too_many", "tr")]
    assert len(held(live, key)) == 50
