"""Province × sector: tender volume with local and non-local amounts."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import PLOTLY_CONFIG, choose, guarded, lang, t, table

st.title(t("province_sectors"))
st.caption(t("pooled_nominal"))
provinces = {"": "—", **data.subject_options("province")}
province = choose("province", list(provinces), name="province", labels=provinces)
sort = choose("sort_by", ["amount", "tenders"], name="sort", labels={"amount": t("amount"), "tenders": t("tenders")})
params = tuple((k, v) for k, v in (("province", province), ("sort", sort)) if v)
frame = guarded(lambda: data.items("/v1/public-procurement/province-sectors", params))
if frame.empty:
    st.info(t("no_items"))
    st.stop()
top = frame.head(400)
st.plotly_chart(charts.heatmap_figure(top, value="amount", title=t("amount"), lang=lang()), width="stretch",
                config=PLOTLY_CONFIG)
table(frame, name="province-sectors")
