"""Competition and concentration: single-bid share, discount, HHI and CR4 by year, map and rankings."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import (
    PLOTLY_CONFIG,
    enough_cases,
    few_cases_note,
    guarded,
    index_view,
    lang,
    name_column,
    province_map,
    span_of,
    subject_label,
    t,
    table,
    year_notes,
)

st.title(t("competition"))
dimension, subject, competition = index_view("competition-indices",
                                             ["overall", "province", "sector", "procedure", "authority-type"])
if dimension == "province":
    province_map(["singleBidShare", "averageDiscount", "hhi"])

about = subject_label(dimension, subject)
by_year, across = st.tabs([t("by_year"), t("ranked")])
with by_year:
    span = span_of("competition-indices")
    left, right = st.columns(2)
    left.plotly_chart(charts.line_by_year_figure(competition, y="singleBidShare", title=f"{t('single_bid_share')} · {about}",
                                                 lang=lang(), kind="share", complete=span),
                      width="stretch", config=PLOTLY_CONFIG)
    right.plotly_chart(charts.line_by_year_figure(competition, y="averageDiscount", title=f"{t('average_discount')} · {about}",
                                                  lang=lang(), kind="share", complete=span),
                       width="stretch", config=PLOTLY_CONFIG)
    few_cases_note(competition.loc[competition["period"] != "all", "lotsWithBids"])
    if dimension in ("overall", "province", "sector"):
        concentration = guarded(lambda: data.index("concentration-indices", dimension, subject))
        span = span_of("concentration-indices")
        left, right = st.columns(2)
        left.plotly_chart(charts.line_by_year_figure(concentration, y="hhi", title=f"{t('hhi')} · {about}", lang=lang(),
                                                     complete=span), width="stretch", config=PLOTLY_CONFIG)
        right.plotly_chart(charts.line_by_year_figure(concentration, y="cr4", title=f"{t('cr4')} · {about}", lang=lang(),
                                                      kind="share", complete=span),
                           width="stretch", config=PLOTLY_CONFIG)
with across:
    if dimension == "overall":
        st.info(t("no_items"))
    else:
        pooled = guarded(lambda: data.index("competition-indices", dimension, period="all"))
        year_notes("all", "competition-indices")
        ranked = enough_cases(pooled, "lotsWithBids", name_column(pooled))
        st.plotly_chart(charts.ranked_bar_figure(ranked, value="singleBidShare", label=name_column(pooled),
                                                 title=t("single_bid_share"), lang=lang(), kind="share"),
                        width="stretch", config=PLOTLY_CONFIG)
        few_cases_note(ranked["lotsWithBids"])  # what the chart shows: those left out are named above it
table(competition, name=f"competition-{dimension}")
