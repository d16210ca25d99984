"""The search box of every page's sidebar: an authority or a contractor found by name (the API folds
case and Turkish letters), each match a link to its profile page."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import data
from dashboard.client import ApiError
from dashboard.formats import number
from dashboard.i18n import text
from dashboard.ui import literal

MATCHES = 5  # shown per kind: a search costs one credit per kind, whatever it finds
MIN_CHARS = 2
ICONS = {"authority": ":material/account_balance:", "contractor": ":material/storefront:"}


def profile_query(kind: str, party_id: str, language: str) -> dict[str, str]:
    """The address of a profile: `?kind=authority&id=A000123&lang=tr`."""
    return {"kind": kind, "id": party_id, "lang": language}


def party_search(profile: Any, language: str) -> None:
    """The box, and under it the best matches of each kind, linking to `profile` (the profile st.Page).
    The words typed stay with the visitor's session, not in the address: the profile they open is the view."""
    words = st.sidebar.text_input(text("find_party", language), key="w_find", help=text("find_help", language),
                                  placeholder=text("find_placeholder", language)).strip()
    if len(words) < MIN_CHARS:
        return
    try:
        found = {kind: data.search(kind, words, limit=MATCHES) for kind in ICONS}
    except ApiError as exc:  # the search must not stop the page it sits beside
        st.sidebar.warning(exc.message)
        return
    if not any(answer["items"] for answer in found.values()):
        st.sidebar.caption(text("find_none", language))
        return
    provinces = data.province_names()
    for kind, answer in found.items():
        if not answer["items"]:
            continue
        st.sidebar.caption(f"{text(f'kinds_{kind}', language)} · "
                           + text("find_more", language).format(shown=len(answer["items"]),
                                                                total=number(answer["total"], language)))
        for party in answer["items"]:
            where = provinces.get(party.get("province"), "–")
            st.sidebar.page_link(profile, label=literal(f"{party['name']} · {where}"), icon=ICONS[kind],
                                 query_params=profile_query(kind, party["id"], language))
