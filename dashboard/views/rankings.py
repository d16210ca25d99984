"""Rankings: the top ten authorities and contractors for a province or a sector and each method."""

import streamlit as st

from dashboard import data
from dashboard.ui import choose, guarded, t, table

st.title(t("rankings"))
st.caption(t("pooled_nominal"))
scope = choose("subject", ["province", "sector"], name="scope")
options = data.subject_options(scope)
subject = choose(scope, list(options), name="subject", labels=options)
methods = ["tender", "direct", "headquartered"] if scope == "province" else ["tender"]
method = choose("method", methods, name="method")
columns = {"rank": t("rank"), "name": t("name"), "amount": t("amount"), "count": t("count")}
for kind, title in (("top-authorities", "top_authorities"), ("top-contractors", "top_contractors")):
    if kind == "top-authorities" and method == "headquartered":
        continue
    frame = guarded(lambda kind=kind: data.items(f"/v1/public-procurement/{kind}", ((scope, subject), ("method", method))))
    st.subheader(t(title))
    if frame.empty:
        st.info(t("no_items"))
    else:
        table(frame[["rank", "name", "amount", "count"]], name=f"{kind}-{scope}-{subject}-{method}", columns=columns)
