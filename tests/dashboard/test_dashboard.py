"""Every dashboard page, run by Streamlit's AppTest against a real API on loopback."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from loaders.news.sample import load_sample
from tests.helpers import ROOT, LiveServer

APP = str(ROOT / "dashboard" / "app.py")
PAGES = ["views/overview.py", "views/competition.py", "views/direct.py", "views/localization.py",
         "views/province_sectors.py", "views/flows.py", "views/rankings.py", "views/news.py", "views/api_key.py",
         "views/admin.py", "views/awards.py", "views/profile.py", "views/watchlists.py"]


# Pages whose address (dashboard/app.py's url_path) is their file's name. Before its first run AppTest
# knows a page by its file's name alone: these are opened on the first run, the others after a run of
# the default page has registered every address (a run of the overview, with its requests, the first
# saves).
NAMED_AS_FILES = {"overview", "competition", "direct", "rankings", "awards", "profile", "news", "admin"}


def run(page: str | None = None, **query: str) -> AppTest:
    app = AppTest.from_file(APP, default_timeout=60)
    for name, value in query.items():
        app.query_params[name] = value
    if page and Path(page).stem in NAMED_AS_FILES:
        app.switch_page(page)
    else:
        app.run()
        if page:
            app.switch_page(page)
    app.run()
    return app


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_without_errors(live, page):
    app = run(page)
    assert not app.exception, app.exception
    assert not app.error, [e.value for e in app.error]
    assert app.title


def test_overview_shows_synthetic_badge_and_figures(live):
    app = run("views/overview.py")
    assert any("SENTETİK" in w.value for w in app.warning)
    assert len(app.metric) == 5


def _numbers(frame: pd.DataFrame) -> pd.DataFrame:
    """An English table as numbers: a column holding an empty cell is shown as text (1,234.56, and – for the
    empty cell), since the grid would write a null as "None"."""
    def number(value):  # noqa: ANN001, ANN202
        if not isinstance(value, str):
            return value
        try:
            return float("nan") if value == "–" else float(value.replace(",", ""))
        except ValueError:  # a word (the breakdown's name)
            return value

    return frame.apply(lambda column: column.map(number))


def test_direct_amounts_in_real_terms(live):
    from dashboard.prices import real_factor
    from store.reference.prices import december_cpi

    nominal = _numbers(run("views/direct.py", lang="en").dataframe[0].value.set_index("Period"))
    real = _numbers(run("views/direct.py", lang="en", prices="2024").dataframe[0].value.set_index("Period"))
    for year in ("2019", "2022", "2024"):
        assert real.loc[year, "Total (TRY)"] == pytest.approx(nominal.loc[year, "Total (TRY)"] * real_factor(december_cpi(), year, 2024))
        assert real.loc[year, "Median (TRY)"] == pytest.approx(nominal.loc[year, "Median (TRY)"] * real_factor(december_cpi(), year, 2024))
    assert real.loc["2019", "Total (TRY)"] > nominal.loc["2019", "Total (TRY)"]
    assert pd.isna(real.loc["All years", "Total (TRY)"])  # an all-years total has no single price level
    assert real.loc["2024", "Purchases"] == nominal.loc["2024", "Purchases"]  # counts are not amounts
    captions = " ".join(c.value for c in run("views/direct.py", lang="en", prices="2024").caption)
    assert "December 2024 prices" in captions and "TÜİK" in captions and "runs through December 2025" in captions
    # 2025 has a value in its own December's prices; the note is Turkish on the Turkish page.
    turkish = run("views/direct.py", prices="2025")
    assert "Aralık 2025 ayına kadardır" in " ".join(c.value for c in turkish.caption)
    assert "December index" not in " ".join(c.value for c in turkish.caption)
    assert turkish.dataframe[0].value.set_index("Dönem").loc["2025", "Toplam (TL)"] not in ("–", None)


def test_language_switch_changes_labels_and_headlines(live):
    turkish = run("views/news.py", lang="tr")
    english = run("views/news.py", lang="en")
    assert turkish.title[0].value == "Haberler" and english.title[0].value == "News"
    assert any("Fed" in m.value for m in turkish.markdown) and any("Fed holds" in m.value for m in english.markdown)


def test_news_filter_changes_what_is_asked(live):
    app = run("views/news.py", lang="en")
    app.sidebar.multiselect[0].select("sec").run()
    captions = " ".join(c.value for c in app.caption).replace("\\", "")  # as shown: escapes are not visible
    assert "SEC 8-K filings" in captions and "Federal Reserve" not in captions


def test_dimension_picker_reaches_the_api(live):
    app = run("views/competition.py", dimension="province", subject="34")
    assert not app.error
    assert app.query_params["dimension"] == ["province"] or app.query_params["dimension"] == "province"


def test_api_errors_show_as_messages(live, monkeypatch):
    monkeypatch.setenv("GOSTERGE_API_KEY", "gk_wrong")
    st.cache_data.clear()
    st.cache_resource.clear()
    app = run("views/overview.py")
    assert any("API key" in e.value for e in app.error)
    assert not app.exception


def test_client_revalidates_with_etag(live):
    from dashboard.client import ApiClient
    from dashboard.settings import load_settings

    client = ApiClient(load_settings())
    first = client.get("/v1/public-procurement/supply-flows", {"limit": 3})
    again = client.get("/v1/public-procurement/supply-flows", {"limit": 3})
    assert again == first and client.not_modified == 1


def test_news_filters_live_in_the_url(live):
    app = run("views/news.py", lang="en", source="ecb", minImportance="4")
    captions = " ".join(c.value for c in app.caption)
    assert "European Central Bank" in captions and "Federal Reserve" not in captions
    app.sidebar.multiselect[0].select("fed").run()
    assert app.query_params["source"] in ("ecb,fed", ["ecb,fed"])


def test_api_values_in_pickers_are_shown_in_the_readers_language(live):
    turkish = run("views/competition.py", lang="tr")
    english = run("views/competition.py", lang="en")
    dimension_tr, dimension_en = turkish.sidebar.selectbox[0], english.sidebar.selectbox[0]
    assert dimension_tr.value == dimension_en.value == "overall"  # the URL keeps the API's value
    assert "Türkiye geneli" in dimension_tr.options and "Türkiye as a whole" in dimension_en.options
    assert "İdare türü" in dimension_tr.options


@pytest.mark.parametrize("page", ["views/province_sectors.py", "views/flows.py", "views/rankings.py"])
def test_pooled_amounts_say_they_are_nominal(live, page):
    captions = " ".join(c.value for c in run(page, lang="en").caption)
    assert "nominal TRY" in captions and "Direct procurement" in captions


def _api(live, path: str) -> dict:
    import os

    import requests

    answer = requests.get(f"{live.url}{path}", headers={"Authorization": f"Bearer {os.environ['GOSTERGE_API_KEY']}"},
                          timeout=10)
    answer.raise_for_status()
    return answer.json()


def _by_period(live, endpoint: str, field: str) -> dict[str, float]:
    items = _api(live, f"/v1/public-procurement/{endpoint}?dimension=overall&limit=200")["items"]
    return {item["period"]: item[field] for item in items}


@pytest.mark.parametrize("language", ["tr", "en"])
def test_headline_figures_use_the_latest_complete_year(live, language):
    from dashboard.formats import number, short_money

    tenders = _by_period(live, "competition-indices", "tenders")
    direct = _by_period(live, "direct-procurement-indices", "total")
    assert max(p for p in tenders if p != "all") > "2024"  # the release holds partial years after 2024
    metrics = {m.label: m for m in run("views/overview.py", lang=language).metric}
    names = {"tr": ("İhale sayısı · 2024", "Doğrudan temin toplamı · 2025"),
             "en": ("Tenders · 2024", "Direct procurement total · 2025")}[language]
    assert set(names) <= set(metrics), list(metrics)
    card = metrics[names[0]]
    assert card.value == number(tenders["2024"], language)
    assert card.delta == number(tenders["2024"] - tenders["2023"], language)  # 2023 and 2024 are complete
    # 2024 is partial for direct procurement: the 2025 figure is shown without a change.
    assert metrics[names[1]].value == short_money(direct["2025"], language)
    assert not metrics[names[1]].delta
    assert all("2025" not in label and "2026" not in label for label in metrics if label != names[1])


def test_headline_figures_are_written_in_the_readers_conventions(live):
    turkish = {m.label.split(" · ")[0]: m.value for m in run("views/overview.py", lang="tr").metric}
    english = {m.label.split(" · ")[0]: m.value for m in run("views/overview.py", lang="en").metric}
    assert turkish["Tek teklifli pay"].startswith("%") and "," in turkish["Tek teklifli pay"]
    assert english["Single-bid share"].endswith("%") and "." in english["Single-bid share"]
    assert turkish["Doğrudan temin toplamı"].endswith(" ₺") and "milyon" in turkish["Doğrudan temin toplamı"]
    assert english["Direct procurement total"].startswith("TRY ") and "million" in english["Direct procurement total"]


def test_map_year_opens_on_the_latest_complete_year_and_lives_in_the_url(live):
    app = run("views/competition.py", lang="en", dimension="province")
    assert not app.exception and not app.error
    year = next(s for s in app.selectbox if s.label == "Year on the map")
    assert year.value == "2024" and app.query_params["year"] in ("2024", ["2024"])
    assert "2025 (partial)" in year.options
    assert not [w for w in app.warning if "partial year" in w.value]
    partial = run("views/competition.py", lang="en", dimension="province", year="2025", measure="hhi")
    assert next(s for s in partial.selectbox if s.label == "Shown on the map").value == "hhi"
    assert any("2025 is a partial year in the source" in w.value for w in partial.warning)
    assert any("Natural Earth" in c.value for c in partial.caption)


@pytest.mark.parametrize(("page", "query"), [
    ("views/competition.py", {"dimension": "province"}),
    ("views/direct.py", {"dimension": "province", "prices": "2024"}),
    ("views/localization.py", {"dimension": "province", "year": "all"}),
    ("views/localization.py", {"dimension": "sector"}),
    ("views/flows.py", {"buyer": "6"}),
])
def test_map_pages_render_in_both_languages(live, page, query):
    for language in ("tr", "en"):
        app = run(page, lang=language, **query)
        assert not app.exception, app.exception
        assert not app.error, [e.value for e in app.error]


def test_map_of_amounts_says_when_it_is_in_real_terms(live):
    import json

    def titles(app: AppTest) -> list[str]:
        return [json.loads(chart.proto.spec)["layout"]["title"]["text"] for chart in app.get("plotly_chart")]

    nominal = titles(run("views/direct.py", lang="en", dimension="province", year="2024"))
    real = titles(run("views/direct.py", lang="en", dimension="province", year="2024", prices="2024"))
    quintiles = "<br><sup>Colours by quintile: each colour holds a fifth of the provinces.</sup>"
    assert real[0] == f"Direct procurement total by province · 2024 (partial) · In December 2024 prices (real){quintiles}"
    assert nominal[0] == f"Direct procurement total by province · 2024 (partial){quintiles}"


def test_map_colour_scale_lives_in_the_address_and_is_named_on_the_chart(live):
    import json

    amounts = run("views/direct.py", lang="en", dimension="province")
    assert amounts.query_params["scale"] in ("quantile", ["quantile"])  # amounts open on quintiles
    shares = run("views/competition.py", lang="en", dimension="province")
    assert shares.query_params["scale"] in ("linear", ["linear"])
    log = run("views/direct.py", lang="tr", dimension="province", scale="log")
    assert next(s for s in log.selectbox if s.label == "Renk ölçeği").value == "log"
    title = json.loads(log.get("plotly_chart")[0].proto.spec)["layout"]["title"]["text"]
    assert "logaritmik" in title


def test_news_times_are_in_turkiyes_time(live):
    from dashboard.formats import local_time

    first = _api(live, "/v1/finance-news/articles?limit=1")["items"][0]
    captions = " ".join(c.value for c in run("views/news.py", lang="en").caption).replace("\\", "")
    assert local_time(first["publishedAt"], "en") in captions
    assert first["publishedAt"].replace("T", " ")[:16] not in captions


def test_csv_download_quotes_cells_a_spreadsheet_would_run(monkeypatch):
    from dashboard import ui

    sent = {}
    monkeypatch.setattr(ui.st, "dataframe", lambda *args, **kwargs: None)
    monkeypatch.setattr(ui.st, "download_button", lambda label, data, **kwargs: sent.update(data=data))
    ui.table(pd.DataFrame({"name": ["=HYPERLINK(\"http://evil\")", "@SUM(A1)"], "amount": [-1.5, 2.0]}), name="x")
    import csv
    import io

    rows = list(csv.reader(io.StringIO(sent["data"].decode("utf-8"))))
    assert rows[1:] == [["'=HYPERLINK(\"http://evil\")", "-1.5"], ["'@SUM(A1)", "2.0"]]


def test_tables_are_written_in_the_readers_language(monkeypatch):
    from dashboard import ui

    shown = {}
    monkeypatch.setattr(ui.st, "dataframe", lambda data, **kwargs: shown.update(data=data))
    monkeypatch.setattr(ui.st, "download_button", lambda *args, **kwargs: None)
    monkeypatch.setattr(ui, "lang", lambda: "tr")
    frame = pd.DataFrame({"period": ["2024", "all"], "subject": [None, None],
                          "singleBidShare": pd.Series([0.4, None], dtype=object), "total": [1234567.891, 2.0],
                          "loadedAt": ["2026-09-15T21:00:00Z", None]})
    ui.table(frame, name="x")
    html = shown["data"].to_html()
    assert "%40,0" in html and "1.234.567,89" in html and "16.09.2026 00:00" in html and "Tüm yıllar" in html
    # A column of figures holding a null (an object column from the API's JSON) is written out in the
    # reader's format with a dash for the null: Streamlit's grid would show its own "None" otherwise.
    assert list(shown["data"].data.columns) == ["Dönem", "Tek teklifli pay", "Toplam (TL)", "Yüklenme"]
    assert list(shown["data"].data["Tek teklifli pay"]) == ["%40,0", "–"]
    assert shown["data"].data["Toplam (TL)"].dtype.kind == "f"  # a column without a null stays numbers, for sorting


@pytest.fixture
def recent_only(app, make_key, tmp_path, monkeypatch):
    """A release like an import of EKAP records of 2025-2026: no record of the source's complete
    years (2019-2024) and no direct purchases."""
    from loaders.procurement.load import load_release
    from tests.helpers import write_release
    from tests.loaders.test_procurement_statistics import TABLES

    shifted = {name: [dict(row) for row in rows] for name, rows in TABLES.items() if name != "direct_purchases.csv"}
    for row in shifted["tenders.csv"]:
        row["tender_date"] = row["tender_date"].replace("2024-", "2026-")
    load_release(write_release(tmp_path / "recent", shifted), app.extensions["gosterge.sessions"])
    load_sample(app.extensions["gosterge.sessions"])
    with LiveServer(app) as server:
        monkeypatch.setenv("GOSTERGE_API_URL", server.url)
        monkeypatch.setenv("GOSTERGE_API_KEY", make_key())
        st.cache_data.clear()
        st.cache_resource.clear()
        yield server


@pytest.mark.parametrize(("language", "partial", "no_purchases"), [
    ("tr", "2026 (kısmi)", "Bu yayında hiç doğrudan temin kaydı yok."),
    ("en", "2026 (partial)", "This release has no direct purchases.")])
def test_a_release_of_recent_records_opens_on_its_own_years_and_says_what_it_lacks(recent_only, language, partial,
                                                                                  no_purchases):
    overview = run("views/overview.py", lang=language)
    assert not overview.exception, overview.exception
    labels = [m.label for m in overview.metric]
    assert labels[0].endswith(f" · {partial}"), labels  # tenders of the latest year with records, marked
    assert overview.metric[0].value == "2"
    assert not any("2024" in label for label in labels)
    assert no_purchases in [c.value for c in overview.caption]
    direct = run("views/direct.py", lang=language)
    assert no_purchases in [i.value for i in direct.info]


def test_tables_show_empty_cells_as_a_dash(monkeypatch):
    from dashboard import ui

    shown = {}
    monkeypatch.setattr(ui.st, "dataframe", lambda data, **kwargs: shown.update(data=data))
    monkeypatch.setattr(ui.st, "download_button", lambda *args, **kwargs: None)
    monkeypatch.setattr(ui, "lang", lambda: "en")
    ui.table(pd.DataFrame({"release": ["2026-W47", "2026-W48"], "uploadedBy": ["demo", None],
                           "total": [1.5, None]}), name="x")
    html = shown["data"].to_html()
    assert "None" not in html and "nan" not in html.lower().replace("nan-", "")
    assert html.count(">–<") == 2


def test_rankings_open_on_turkiye_with_the_national_top_ten(live):
    """The page opens on Türkiye as a whole: its tables are the API's national top ten (no province or sector)."""
    app = run("views/rankings.py", lang="en")
    assert app.sidebar.selectbox[0].value == "overall" and "Türkiye as a whole" in app.sidebar.selectbox[0].options
    national = _api(live, "/v1/public-procurement/top-contractors?method=tender")["items"]
    shown = app.dataframe[1].value
    assert shown["Name"].tolist() == [item["name"] for item in national]
    assert not any("No data" in i.value for i in app.info)
    direct = run("views/rankings.py", lang="en", method="direct")
    assert direct.sidebar.selectbox[1].options == ["Tender", "Direct purchase"] and len(direct.dataframe) == 2


