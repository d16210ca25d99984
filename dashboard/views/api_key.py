"""API key: a person asks for a key, approves it from the e-mail, and sees it once; and enters their own key
for this session, which their watchlists belong to (never the dashboard's own, which every visitor shares)."""

import streamlit as st

from dashboard import data, watchlists
from dashboard.client import ApiError
from dashboard.ui import lang, t

st.title(t("api_key"))
st.markdown(t("key_help"))
with st.form("signup"):
    email = st.text_input(t("email"))
    apis = st.multiselect(t("apis"), ["public-procurement", "finance-news"], default=["public-procurement", "finance-news"],
                          placeholder=t("choose_options"))
    submitted = st.form_submit_button(t("request_key"))
if submitted:
    try:
        _, answer = data.client().post("/v1/accounts", json={"email": email, "apis": apis}, visitor=data.visitor())
        st.session_state.poll_url = answer["poll_url"]
    except ApiError as exc:
        st.error(exc.message)
if st.session_state.get("poll_url"):
    st.info(t("waiting_approval"))
    if st.button(t("check_approval")):
        try:
            status, answer = data.client().poll(st.session_state.poll_url)
        except ApiError as exc:
            st.error(exc.message)
        else:
            if status == 200:
                st.success(t("your_key"))
                st.code(answer["key"])
                st.session_state.poll_url = None
                # The key is shown once: it also becomes this session's, so the visitor can follow awards at once.
                watchlists.use_key(answer["key"])
                st.caption(t("own_key_set_from_signup"))

st.subheader(t("own_key"))
st.caption(t("own_key_help"))
current = watchlists.visitor_key()
if current:
    st.success(t("own_key_in_use").format(tail=current[-4:]))
    if st.button(t("own_key_forget"), key="w_own_key_forget"):
        watchlists.use_key(None)
        st.rerun()
    st.page_link("views/watchlists.py", label=t("open_watchlists"), icon=":material/list:",
                 query_params={"lang": lang()})
else:
    with st.form("own_key", enter_to_submit=False):
        typed = st.text_input(t("own_key_input"), type="password", key="w_own_key").strip()
        use = st.form_submit_button(t("own_key_use"))
    if use and typed:
        try:
            watchlists.check_key(typed)
        except ApiError as exc:
            st.error(exc.message)
        else:
            watchlists.use_key(typed)
            st.rerun()
