"""Awards explorer: every awarded lot, filtered by place, sector, procedure, party, year and red flag, newest
first or by value; every filter lives in the address, the table downloads as CSV, and a selected award's
discount is placed in its benchmark."""

import streamlit as st

from dashboard import data
from dashboard.awards import awards_section, names
from dashboard.search import ICONS, profile_query
from dashboard.ui import choose, lang, literal, t, year_choice

st.title(t("awards"))
query = st.query_params  # every filter lives in the address, so a filtered list can be shared as a link
provinces = {"": t("all_provinces"), **data.subject_options("province")}
province = choose("authority_province", list(provinces), name="province", labels=provinces)
supplier = choose("supplier_province", list(provinces), name="supplierProvince", labels=provinces)
sectors = {"": t("all_sectors"), **{str(k): f"{k} {v}" for k, v in names("sectors").items()}}
sector = choose("sector", list(sectors), name="sector", labels=sectors)
procedures = {"": t("all_procedures"), **names("procedures")}
procedure = choose("procedure", list(procedures), name="procedure", labels=procedures)
types = {"": t("all_types"), **names("types")}
authority_type = choose("authority_type", list(types), name="authorityType", labels=types)
period = year_choice("competition-indices", place=st.sidebar, name="period", label="period", default="all")
flags = names("flags")
chosen_flags = st.sidebar.multiselect(t("flags_filter"), list(flags), format_func=flags.get, key="w_flag",
                                      default=[f for f in query.get("flag", "").split(",") if f in flags],
                                      placeholder=t("choose_options"))
parties = {kind: st.sidebar.text_input(t(f"{kind}_id"), value=query.get(kind, ""), key=f"w_party_{kind}",
                                       help=t("party_id_help")).strip() for kind in ICONS}
sort = choose("sort_by", ["date", "value"], name="sort", labels={"date": t("sort_date"), "value": t("sort_value")})

for name, value in (("flag", ",".join(chosen_flags)), *parties.items()):
    if value:
        query[name] = value
    else:
        query.pop(name, None)
for kind, party_id in parties.items():
    if party_id:
        st.page_link("views/profile.py", label=f"{t(f'kind_{kind}')} {literal(party_id)} · {t('open_profile')}",
                     icon=ICONS[kind], query_params=profile_query(kind, party_id, lang()))
params = (("province", province), ("supplierProvince", supplier), ("sector", sector), ("procedure", procedure),
          ("authorityType", authority_type), ("authority", parties["authority"]),
          ("contractor", parties["contractor"]), ("period", period), ("flag", ",".join(chosen_flags)),
          ("sort", sort))
awards_section(tuple((k, v) for k, v in params if v), name="awards")