def test_news_says_per_article_who_wrote_it_and_has_no_english_on_the_turkish_side(live):
    """The demo feed is the curated sample: each article says it was written by hand, not by a model; the
    Turkish sidebar's placeholders are Turkish."""
    turkish = run("views/news.py", lang="tr")
    captions = [c.value for c in turkish.caption]
    assert sum("Elle yazılmış örnek haber" in c for c in captions) == len(turkish.get("link_button")) > 0
    assert not any("Bir dil modeli yazdı" in c for c in captions)
    assert turkish.text_input(key="w_tags").placeholder == "Konu sözcükleri (İngilizce)"
    assert all(turkish.selectbox(key=key).placeholder == "Seçin" for key in ("w_category", "w_sentiment"))


def test_news_names_the_model_of_a_models_article(live, loaded_app):
    """An article a model summarised (the sample's article summarised again) names that model."""
    from loaders.news.sample import sample_articles
    from store.db import session_scope
    from store.news import upsert_article

    article = max(sample_articles(), key=lambda a: a["publishedAt"])
    with session_scope(loaded_app.extensions["gosterge.sessions"]) as session:
        upsert_article(session, {**article, "model": "qwen2.5-7b-instruct"})
    st.cache_data.clear()
    app = run("views/news.py", lang="en")
    captions = [c.value for c in app.caption]
    assert "Written by a language model: qwen2\\.5\\-7b\\-instruct" in captions, captions
    assert sum("Hand-written sample article" in c for c in captions) == len(app.get("link_button")) - 1


