"""The fixture of the dashboard's AppTest pages: the API on loopback, serving the demo release and the news
sample, and the dashboard's settings pointing at it."""

from __future__ import annotations

import pytest
import streamlit as st

from loaders.news.sample import load_sample
from tests.helpers import LiveServer


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
