"""Every dashboard page, run by Streamlit's AppTest against a real API on loopback."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from loaders.news.sample import load_sample
from tests.helpers import LiveServer

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PAGES = ["views/overview.py", "views/competition.py", "views/direct.py", "views/localization.py",
         "views/province_sectors.py", "views/flows.py", "views/rankings.py", "views/news.py", "views/api_key.py",
         "views/admin.py"]


@pytest.fixture
def live(loaded_app, make_key, monkeypatch):
    load_sample(loaded_app.extensions["gosterge.sessions"])
    key = make_key()
    with LiveServer(loaded_app) as server:
        monkeypatch.setenv("GOSTERGE_API_URL", server.url)
        monkeypatch.setenv("GOSTERGE_API_KEY", key)
        st.cache_data.clear()
        st.cache_resource.clear()
        yield server


def run(page: str | None = None, **query: str) -> AppTest:
    app = AppTest.from_file(APP, default_timeout=60)
    for name, value in query.items():
        app.query_params[name] = value
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
    assert len(app.metric) == 4


def test_direct_amounts_in_real_terms(live):
    from dashboard.prices import real_factor
    from store.reference.prices import december_cpi

    nominal = run("views/direct.py", lang="en").dataframe[0].value.set_index("period")
    real = run("views/direct.py", lang="en", prices="2024").dataframe[0].value.set_index("period")
    for year in ("2019", "2022", "2024"):
        assert real.loc[year, "total"] == pytest.approx(nominal.loc[year, "total"] * real_factor(december_cpi(), year, 2024))
        assert real.loc[year, "median"] == pytest.approx(nominal.loc[year, "median"] * real_factor(december_cpi(), year, 2024))
    assert real.loc["2019", "total"] > nominal.loc["2019", "total"]
    assert pd.isna(real.loc["all", "total"])  # an all-years total has no single price level
    assert real.loc["2024", "purchases"] == nominal.loc["2024", "purchases"]  # counts are not amounts
    captions = " ".join(c.value for c in run("views/direct.py", lang="en", prices="2024").caption)
    assert "December 2024 prices" in captions and "TÜİK" in captions


def test_language_switch_changes_labels_and_headlines(live):
    turkish = run("views/news.py", lang="tr")
    english = run("views/news.py", lang="en")
    assert turkish.title[0].value == "Haberler" and english.title[0].value == "News"
    assert any("Fed" in m.value for m in turkish.markdown) and any("Fed holds" in m.value for m in english.markdown)


def test_news_filter_changes_what_is_asked(live):
    app = run("views/news.py", lang="en")
    app.sidebar.multiselect[0].select("sec").run()
    captions = " ".join(c.value for c in app.caption).replace("\\", "")  # as shown: escapes are not visible
    assert "U.S. Securities" in captions and "Board of Governors" not in captions


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
    assert "European Central Bank" in captions and "Board of Governors" not in captions
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
