"""Direct procurement: the amount distribution by year and by subject, and by province on the map."""

import streamlit as st

from dashboard import charts
from dashboard.ui import (
    PLOTLY_CONFIG,
    few_cases_note,
    index_view,
    lang,
    price_basis,
    province_map,
    real_terms,
    span_of,
    subject_label,
    t,
    table,
)

AMOUNTS = ["median", "mean", "total", "p95", "p99", "max"]

st.title(t("direct"))
dimension, subject, frame = index_view("direct-procurement-indices", ["overall", "province", "sector", "authority-type"])
base_year = price_basis()
frame = real_terms(frame, AMOUNTS, base_year)
if dimension == "province":
    province_map(["total", "median"], base_year=base_year)
span = span_of("direct-procurement-indices")
about = subject_label(dimension, subject)
names = {k: t(k) for k in ("median", "mean", "p95", "p99", "max")}
st.plotly_chart(charts.distribution_figure(frame, names=names, title=f"{t('amount')} · {about}", lang=lang(), complete=span),
                width="stretch", config=PLOTLY_CONFIG)
st.plotly_chart(charts.line_by_year_figure(frame, y="largestShare", title=f"{t('largest_share')} · {about}", lang=lang(),
                                           kind="share", complete=span), width="stretch", config=PLOTLY_CONFIG)
few_cases_note(frame.loc[frame["period"] != "all", "purchases"])
table(frame, name=f"direct-{dimension}" + (f"-in-{base_year}-prices" if base_year else ""))
