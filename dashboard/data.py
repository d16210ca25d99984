"""Cached reads of the API as DataFrames; each cache entry is keyed by the request it made."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pandas as pd
import streamlit as st

from dashboard import charts
from dashboard.client import ApiClient
from dashboard.settings import load_settings
from dashboard.visitors import visitor_name

CACHE_TTL_SECONDS = 60
PP = "/v1/public-procurement"


@st.cache_resource
def client() -> ApiClient:
    return ApiClient(load_settings())


def visitor() -> str:
    """Who is asking, for the API's per-visitor sign-up allowance (dashboard/visitors.py)."""
    return visitor_name(st.context.ip_address, st.context.headers, client().settings.trusted_proxies)


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


def downloads() -> dict[str, Any]:
    """The served release's files: their addresses, sizes, SHA-256 and credits (free to list)."""
    return get(f"{PP}/downloads")


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
    """The December consumer price index by year, and the last month it covers (`2025-12`); the page
    names the series in its own language (the API's `source` is written in English)."""
    answer = get(f"{PP}/price-index")
    return {row["year"]: row["decemberIndex"] for row in answer["items"]}, answer["coversThrough"]


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


def procedures() -> pd.DataFrame:
    return reference("procedures")


def red_flags() -> pd.DataFrame:
    """The red flags with their names and definitions in both languages (a free reference list)."""
    return reference("red-flags")


def province_names() -> dict[int, str]:
    return {int(r.plate): r.name for r in provinces().itertuples()}


PARTY_PATHS = {"authority": "authorities", "contractor": "contractors"}


def search(kind: str, q: str, *, limit: int) -> dict[str, Any]:
    """The best `limit` matches of a name among authorities or contractors (`kind`), and their total."""
    return get(f"{PP}/{PARTY_PATHS[kind]}", (("q", q), ("limit", limit)))


def profile(kind: str, party_id: str, period: str) -> dict[str, Any]:
    """An authority's or a contractor's profile for a year or every year (`all`)."""
    return get(f"{PP}/{PARTY_PATHS[kind]}/{quote(party_id, safe='')}", (("period", period),))


# What an analyst reads first comes first (value, contractor, flags, buyer, date, discount), so that a
# table 1,400 px wide shows it without scrolling; the ids and codes behind the names come last.
AWARD_COLUMNS = ["contractValue", "contractor.name", "flags", "authority.name", "tenderDate", "discount", "bids",
                 "tenderName", "estimatedCost", "tenderId", "lot", "lots", "sector", "procedure", "authority.type",
                 "authority.province", "contractor.province", "authority.id", "contractor.id"]


def award_rows(items: list[dict[str, Any]]) -> pd.DataFrame:
    """Awards as flat rows: the parties' fields as `authority.name` and the like, the flags as one cell of
    comma-separated ids, every column of AWARD_COLUMNS present (a release without names has no tenderName)."""
    frame = pd.json_normalize(items) if items else pd.DataFrame()
    frame = frame.reindex(columns=AWARD_COLUMNS)
    frame["flags"] = frame["flags"].map(lambda flags: ",".join(flags) if isinstance(flags, list) else "")
    return frame


def award_page(params: tuple[tuple[str, Any], ...], cursor: str | None) -> tuple[pd.DataFrame, int, str | None]:
    """One page of awards for the filters: its rows, the total matching and the next page's cursor."""
    page = get(f"{PP}/awards", params + ((("cursor", cursor),) if cursor else ()))
    return award_rows(page["items"]), int(page["total"]), page.get("next_cursor")


def benchmark(sector: Any, procedure: str, period: str) -> dict[str, Any] | None:
    """The discount distribution of one sector, procedure and year (or `all`); None when the API has no group."""
    found = get(f"{PP}/discount-benchmarks", (("sector", sector), ("procedure", procedure), ("period", period)))
    return found["items"][0] if found["items"] else None
