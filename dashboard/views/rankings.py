"""Rankings: the top ten authorities and contractors of Türkiye as a whole (where the page opens), of a
province or of a sector, by each method."""

import streamlit as st

from dashboard import data
from dashboard.ui import choose, guarded, t, table

st.title(t("rankings"))
st.caption(t("pooled_nominal"))
scope = choose("subject", ["overall", "province", "sector"], name="scope")
options = data.subject_options(scope)
subject = choose(scope, list(options), name="subject", labels=options) if scope != "overall" else None
# The national ranking takes tenders or direct purchases (the API's NATIONAL_METHODS); a sector, tenders only.
methods = {"overall": ["tender", "direct"], "province": ["tender", "direct", "headquartered"],
           "sector": ["tender"]}[scope]
method = choose("method", methods, name="method")
columns = {"rank": t("rank"), "name": t("name"), "amount": t("amount"), "count": t("count")}
where = ((scope, subject),) if subject else ()
for kind, title in (("top-authorities", "top_authorities"), ("top-contractors", "top_contractors")):
    if kind == "top-authorities" and method == "headquartered":
        continue
    frame = guarded(lambda kind=kind: data.items(f"/v1/public-procurement/{kind}", where + (("method", method),)))
    st.subheader(t(title))
    if frame.empty:
        st.info(t("no_items"))
    else:
        table(frame[["rank", "name", "amount", "count"]], name=f"{kind}-{scope}-{subject or 'tr'}-{method}",
              columns=columns)
