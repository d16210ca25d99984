"""Competition and concentration: single-bid share, discount, HHI and CR4 by year, map and rankings."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import few_cases_note, guarded, index_view, t, table

st.title(t("competition"))
dimension, subject, competition = index_view("competition-indices",
                                             ["overall", "province", "sector", "procedure", "authority-type"])

by_year, across = st.tabs([t("by_year"), t("ranked")])
with by_year:
    left, right = st.columns(2)
    left.plotly_chart(charts.line_by_year_figure(competition, y="singleBidShare", title=t("single_bid_share"),
                                                 percent=True), use_container_width=True)
    right.plotly_chart(charts.line_by_year_figure(competition, y="averageDiscount", title=t("average_discount"),
                                                  percent=True), use_container_width=True)
    few_cases_note(competition.loc[competition["period"] != "all", "lotsWithBids"])
    if dimension in ("overall", "province", "sector"):
        concentration = guarded(lambda: data.index("concentration-indices", dimension, subject))
        left, right = st.columns(2)
        left.plotly_chart(charts.line_by_year_figure(concentration, y="hhi", title=t("hhi")), use_container_width=True)
        right.plotly_chart(charts.line_by_year_figure(concentration, y="cr4", title=t("cr4"), percent=True),
                           use_container_width=True)
with across:
    if dimension == "overall":
        st.info(t("no_items"))
    else:
        pooled = guarded(lambda: data.index("competition-indices", dimension, period="all"))
        if dimension == "province":
            st.plotly_chart(charts.province_map_figure(pooled, data.province_points(), value="singleBidShare",
                                                       title=t("single_bid_share"), percent=True),
                            use_container_width=True)
        st.plotly_chart(charts.ranked_bar_figure(pooled, value="singleBidShare", label="subjectName",
                                                 title=t("single_bid_share"), percent=True), use_container_width=True)
        few_cases_note(pooled["lotsWithBids"])
table(competition, name=f"competition-{dimension}")
