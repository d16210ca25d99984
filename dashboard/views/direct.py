"""Direct procurement: the amount distribution by year and by subject."""

import streamlit as st

from dashboard import charts
from dashboard.ui import few_cases_note, index_view, price_basis, real_terms, t, table

AMOUNTS = ["median", "mean", "total", "p95", "p99", "max"]

st.title(t("direct"))
dimension, subject, frame = index_view("direct-procurement-indices", ["overall", "province", "sector", "authority-type"])
base_year = price_basis()
frame = real_terms(frame, AMOUNTS, base_year)
names = {k: t(k) for k in ("median", "mean", "p95", "p99", "max")}
st.plotly_chart(charts.distribution_figure(frame, names=names, title=t("amount")), use_container_width=True)
st.plotly_chart(charts.line_by_year_figure(frame, y="largestShare", title=t("largest_share"), percent=True),
                use_container_width=True)
few_cases_note(frame.loc[frame["period"] != "all", "purchases"])
table(frame, name=f"direct-{dimension}" + (f"-in-{base_year}-prices" if base_year else ""))
