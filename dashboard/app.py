"""Entry point: `streamlit run dashboard/app.py` (or `gosterge dashboard`)."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dashboard.i18n import LANGUAGES, text  # noqa: E402
from dashboard.search import party_search  # noqa: E402
from dashboard.ui import lang  # noqa: E402

ICON = Path(__file__).parent / "assets" / "favicon.png"
st.set_page_config(page_title=text("app_title", lang()), page_icon=str(ICON), layout="wide")
# Not "pages/": Streamlit would also serve that folder as an old-style multipage app beside st.navigation.
PAGES = Path(__file__).parent / "views"

language = st.sidebar.radio(text("language", lang()), LANGUAGES, index=LANGUAGES.index(lang()), horizontal=True,
                            format_func={"tr": "Türkçe", "en": "English"}.get, key="w_lang")
st.query_params["lang"] = language

overview = text("overview", language)
# Reached from the search box, an award or another profile, with the party in the address; not a menu entry.
profile = st.Page(PAGES / "profile.py", title=text("profile", language), url_path="profile", visibility="hidden")
navigation = st.navigation([
    # The default page is served at the root, whatever its url_path; the hidden twin below gives the
    # overview the address /overview as well, so that a link to it does not end in "Page not found".
    st.Page(PAGES / "overview.py", title=overview, url_path="home", default=True),
    st.Page(PAGES / "overview.py", title=overview, url_path="overview", visibility="hidden"),
    st.Page(PAGES / "competition.py", title=text("competition", language), url_path="competition"),
    st.Page(PAGES / "direct.py", title=text("direct", language), url_path="direct"),
    st.Page(PAGES / "localization.py", title=text("localization", language), url_path="local-suppliers"),
    st.Page(PAGES / "province_sectors.py", title=text("province_sectors", language), url_path="province-sectors"),
    st.Page(PAGES / "flows.py", title=text("flows", language), url_path="supply-flows"),
    st.Page(PAGES / "rankings.py", title=text("rankings", language), url_path="rankings"),
    st.Page(PAGES / "awards.py", title=text("awards", language), url_path="awards"),
    st.Page(PAGES / "watchlists.py", title=text("watchlists", language), url_path="watchlists"),
    profile,
    st.Page(PAGES / "news.py", title=text("news", language), url_path="news"),
    st.Page(PAGES / "api_key.py", title=text("api_key", language), url_path="api-key"),
    st.Page(PAGES / "admin.py", title=text("admin", language), url_path="admin"),
])
party_search(profile, language)
# The browser tab names the page and the product: "Rekabet ve yoğunlaşma · Gösterge".
st.set_page_config(page_title=f"{navigation.title} · {text('app_title', language)}")
navigation.run()
