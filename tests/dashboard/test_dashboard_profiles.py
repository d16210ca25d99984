"""The party search, the profiles and the awards explorer, run by Streamlit's AppTest against a real API on
loopback (the `live` fixture), in Turkish and English."""

from __future__ import annotations

import csv
import io
import json
import os
from urllib.parse import parse_qs

import pytest
import requests

from tests.dashboard.test_dashboard import run

PP = "/v1/public-procurement"


def _api(live, path: str, **params: object) -> dict:
    answer = requests.get(f"{live.url}{PP}{path}", params=params, timeout=10,
                          headers={"Authorization": f"Bearer {os.environ['GOSTERGE_API_KEY']}"})
    answer.raise_for_status()
    return answer.json()


def _quiet(app) -> None:  # noqa: ANN001
    assert not app.exception, app.exception
    assert not app.error, [e.value for e in app.error]


def _captions(app) -> str:  # noqa: ANN001
    """Every caption as the reader sees it (Markdown escapes are not visible)."""
    return " ".join(c.value for c in app.caption).replace("\\", "")


def _links(app) -> list[dict[str, list[str]]]:  # noqa: ANN001
    return [parse_qs(link.proto.query_string) for link in app.get("page_link")]


def _busiest(live, kind: str) -> dict:
    """The party of `kind` with the most contracts, by the API's own search."""
    return _api(live, f"/{kind}", q="a" if kind == "contractors" else "kurum", limit=1)["items"][0]


@pytest.mark.parametrize("language", ["tr", "en"])
def test_new_pages_render_in_both_languages(live, language):
    authority, contractor = _busiest(live, "authorities"), _busiest(live, "contractors")
    for page, query in (("views/profile.py", {"kind": "authority", "id": authority["id"]}),
                        ("views/profile.py", {"kind": "contractor", "id": contractor["id"], "period": "2024"}),
                        ("views/profile.py", {}),
                        ("views/awards.py", {}),
                        ("views/awards.py", {"sector": "24", "sort": "value", "flag": "single-bid"})):
        app = run(page, lang=language, **query)
        _quiet(app)
        assert app.title, (page, query)
        if query.get("id"):
            assert app.title[0].value.replace("\\", "") == (authority if query["kind"] == "authority"
                                                            else contractor)["name"]
            assert len(app.get("plotly_chart")) >= 3  # value by year, sectors, the map


def run_search(live, words: str, language: str = "en"):  # noqa: ANN201
    app = run("views/overview.py", lang=language)
    app.sidebar.text_input(key="w_find").input(words).run()
    return app


def test_search_finds_a_party_whatever_the_turkish_spelling(live):
    found = []
    for words in ("istanbul", "İSTANBUL", "Istanbul", "ıstanbul"):
        app = run_search(live, words, "tr")
        _quiet(app)
        found.append([(link["kind"][0], link["id"][0]) for link in _links(app)])
    assert found[0] and all(f == found[0] for f in found), found
    expected = [("authority", item["id"]) for item in _api(live, "/authorities", q="istanbul", limit=5)["items"]]
    assert found[0][:len(expected)] == expected
    labels = [link.value for link in run_search(live, "istanbul").get("page_link")]
    assert all("İstanbul" in label for label in labels)


def test_search_result_opens_the_profile_in_the_readers_language(live):
    app = run_search(live, "istanbul", "en")
    link = app.get("page_link")[0]
    assert link.proto.page.endswith("profile") and parse_qs(link.proto.query_string)["lang"] == ["en"]
    none = run_search(live, "zzzz qqqq", "tr")
    assert "Bu adla idare ya da yüklenici bulunamadı." in _captions(none)