def test_admin_page_says_how_to_get_an_admin_key(live):
    for language, said in (("tr", "gosterge keys create --admin"), ("en", "gosterge keys create --admin")):
        app = run("views/admin.py", lang=language)
        assert any(said in c.value for c in app.caption), [c.value for c in app.caption]


def test_local_supplier_ranking_leaves_out_figures_on_fewer_than_five_contracts(live):
    """A province at 100 % from one contract does not top the ranking: every province resting on 1 to 4
    contracts is left out of the ranked bars and named, with its count, under them; the table keeps it."""
    import json

    app = run("views/localization.py", lang="en", dimension="province", year="all")
    items = _api(live, "/v1/public-procurement/localization-indices?dimension=province&period=all&limit=200")["items"]
    few = {item["subjectName"] for item in items if 0 < item["contracts"] < 5}
    assert few, "the demo release has provinces on few contracts"
    bars = [json.loads(chart.proto.spec)["data"][0] for chart in app.get("plotly_chart")
            if json.loads(chart.proto.spec)["data"][0].get("type") == "bar"]
    assert len(bars) == 2 and all(not few & set(bar["y"]) for bar in bars)
    note = next(c.value for c in app.caption if "Left out of the ranking" in c.value)
    assert all(name in note for name in few)
    assert few <= set(app.dataframe[0].value["Name"])
    # A warning of few cases speaks of what it follows: under the charts, of the fewest cases a bar rests on
    # (never one left out); under the table, of its rows, those left out of the charts included.
    nodes = list(app.main)
    table_at = next(i for i, n in enumerate(nodes) if n.type == "dataframe")
    behind = {i: int(re.search(r"Cases behind: (\d+)", n.value).group(1)) for i, n in enumerate(nodes)
              if n.type == "caption" and "Based on few cases" in n.value}
    assert all(n >= 5 for i, n in behind.items() if i < table_at), behind
    assert [n for i, n in behind.items() if i > table_at] == [min(item["contracts"] for item in items
                                                                   if item["contracts"] > 0)], behind


