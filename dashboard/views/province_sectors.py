"""Province × sector: tender volume with local and non-local amounts."""

import streamlit as st

from dashboard import charts, data
from dashboard.formats import share
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
sector = "sectorNameEn" if lang() == "en" else "sectorName"
cells, covered = charts.top_cells(frame, value="amount", sector=sector)
provinces_shown, sectors_shown = len(cells.columns), len(cells.index)
title = t("heatmap_title").format(measure=t("amount"), provinces=provinces_shown, sectors=sectors_shown)
st.plotly_chart(charts.heatmap_figure(frame, value="amount", title=title, lang=lang()), width="stretch",
                config=PLOTLY_CONFIG)
rest_p, rest_s = frame["provinceName"].nunique() - provinces_shown, frame[sector].nunique() - sectors_shown
if rest_p or rest_s:
    st.caption(t("heatmap_note").format(provinces=provinces_shown, sectors=sectors_shown, rest_p=rest_p,
                                        rest_s=rest_s, share=share(covered, lang())))
table(frame, name="province-sectors")