@pytest.mark.parametrize("language", ["tr", "en"])
def test_profile_shows_every_share_and_mean_with_its_count(live, language):
    party = _busiest(live, "authorities")
    profile = _api(live, f"/authorities/{party['id']}")
    captions = _captions(run("views/profile.py", lang=language, kind="authority", id=party["id"]))
    single, discount, local = (f"{100 * profile[f]:.1f}" for f in ("singleBidShare", "averageDiscount", "localShare"))
    if language == "en":
        assert f"{single}% of {profile['lotsWithBids']} lots" in captions
        assert f"{discount}% over {profile['discountTenders']} tenders" in captions
        assert f"{local}% of {profile['localShareContracts']} contracts" in captions
        assert f"of the authority's {profile['contracts']} contracts" in captions
    else:
        assert f"%{single.replace('.', ',')} ({profile['lotsWithBids']} kısım üzerinden)" in captions
        assert f"%{discount.replace('.', ',')} ({profile['discountTenders']} ihale üzerinden)" in captions


@pytest.mark.parametrize(("language", "lots", "contracts"), [
    ("tr", "Sayılan: teklif alan kısımlar", "Sayılan: dönemin tüm sözleşmeleri"),
    ("en", "Counts lots that received bids", "Counts every contract of the period")])
def test_the_two_single_bid_figures_say_what_they_count(live, language, lots, contracts):
    """The single-bid share (of lots with bids) and the single-valid-bid flag (of contracts) differ by their
    definitions: the card says it counts lots, each red-flag card that it counts contracts."""
    party = _busiest(live, "authorities")
    profile = _api(live, f"/authorities/{party['id']}")
    app = run("views/profile.py", lang=language, kind="authority", id=party["id"])
    captions = [c.value for c in app.caption]
    assert sum(c.startswith(lots) for c in captions) == 1
    assert sum(c.startswith(contracts) for c in captions) == len(profile["flags"]) > 0


def _small_authority(live) -> dict:
    """An authority whose profile rests on fewer than five lots with bids (but some)."""
    for item in _api(live, "/authorities", q="kurum", limit=200)["items"]:
        if 0 < item["contracts"] < 5:
            profile = _api(live, f"/authorities/{item['id']}")
            if 0 < profile["lotsWithBids"] < 5:
                return profile
    pytest.fail("the demo release has no authority with fewer than five lots with bids")


@pytest.mark.parametrize(("language", "words"), [("tr", "5'ten az vakaya dayanıyor"),
                                                 ("en", "Rests on fewer than 5 cases")])
def test_a_figure_on_fewer_than_five_cases_says_so(live, language, words):
    small = _small_authority(live)
    app = run("views/profile.py", lang=language, kind="authority", id=small["id"])
    _quiet(app)
    assert words in _captions(app)
    busiest = _api(live, f"/authorities/{_busiest(live, 'authorities')['id']}")
    busy = run("views/profile.py", lang=language, kind="authority", id=busiest["id"])
    warned = [c.value for c in busy.caption if words in c.value.replace("\\", "")]
    counts = [busiest[f] for f in ("contracts", "lotsWithBids", "discountTenders", "localShareContracts")]
    assert len(warned) == sum(0 < n < 5 for n in counts)  # only the figures on few cases are marked


@pytest.mark.parametrize(("language", "words"), [("tr", "Sunulan yayında bu numarayla bir yüklenici yok: X999."),
                                                 ("en", "There is no contractor with this id in the release served")])
def test_an_unknown_party_is_said_in_the_readers_language(live, language, words):
    app = run("views/profile.py", lang=language, kind="contractor", id="X999")
    assert not app.exception and words in " ".join(e.value for e in app.error).replace("\\", "")


