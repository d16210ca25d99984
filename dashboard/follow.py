"""The Follow button of the awards explorer and the profiles: it saves the filters shown as a watchlist of the
visitor's own key, with a name and an optional address for the weekly digest; without such a key it says
how to get or enter one instead."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import streamlit as st

from dashboard import watchlists
from dashboard.client import ApiError
from dashboard.ui import lang, literal, t


def needs_own_key(place: Any = None) -> None:
    """Why a watchlist needs the visitor's own key, and the way to the page where it is got or entered."""
    place = place or st
    place.info(t("needs_own_key"))
    place.page_link("views/api_key.py", label=t("go_to_api_key"), icon=":material/key:",
                    query_params={"lang": lang()})


def follow_button(filters: Mapping[str, Any], *, name: str) -> None:
    """The button (a popover holding the form); `filters` as `watchlists.chosen_filters` gives them, `name`
    tells the forms of one page apart."""
    with st.popover(t("follow"), icon=":material/notifications:"):
        key = watchlists.visitor_key()
        if not key:
            needs_own_key()
            return
        st.caption(t("follow_help"))
        words = watchlists.in_words(filters)
        st.markdown(f"**{t('follow_filters')}:** " + literal(" · ".join(words) or t("follow_everything")))
        # Other filters, another form: the name offered follows what is shown.
        digest = hashlib.sha256(repr(sorted(filters.items())).encode()).hexdigest()[:12]
        with st.form(f"follow_{name}_{digest}", enter_to_submit=False, border=False):
            title = st.text_input(t("follow_name"), value=watchlists.default_name(filters),
                                  max_chars=watchlists.NAME_CHARS, key=f"w_follow_name_{name}_{digest}")
            notify = st.text_input(t("follow_email"), help=t("follow_email_help"),
                                   key=f"w_follow_email_{name}_{digest}").strip()
            submitted = st.form_submit_button(t("follow_save"), type="primary")
        if not submitted:
            return
        if not title.strip():
            st.warning(t("follow_name_needed"))
            return
        try:
            made = watchlists.create(key, name=title, filters=filters, notify=notify or None)
        except ApiError as exc:
            # The cap is the one refusal a visitor meets in the normal course: said in the page's language.
            st.error(t("follow_too_many") if exc.status == 409 else exc.message)
            return
        st.success(t("follow_saved").format(name=literal(made["name"])))
        if made.get("notify"):
            st.info(t("follow_confirm_sent").format(address=literal(made["notify"]["address"])))
        st.page_link("views/watchlists.py", label=t("open_watchlists"), icon=":material/list:",
                     query_params={"lang": lang()})
