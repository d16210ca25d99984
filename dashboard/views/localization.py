"""Local suppliers: the share won by suppliers from the authority's own province, mapped and ranked."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import choose, few_cases_note, guarded, t, table

st.title(t("localization"))
dimension = choose("dimension", ["province", "sector", "overall"], name="dimension")
period = choose("period", ["all", *[str(y) for y in range(2019, 2031)]], name="period",
                labels={"all": t("all_years")})
frame = guarded(lambda: data.index("localization-indices", dimension, period=period))
if frame.empty:
    st.info(t("no_items"))
    st.stop()
if dimension == "province":
    st.plotly_chart(charts.province_map_figure(frame, data.province_points(), value="localShareValue",
                                               title=t("local_share_value"), percent=True), use_container_width=True)
left, right = st.columns(2)
left.plotly_chart(charts.ranked_bar_figure(frame, value="localShareCount", label="subjectName",
                                           title=t("local_share_count"), percent=True), use_container_width=True)
right.plotly_chart(charts.ranked_bar_figure(frame, value="localShareValue", label="subjectName",
                                            title=t("local_share_value"), percent=True), use_container_width=True)
few_cases_note(frame["contracts"])
table(frame, name=f"localization-{dimension}-{period}")
