"""API key: a person asks for a key, approves it from the e-mail, and sees it once."""

import streamlit as st

from dashboard import data
from dashboard.client import ApiError
from dashboard.ui import t

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
            else:
                st.info(t("waiting_approval"))