def test_awards_filters_live_in_the_address(live):
    # A sector of the demo with single-bid awards in 2024, as the API finds it.
    sector = str(_api(live, "/awards", period=2024, flag="single-bid", limit=1)["items"][0]["sector"])
    app = run("views/awards.py", lang="en", sector=sector, period="2024", sort="value", flag="single-bid")
    _quiet(app)
    assert app.sidebar.selectbox(key="w_sector").value == sector
    assert app.sidebar.selectbox(key="w_period").value == "2024"
    assert app.sidebar.selectbox(key="w_sort").value == "value"
    assert app.sidebar.multiselect(key="w_flag").value == ["single-bid"]
    shown = app.dataframe[0].value
    expected = _api(live, "/awards", sector=sector, period=2024, sort="value", flag="single-bid", limit=100)["items"]
    assert list(shown["İKN"]) == [a["tenderId"] for a in expected]
    assert (shown["Sector"] == int(sector)).all() and shown["Contract value (TRY)"].is_monotonic_decreasing
    app.sidebar.selectbox(key="w_procedure").select("open").run()
    app.sidebar.text_input(key="w_party_authority").input(expected[0]["authority"]["id"]).run()
    _quiet(app)
    assert app.query_params["procedure"] in ("open", ["open"])
    assert app.query_params["authority"] in (expected[0]["authority"]["id"], [expected[0]["authority"]["id"]])
    assert (app.dataframe[0].value["Authority id"] == expected[0]["authority"]["id"]).all()
    app.sidebar.selectbox(key="w_sector").select("").run()
    assert "sector" not in app.query_params  # "every sector" leaves the address


def test_awards_csv_keeps_the_apis_fields_and_ids(live, monkeypatch):
    from dashboard import ui

    sent = {}
    real = ui.st.download_button
    monkeypatch.setattr(ui.st, "download_button", lambda label, data, **kw: (sent.update({kw["key"]: data}),
                                                                              real(label, data, **kw))[1])
    app = run("views/awards.py", lang="tr", sector="24")
    _quiet(app)
    rows = list(csv.DictReader(io.StringIO(sent["csv_awards"].decode("utf-8"))))
    expected = _api(live, "/awards", sector=24, limit=100)["items"]
    assert len(rows) == len(expected) == len(app.dataframe[0].value)
    first, item = rows[0], expected[0]
    assert first["tenderId"] == item["tenderId"] and first["authority.id"] == item["authority"]["id"]
    assert first["sector"] == "24" and first["flags"] == ",".join(item["flags"])
    assert float(first["contractValue"]) == item["contractValue"]


def _award_with_benchmark(live, *, enough: bool) -> dict:
    """An award of an open procedure in 2024, with a discount of its own, whose sector holds at least five such
    tenders (`enough`) or fewer: every sector's group asked for at once, so that the search costs a few credits."""
    sectors = ",".join(str(s["id"]) for s in _api(live, "/sectors")["items"])
    groups = {g["sector"]: g for g in _api(live, "/discount-benchmarks", sector=sectors, procedure="open",
                                           period=2024, limit=200)["items"]}
    for award in _api(live, "/awards", period=2024, procedure="open", limit=200)["items"]:
        group = groups.get(award["sector"])
        if award["discount"] is not None and group and (group["n"] >= 5) == enough:
            return {**award, "group": group}
    pytest.fail("no such award in the demo release")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_a_selected_award_is_placed_in_its_benchmark(live, language):
    award = _award_with_benchmark(live, enough=True)
    app = run("views/awards.py", lang=language, sector=str(award["sector"]), period=award["tenderDate"][:4],
              ikn=award["tenderId"], lot=str(award["lot"]))
    _quiet(app)
    figure = json.loads(app.get("plotly_chart")[-1].proto.spec)
    marked = figure["data"][-1]
    assert marked["x"] == [award["discount"]]
    assert [t["x"] for t in figure["data"][:1]] == [[award["group"]["p10"], award["group"]["p90"]]]
    rests = {"tr": f"Dağılım {award['group']['n']} ihaleye dayanıyor.",
             "en": f"The distribution rests on {award['group']['n']} tenders."}[language]
    assert rests in _captions(app)


@pytest.mark.parametrize(("language", "words"), [("tr", "5'ten az olduğu için dağılımı verilmiyor"),
                                                 ("en", "fewer than 5, so no distribution is given")])
