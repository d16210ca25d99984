"""Local suppliers: the share won by suppliers from the authority's own province, mapped and ranked."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import (
    PLOTLY_CONFIG,
    choose,
    enough_cases,
    few_cases_note,
    guarded,
    lang,
    name_column,
    province_map,
    t,
    table,
    year_choice,
    year_label,
    year_notes,
)

st.title(t("localization"))
dimension = choose("dimension", ["province", "sector", "overall"], name="dimension")
if dimension == "province":
    period = province_map(["localShareValue", "localShareCount"])
else:
    period = year_choice("localization-indices")
    year_notes(period, "localization-indices")
frame = guarded(lambda: data.index("localization-indices", dimension, period=period))
if frame.empty:
    st.info(t("no_items"))
    st.stop()
left, right = st.columns(2)
ranked = enough_cases(frame, "contracts", name_column(frame))
left.plotly_chart(charts.ranked_bar_figure(ranked, value="localShareCount", label=name_column(frame),
                                           title=f"{t('local_share_count')} · {year_label(period)}", lang=lang(), kind="share"),
                  width="stretch", config=PLOTLY_CONFIG)
right.plotly_chart(charts.ranked_bar_figure(ranked, value="localShareValue", label=name_column(frame),
                                            title=f"{t('local_share_value')} · {year_label(period)}", lang=lang(), kind="share"),
                   width="stretch", config=PLOTLY_CONFIG)
# Under the charts, a warning speaks of what they show (rows left out are named above); the table
# below holds every row, so its own warning follows it.
few_cases_note(ranked["contracts"])
table(frame, name=f"localization-{dimension}-{year_label(period)}")
few_cases_note(frame["contracts"])
