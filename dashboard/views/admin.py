"""Admin: upload the weekly release, see its figures or its problems, and re-activate an older one."""

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.client import ApiError
from dashboard.ui import t, table

st.title(t("admin"))
key = st.text_input(t("admin_key"), type="password", key="w_admin_key")
if not key:
    st.stop()
client = data.client()
upload = st.file_uploader(t("upload_release"), type=["zip"])
if upload is not None and st.button(t("upload")):
    with st.spinner(t("uploading")):
        try:
            _, release = client.post("/v1/admin/releases", files={"file": (upload.name, upload.getvalue())}, key=key)
        except ApiError as exc:
            st.error(exc.message if exc.status != 400 else t("release_problems"))
            problems = getattr(exc, "problem", {}).get("errors") or []
            if problems:
                table(pd.DataFrame(problems), name="release-problems")
        else:
            st.success(f"{t('uploaded')}: {release['release']} ({release['rows']} {t('rows').lower()})")
            st.cache_data.clear()
try:
    history = client.get("/v1/admin/releases", key=key)["items"]
except ApiError as exc:
    st.error(exc.message)
    st.stop()
st.subheader(t("release_history"))
frame = pd.DataFrame(history)
if not frame.empty:
    table(frame, name="release-history")
    choice = st.selectbox(t("release"), [r["id"] for r in history if not r["active"]],
                          format_func=lambda i: next(f"{r['id']} · {r['release']}" for r in history if r["id"] == i))
    if choice and st.button(t("activate")):
        try:
            client.post(f"/v1/admin/releases/{choice}/activate", key=key)
            st.cache_data.clear()
            st.rerun()
        except ApiError as exc:
            st.error(exc.message)