def test_a_benchmark_group_of_fewer_than_five_tenders_says_so(live, language, words):
    award = _award_with_benchmark(live, enough=False)
    app = run("views/awards.py", lang=language, sector=str(award["sector"]), period=award["tenderDate"][:4],
              ikn=award["tenderId"], lot=str(award["lot"]))
    _quiet(app)
    assert any(words in w.value for w in app.warning), [w.value for w in app.warning]


def test_selecting_a_row_puts_the_award_in_the_address(live):
    app = run("views/awards.py", lang="en")
    assert "ikn" not in app.query_params
    grid = app.dataframe[0]
    app.session_state[grid.key] = {"selection": {"rows": [1], "columns": []}}
    app.run()
    _quiet(app)
    second = _api(live, "/awards", limit=2)["items"][1]
    assert app.query_params["ikn"] in (second["tenderId"], [second["tenderId"]])
    assert app.query_params["lot"] in (str(second["lot"]), [str(second["lot"])])
    assert any(link.proto.query_string.endswith(f"id={second['contractor']['id']}&lang=en")
               for link in app.get("page_link"))


@pytest.mark.parametrize("kind", ["authority", "contractor"])
def test_a_profiles_awards_leave_out_its_own_party_on_screen_but_not_in_the_csv(live, kind, monkeypatch):
    """On a party's own profile its name, type and province would fill a column each with one value, and
    push the tender's name off a 1,400 px screen; the CSV keeps them."""
    from dashboard import ui

    sent = {}
    real = ui.st.download_button
    monkeypatch.setattr(ui.st, "download_button", lambda label, data, **kw: (sent.update({kw["key"]: data}),
                                                                              real(label, data, **kw))[1])
    party = _busiest(live, "authorities" if kind == "authority" else "contractors")
    app = run("views/profile.py", lang="en", kind=kind, id=party["id"])
    _quiet(app)
    awards = app.dataframe[-1].value
    own, other = ("Authority", "Contractor") if kind == "authority" else ("Contractor", "Authority")
    assert other in awards.columns and own not in awards.columns, list(awards.columns)
    assert "Tender name" in awards.columns
    exported = next(data for key, data in sent.items() if key.endswith("-awards"))
    rows = list(csv.DictReader(io.StringIO(exported.decode("utf-8"))))
    assert rows and all(row[f"{kind}.id"] == party["id"] for row in rows)


def test_profile_links_its_counterparts_and_flags(live, monkeypatch):
    party = _busiest(live, "contractors")
    app = run("views/profile.py", lang="en", kind="contractor", id=party["id"])
    _quiet(app)
    counterparts = app.dataframe[0].value
    profile = _api(live, f"/contractors/{party['id']}")
    top = profile["topAuthorities"][0]
    assert counterparts.iloc[0]["Profile"] == f"profile?kind=authority&id={top['id']}&lang=en"
    assert counterparts.iloc[0]["Share"] == pytest.approx(top["share"])
    flagged = [f for f in profile["flags"] if f["contracts"]]
    to_awards = [parse_qs(link.proto.query_string) for link in app.get("page_link") if "flag=" in link.proto.query_string]
    assert [q["flag"][0] for q in to_awards] == [f["flag"] for f in flagged]
    assert all(q["contractor"] == [party["id"]] for q in to_awards)


@pytest.mark.parametrize(("language", "first"), [
    ("en", ["Contract value (TRY)", "Contractor", "Red flags", "Authority"]),
    ("tr", ["Sözleşme bedeli (TL)", "Yüklenici", "Kırmızı bayraklar", "İdare"])])
def test_the_awards_table_opens_with_what_an_analyst_reads_first(live, language, first):
    """Value, contractor, flags and buyer come first, so a table 1,400 px wide shows them without scrolling;
    the CSV keeps the API's field names in the same order."""
    app = run("views/awards.py", lang=language, sort="value")
    _quiet(app)
    assert list(app.dataframe[0].value.columns[:4]) == first
