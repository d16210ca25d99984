"""Supply flows: lines between provinces whose width follows the value, with the table beside them."""

import streamlit as st

from dashboard import charts, data
from dashboard.ui import choose, guarded, t, table

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
left, right = st.columns([3, 2])
left.plotly_chart(charts.flow_map_figure(shown, data.province_points(), title=t("flows")), use_container_width=True)
with right:
    table(shown[["buyerProvinceName", "supplierProvinceName", "contracts", "amount"]], name="supply-flows",
          columns={"buyerProvinceName": t("buyer_province"), "supplierProvinceName": t("supplier_province"),
                   "contracts": t("contracts"), "amount": t("amount")})
