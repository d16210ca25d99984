"""Cached reads of the API as DataFrames; each cache entry is keyed by the request it made."""

from __future__ import annotations

import uuid
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import charts
from dashboard.client import ApiClient
from dashboard.settings import load_settings

CACHE_TTL_SECONDS = 60
PP = "/v1/public-procurement"


@st.cache_resource
def client() -> ApiClient:
    return ApiClient(load_settings())


def visitor() -> str:
    """Who is asking, for the API's per-visitor sign-up allowance: the visitor's address as Streamlit
    sees it, or an id of this browser session where it sees none."""
    address = st.context.ip_address
    if address:
        return address
    if "visitor" not in st.session_state:
        st.session_state.visitor = uuid.uuid4().hex
    return st.session_state.visitor


@st.cache_data(ttl=CACHE_TTL_SECONDS, show_spinner=False)
def get(path: str, params: tuple[tuple[str, Any], ...] = ()) -> Any:
    """One answer; the client revalidates with If-None-Match, so a hit past the TTL costs a free 304."""
    return client().get(path, dict(params))


@st.cache_data(ttl=CACHE_TTL_SECONDS, show_spinner=False)
def items(path: str, params: tuple[tuple[str, Any], ...] = ()) -> pd.DataFrame:
    """Every item of a paged endpoint as a DataFrame."""
    return pd.DataFrame(list(client().pages(path, dict(params))))


def index(endpoint: str, dimension: str, subject: str | None = None, period: str | None = None) -> pd.DataFrame:
    params = (("dimension", dimension), ("subject", subject), ("period", period))
    return items(f"{PP}/{endpoint}", tuple((k, v) for k, v in params if v))


def datasets() -> dict[str, Any]:
    return get(f"{PP}/datasets")


def reference(name: str) -> pd.DataFrame:
    """A free reference list (one page, no paging parameters) as a DataFrame."""
    return pd.DataFrame(get(f"{PP}/{name}")["items"])


def sectors() -> pd.DataFrame:
    return reference("sectors")


def authority_types() -> pd.DataFrame:
    return reference("authority-types")


def provinces() -> pd.DataFrame:
    """The 81 provinces with their plate code, name and representative point, as the API lists them."""
    return reference("provinces")


def province_points() -> pd.DataFrame:
    """Each province's point, in the columns the map figures read."""
    return provinces().rename(columns={"plate": "province", "name": "provinceName", "latitude": "lat",
                                       "longitude": "lon"})[["province", "provinceName", "lat", "lon"]]


def boundaries() -> dict[str, Any]:
    """The provinces' boundaries (GeoJSON) and the credit to show with a map, from the free endpoint."""
    return get(f"{PP}/provinces/boundaries")


@st.cache_data(show_spinner=False)
def province_paths() -> pd.DataFrame:
    """The boundaries as the x/y paths the map figures draw, converted once per process."""
    return charts.province_paths(boundaries())


def price_index() -> tuple[dict[int, float], str]:
    """The December consumer price index by year, and the series it comes from."""
    answer = get(f"{PP}/price-index")
    return {row["year"]: row["decemberIndex"] for row in answer["items"]}, answer["source"]


def subject_options(dimension: str) -> dict[str, str]:
    """Subject id -> label for the pickers of a dimension."""
    if dimension == "province":
        return {str(r.plate): f"{r.plate:02d} {r.name}" for r in provinces().itertuples()}
    if dimension == "sector":
        return {str(r.id): f"{r.id} {r.nameTr}" for r in sectors().itertuples()}
    if dimension == "authority-type":
        return {r.id: r.nameTr for r in authority_types().itertuples()}
    if dimension == "procedure":
        frame = index("competition-indices", "procedure", period="all")
        return {str(r.subject): r.subjectName for r in frame.itertuples()}
    return {}
