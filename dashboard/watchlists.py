"""The visitor's watchlists over the API: whose key they belong to (the visitor's own, never the dashboard's),
the filters as the API takes them, as the awards explorer's address writes them and in words, and the
calls that create, list and delete them and read their new awards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.awards import names
from dashboard.formats import money
from dashboard.ui import lang, t

PATH = f"{data.PP}/watchlists"
# Where the visitor's own key is kept: this browser session's state on the server, never the address.
VISITOR_KEY = "visitor_key"
# The filters a watchlist takes (the /awards filters without the year, and a least value), in the API's order.
FILTERS = ("province", "supplierProvince", "sector", "procedure", "authorityType", "authority", "contractor", "flag",
           "minValue")
NAME_CHARS = 100
MAX_WATCHLISTS = 50  # the API's cap per key: one page lists them all


def visitor_key() -> str | None:
    """The key the visitor entered (or got) on the API key page, or None: watchlists are never made or read
    with the dashboard's own key, which every visitor shares."""
    return st.session_state.get(VISITOR_KEY) or None


def use_key(key: str | None) -> None:
    if key:
        st.session_state[VISITOR_KEY] = key
    else:
        st.session_state.pop(VISITOR_KEY, None)


def check_key(key: str) -> None:
    """ApiError, said for a person, unless `key` may hold watchlists (listing them is free)."""
    data.client().get(PATH, {"limit": 1}, key=key)


def min_value(raw: Any) -> float | None:
    """A least value as the address or a number box gives it; None for nothing, a negative or not a number."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return value if value >= 0 and value == value and value != float("inf") else None


def plain(value: float) -> str:
    """A number as an address writes it: 2500000, not 2500000.0."""
    return str(int(value)) if float(value).is_integer() else str(value)


def chosen_filters(values: Mapping[str, Any]) -> dict[str, Any]:
    """The filters chosen (empty ones left out) as the API takes a watchlist's: ids as the address gives them,
    the flags as a list, the least value as a number."""
    chosen: dict[str, Any] = {}
    for name in FILTERS:
        value = values.get(name)
        if name == "flag":
            value = [f for f in (value.split(",") if isinstance(value, str) else value or ()) if f]
        elif name == "minValue":
            value = min_value(value)
            value = None if value is None else int(value) if value.is_integer() else value
        if value not in (None, "", []):
            chosen[name] = value
    return chosen


def explorer_query(filters: Mapping[str, Any], language: str) -> dict[str, str]:
    """The awards explorer's address for a watchlist's filters, written as the digest mail's link writes it:
    `?province=6&sector=23&flag=single-bid,winner-share&minValue=1000000`."""
    query = {name: ",".join(value) if isinstance(value, list) else plain(value) if name == "minValue" else str(value)
             for name, value in filters.items() if name in FILTERS}
    return {**query, "lang": language}


def in_words(filters: Mapping[str, Any]) -> list[str]:
    """Each filter as the reader says it, in the page's language: province and sector names, the flags' names."""
    language = lang()
    provinces = data.province_names()
    words: list[str] = []
    for name, value in filters.items():
        if name == "province":
            words.append(provinces.get(int(value), str(value)))
        elif name == "supplierProvince":
            words.append(t("filter_supplier_province").format(name=provinces.get(int(value), str(value))))
        elif name == "sector":
            words.append(f"{value} {names('sectors').get(int(value), '')}".strip())
        elif name in ("procedure", "authorityType"):
            words.append(names("procedures" if name == "procedure" else "types").get(value, str(value)))
        elif name in ("authority", "contractor"):
            words.append(t(f"filter_{name}").format(id=value))
        elif name == "flag":
            flags = names("flags")
            words.append(t("filter_flags").format(names=", ".join(flags.get(f, f) for f in value)))
        elif name == "minValue":
            words.append(t("filter_min_value").format(value=money(value, language, digits=0)))
    return words


def default_name(filters: Mapping[str, Any]) -> str:
    """A name for a new watchlist, from its filters in words (at most NAME_CHARS)."""
    name = " · ".join(in_words(filters)) or t("all_awards_name")
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def create(key: str, *, name: str, filters: Mapping[str, Any], notify: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "filters": dict(filters)}
    if notify:
        body["notify"] = notify
    return data.client().post(PATH, json=body, key=key)[1]


def listing(key: str) -> list[dict[str, Any]]:
    """The key's watchlists, newest first (a key holds at most MAX_WATCHLISTS: one page, cursors followed anyway)."""
    found: list[dict[str, Any]] = []
    query: dict[str, Any] = {"limit": MAX_WATCHLISTS}
    while True:
        page = data.client().get(PATH, query, key=key)
        found += page["items"]
        if not page.get("next_cursor"):
            return found
        query = {**query, "cursor": page["next_cursor"]}


def delete(key: str, watchlist_id: str) -> None:
    data.client().delete(f"{PATH}/{quote(watchlist_id, safe='')}", key=key)


def new_award_page(key: str, watchlist_id: str, params: tuple[tuple[str, Any], ...],
                   cursor: str | None) -> tuple[pd.DataFrame, int, str | None, str | None]:
    """One page of the awards new to a watchlist: its rows (as the explorer's), the total, the next page's
    cursor and the release they are new since (None: no release before the one served)."""
    query = dict(params) | ({"cursor": cursor} if cursor else {})
    page = data.client().get(f"{PATH}/{quote(watchlist_id, safe='')}/awards", query, key=key)
    return (data.award_rows(page["items"]), int(page.get("total", len(page["items"]))), page.get("next_cursor"),
            page.get("since"))
