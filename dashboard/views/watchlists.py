"""Watchlists: the visitor's own key's saved filters, each with its filters in words, the state of its digest
address, the awards new in the latest release (a table like the explorer's, and the explorer with the same
filters) and a delete button. Without the visitor's own key, how to get or enter one."""

from typing import Any

import streamlit as st

from dashboard import watchlists
from dashboard.awards import PAGE_SIZE, awards_section
from dashboard.client import ApiError
from dashboard.follow import needs_own_key
from dashboard.formats import local_time
from dashboard.ui import guarded, lang, literal, t

DELETED = "watchlist_deleted"  # the name of the one just deleted, said once after the page is drawn again

st.title(t("watchlists"))
key = watchlists.visitor_key() or ""
if not key:
    needs_own_key()
    st.stop()
if st.session_state.get(DELETED):
    st.success(t("watch_deleted").format(name=literal(st.session_state.pop(DELETED))))
st.caption(t("watchlists_intro"))
found = guarded(lambda: watchlists.listing(key))
if not found:
    st.info(t("watchlists_none"))
    st.stop()


def digest_state(notify: dict[str, Any] | None) -> str:
    if notify is None:
        return t("digest_none")
    state = "unsubscribed" if notify["unsubscribed"] else "confirmed" if notify["confirmed"] else "waiting"
    return t(f"digest_{state}").format(address=literal(notify["address"]))


def new_awards(watchlist_id: str) -> None:
    """Its new awards: the first page read here says since which release (and a problem of this watchlist
    alone, such as a pruned release, is said without stopping the others); the table reads the same page again
    through a free 304."""
    read = lambda params, cursor: watchlists.new_award_page(key, watchlist_id, params, cursor)  # noqa: E731
    params = (("sort", "date"),)
    try:
        _, _, _, since = read(params + (("limit", PAGE_SIZE),), None)
    except ApiError as exc:
        st.warning(exc.message)
        return
    st.caption(t("new_since").format(since=since) if since else t("new_since_first"))
    awards_section(params, name=f"watch-{watchlist_id}", read=lambda p, c: read(p, c)[:3], benchmark=False)


for item in found:
    with st.container(border=True):
        st.subheader(literal(item["name"]))
        words = watchlists.in_words(item["filters"])
        st.markdown(f"**{t('watch_filters')}:** " + literal(" · ".join(words) or t("follow_everything")))
        st.caption(" · ".join((digest_state(item["notify"]),
                               t("watch_created").format(date=local_time(item["createdAt"], lang())))))
        left, right = st.columns([4, 1])
        left.page_link("views/awards.py", label=t("watch_in_explorer"), icon=":material/open_in_new:",
                       query_params=watchlists.explorer_query(item["filters"], lang()))
        if right.button(t("watch_delete"), key=f"delete_{item['id']}", icon=":material/delete:"):
            try:
                watchlists.delete(key, item["id"])
            except ApiError as exc:
                st.error(exc.message)
            else:
                st.session_state[DELETED] = item["name"]
                st.rerun()
        st.markdown(f"**{t('new_awards')}**")
        new_awards(item["id"])
