"""Cached reads of the API as DataFrames; each cache entry is keyed by the request it made."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.client import ApiClient
from dashboard.settings import load_settings
from loaders.reference.lists import provinces

CACHE_TTL_SECONDS = 60
PP = "/v1/public-procurement"


@st.cache_resource
def client() -> ApiClient:
    return ApiClient(load_settings())


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


def sectors() -> pd.DataFrame:
    return items(f"{PP}/sectors")


def authority_types() -> pd.DataFrame:
    return items(f"{PP}/authority-types")


def province_points() -> pd.DataFrame:
    """The package's province points (reference data, not the database)."""
    return pd.DataFrame([{"province": p.plate, "provinceName": p.name, "lat": p.latitude, "lon": p.longitude}
                         for p in provinces().values()])


def subject_options(dimension: str) -> dict[str, str]:
    """Subject id -> label for the pickers of a dimension."""
    if dimension == "province":
        return {str(p.plate): f"{p.plate:02d} {p.name}" for p in provinces().values()}
    if dimension == "sector":
        return {str(r.id): f"{r.id} {r.nameTr}" for r in sectors().itertuples()}
    if dimension == "authority-type":
        return {r.id: r.nameTr for r in authority_types().itertuples()}
    if dimension == "procedure":
        frame = index("competition-indices", "procedure", period="all")
        return {str(r.subject): r.subjectName for r in frame.itertuples()}
    return {}
