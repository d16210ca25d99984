"""Entry point: `streamlit run dashboard/app.py` (or `gosterge dashboard`)."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dashboard.i18n import LANGUAGES, text  # noqa: E402
from dashboard.ui import lang  # noqa: E402

st.set_page_config(page_title="Gösterge", page_icon="📊", layout="wide")
# Not "pages/": Streamlit would also serve that folder as an old-style multipage app beside st.navigation.
PAGES = Path(__file__).parent / "views"

language = st.sidebar.radio(text("language", lang()), LANGUAGES, index=LANGUAGES.index(lang()), horizontal=True,
                            format_func={"tr": "Türkçe", "en": "English"}.get, key="w_lang")
st.query_params["lang"] = language

navigation = st.navigation([
    st.Page(PAGES / "overview.py", title=text("overview", language), url_path="overview", default=True),
    st.Page(PAGES / "competition.py", title=text("competition", language), url_path="competition"),
    st.Page(PAGES / "direct.py", title=text("direct", language), url_path="direct"),
    st.Page(PAGES / "localization.py", title=text("localization", language), url_path="local-suppliers"),
    st.Page(PAGES / "province_sectors.py", title=text("province_sectors", language), url_path="province-sectors"),
    st.Page(PAGES / "flows.py", title=text("flows", language), url_path="supply-flows"),
    st.Page(PAGES / "rankings.py", title=text("rankings", language), url_path="rankings"),
    st.Page(PAGES / "news.py", title=text("news", language), url_path="news"),
    st.Page(PAGES / "api_key.py", title=text("api_key", language), url_path="api-key"),
    st.Page(PAGES / "admin.py", title=text("admin", language), url_path="admin"),
])
navigation.run()