@pytest.mark.parametrize(("language", "label", "note"), [("tr", "Tablolar", "kendi API anahtarınız"),
                                                        ("en", "Tables", "your own API key")])
def test_overview_links_the_downloads_of_the_release_it_shows(live, language, label, note):
    app = run("views/overview.py", lang=language)
    assert not app.exception, app.exception
    links = [m.value for m in app.markdown if "/v1/public-procurement/downloads/" in m.value]
    assert len(links) == 2
    assert any(label in text and f"{live.url}/v1/public-procurement/downloads/gosterge-2026-W47-tables.zip" in text
               for text in links)
    assert any("gosterge-2026-W47-ocds.json.gz" in text and "OCDS" in text for text in links)
    assert any(note in c.value for c in app.caption)


def test_an_empty_cell_is_a_dash_in_both_languages(live):
    """The grid writes a null as "None": a column holding one (the all-years total in real terms, which has no
    single price level) is written out, every empty cell as a dash, the others in the reader's format."""
    for language, period, total in (("en", "Period", "Total (TRY)"), ("tr", "Dönem", "Toplam (TL)")):
        shown = run("views/direct.py", lang=language, prices="2024").dataframe[0].value
        column = shown[total]
        assert not column.isna().any() and "None" not in column.tolist()
        assert column[shown[period] == {"en": "All years", "tr": "Tüm yıllar"}[language]].tolist() == ["–"]
        assert column[shown[period] == "2024"].iloc[0][-3] == {"en": ".", "tr": ","}[language]
