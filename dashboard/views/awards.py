"""Awards explorer: every awarded lot, filtered by place, sector, procedure, party, year and red flag, newest
first or by value; every filter lives in the address (the digest mail links here with a watchlist's), the
table downloads as CSV, a selected award's discount is placed in its benchmark, and Follow saves the filters
as a watchlist."""

import streamlit as st

from dashboard import data, watchlists
from dashboard.awards import awards_section, names
from dashboard.follow import follow_button
from dashboard.formats import money
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
# /awards takes no least value: it is a watchlist's filter only (docs/decisions.md, "Watchlists in the dashboard").
least = st.sidebar.number_input(t("min_value"), min_value=0.0, value=watchlists.min_value(query.get("minValue")),
                                step=100_000.0, format="%.0f", key="w_minValue", help=t("min_value_help"))
sort = choose("sort_by", ["date", "value"], name="sort", labels={"date": t("sort_date"), "value": t("sort_value")})

for name, value in (("flag", ",".join(chosen_flags)), *parties.items(),
                    ("minValue", "" if least is None else watchlists.plain(least))):
    if value:
        query[name] = value
    else:
        query.pop(name, None)
for kind, party_id in parties.items():
    if party_id:
        st.page_link("views/profile.py", label=f"{t(f'kind_{kind}')} {literal(party_id)} · {t('open_profile')}",
                     icon=ICONS[kind], query_params=profile_query(kind, party_id, lang()))
shown = {"province": province, "supplierProvince": supplier, "sector": sector, "procedure": procedure,
         "authorityType": authority_type, **parties, "flag": chosen_flags, "minValue": least}
follow_button(watchlists.chosen_filters(shown), name="awards")
if least is not None:
    st.caption(t("min_value_not_applied").format(value=money(least, lang(), digits=0)))
params = (("province", province), ("supplierProvince", supplier), ("sector", sector), ("procedure", procedure),
          ("authorityType", authority_type), ("authority", parties["authority"]),
          ("contractor", parties["contractor"]), ("period", period), ("flag", ",".join(chosen_flags)),
          ("sort", sort))
awards_section(tuple((k, v) for k, v in params if v), name="awards")
