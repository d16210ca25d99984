"""Supply flows: arcs between provinces over their outlines, width following the value, with the table."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import PLOTLY_CONFIG, choose, guarded, lang, t, table

st.title(t("flows"))
st.caption(t("pooled_nominal"))
provinces = {"": "—", **data.subject_options("province")}
buyer = choose("buyer_province", list(provinces), name="buyer", labels=provinces)
supplier = choose("supplier_province", list(provinces), name="supplier", labels=provinces)
top_n = int(choose("top_n", ["10", "25", "50", "100"], name="top", default="25"))
params = tuple((k, v) for k, v in (("buyerProvince", buyer), ("supplierProvince", supplier)) if v)
frame = guarded(lambda: data.items("/v1/public-procurement/supply-flows", params))
if frame.empty:
    st.info(t("no_items"))
    st.stop()
shown = frame.head(top_n)
chosen = [t(key).format(name=provinces[value].split(" ", 1)[-1]) for key, value in (("flows_from", buyer),
                                                                                      ("flows_to", supplier)) if value]
title = (t("flows_filtered").format(who=" · ".join(chosen), n=len(shown)) if chosen
         else t("flows_map_title").format(n=len(shown)))
st.plotly_chart(charts.flow_map_figure(shown, data.province_points(), data.province_paths(),
                                       title=title,
                                       lang=lang(), selected=(buyer, supplier)),
                width="stretch", config=PLOTLY_CONFIG)
st.caption(t("boundaries_credit"))
table(shown[["buyerProvinceName", "supplierProvinceName", "contracts", "amount"]], name="supply-flows",
      columns={"buyerProvinceName": t("buyer_province"), "supplierProvinceName": t("supplier_province"),
               "contracts": t("contracts"), "amount": t("amount")})
