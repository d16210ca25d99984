"""Admin: upload the weekly release and follow its load, see its figures or its problems, and
re-activate an older one."""

import time

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.client import ApiError
from dashboard.formats import number
from dashboard.ui import lang, t, table, uploader_texts

POLL_SECONDS = 1.0
STATUS_URL = "upload_status_url"


def show_problem(problem: dict) -> None:
    """A refused release lists every problem by file, row and column; a failed load says why."""
    errors = problem.get("errors") or []
    st.error(t("release_problems") if errors else f"{t('upload_failed')}: {problem.get('detail', '')}")
    if errors:
        table(pd.DataFrame(errors), name="release-problems")


def follow_upload(client, key: str, status_url: str) -> None:  # noqa: ANN001
    """Poll the upload's status URL until the load ends, showing its stage meanwhile."""
    with st.status(t("uploading"), expanded=False) as box:
        while True:
            job = client.get(status_url, key=key)
            if job["status"] != "running":
                break
            items = f" ({number(job['itemsWritten'], lang())})" if job["itemsWritten"] else ""
            box.update(label=f"{t('uploading')} {t('stage_' + job['stage'])}{items}")
            time.sleep(POLL_SECONDS)
        box.update(label=t("stage_done"), state="complete" if job["status"] == "loaded" else "error")
    st.session_state.pop(STATUS_URL, None)
    if job["status"] == "loaded":
        release = job["release"]
        st.success(f"{t('uploaded')}: {release['release']} ({number(release['rows'], lang())} {t('rows').lower()})")
        st.cache_data.clear()
    else:
        show_problem(job["problem"] or {})


st.title(t("admin"))
key = st.text_input(t("admin_key"), type="password", key="w_admin_key", help=t("admin_key_help"))
if not key:
    st.caption(t("admin_key_help"))
    st.stop()
client = data.client()
uploader_texts()
upload = st.file_uploader(t("upload_release"), type=["zip"])
if upload is not None and st.button(t("upload")):
    try:
        _, accepted = client.post("/v1/admin/releases", files={"file": (upload.name, upload.getvalue())}, key=key)
        st.session_state[STATUS_URL] = accepted["statusUrl"]
    except ApiError as exc:
        show_problem(getattr(exc, "problem", {}) or {"detail": exc.message})
if st.session_state.get(STATUS_URL):
    try:
        follow_upload(client, key, st.session_state[STATUS_URL])
    except ApiError as exc:
        st.error(exc.message)
try:
    history = client.get("/v1/admin/releases", key=key)["items"]
except ApiError as exc:
    st.error(exc.message)
    st.stop()
st.subheader(t("release_history"))
frame = pd.DataFrame(history)
if not frame.empty:
    table(frame, name="release-history")
    others = [r["id"] for r in history if not r["active"]]
    choice = others and st.selectbox(t("release"), others, placeholder=t("choose_option"),
                                     format_func=lambda i: next(f"{r['id']} · {r['release']}" for r in history
                                                                if r["id"] == i))
    if choice and st.button(t("activate")):
        try:
            client.post(f"/v1/admin/releases/{choice}/activate", key=key)
            st.cache_data.clear()
            st.rerun()
        except ApiError as exc:
            st.error(exc.message)
