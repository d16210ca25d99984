"""Profile of an authority or a contractor (`?kind=authority&id=A000123`): its value by year, counterparts,
sectors and provinces, red flags and awards, every share and mean with the count it rests on; Follow saves
its awards as a watchlist."""

import re
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from dashboard import charts, data, party_charts
from dashboard.awards import awards_section, named, names
from dashboard.client import ApiError
from dashboard.follow import follow_button
from dashboard.formats import counted, number, short_money, too_few, value_text
from dashboard.search import ICONS, profile_query
from dashboard.ui import (
    PLOTLY_CONFIG,
    choose,
    guarded,
    lang,
    literal,
    span_of,
    t,
    table,
    year_choice,
    year_label,
)

kind, party_id = st.query_params.get("kind"), st.query_params.get("id", "").strip()
if kind not in ICONS or not party_id:
    st.title(t("profile"))
    st.info(t("profile_pick"))
    st.stop()
other = "contractor" if kind == "authority" else "authority"
period = year_choice("competition-indices", place=st.sidebar, name="period", label="period", default="all")
language = lang()


def read_profile() -> dict | None:
    try:
        return data.profile(kind, party_id, period)
    except ApiError as exc:
        if exc.status == 404:
            return None
        raise


profile = guarded(read_profile)
if profile is None:
    st.title(t("profile"))
    st.error(t("profile_not_found").format(kind=t(f"party_{kind}"), id=literal(party_id)))
    st.stop()

provinces = data.province_names()
safe_id = re.sub(r"[^\w.-]", "_", party_id)  # for the names of the CSV files
span = span_of("competition-indices")
st.title(literal(profile["name"]))
about = [t(f"kind_{kind}"), names("types").get(profile.get("type"), ""), provinces.get(profile["province"], ""),
         literal(profile["id"]), year_label(period, span)]
st.caption(" · ".join(a for a in about if a))
# Following a party is following its awards, whatever the year shown.
follow_button({kind: profile["id"]}, name=f"{kind}-{safe_id}")


def card(column, label: str, value: float | None, *, style: str = "share", count: str | None = None,  # noqa: ANN001
         unit: str = "contracts", how: str = "of", counts: str | None = None) -> None:
    """A figure; under a share or a mean, the count it rests on (and, with `counts`, what it counts), and a
    warning when that count is below five."""
    column.metric(label, short_money(value, language) if style == "money" else value_text(value, language, style))
    if count is not None:
        column.caption(counted(value, profile[count], unit, language, kind=style, how=how))
        if counts:
            column.caption(t(counts))
        if too_few(profile[count]):
            column.caption(f"⚠ {t('under_five')}")


cards = st.columns(4 if kind == "authority" else 3)
card(cards[0], t("contracts"), profile["contracts"], style="number")
card(cards[1], t("value"), profile["value"], style="money")
if kind == "authority":
    card(cards[2], t("tenders"), profile["tenders"], style="number")
    card(cards[3], t("hhi_suppliers"), profile["hhi"], style="number", count="contracts", how="on")
cards = st.columns(3)
card(cards[0], t("single_bid_share"), profile["singleBidShare"], count="lotsWithBids", unit="lots",
     counts="single_bid_counts")
card(cards[1], t("average_discount"), profile["averageDiscount"], count="discountTenders", unit="tenders",
     how="over")
card(cards[2], t("local_share"), profile["localShare"], count="localShareContracts")

years = pd.DataFrame(profile["years"], columns=["period", "contracts", "value"])
if len(years):
    st.plotly_chart(party_charts.value_by_year_figure(years, title=t("value_by_year"), lang=language, complete=span),
                    width="stretch", config=PLOTLY_CONFIG)
    st.caption(t("amounts_nominal"))


def profile_url(party: str, target: str) -> str:
    """A relative link to another party's profile, in the same language."""
    return "profile?" + urlencode(profile_query(party, target, language))


st.subheader(t(f"counterparts_{kind}"))
counterparts = pd.DataFrame(profile["topContractors" if kind == "authority" else "topAuthorities"])
if counterparts.empty:
    st.info(t("no_items"))
else:
    counterparts["profile"] = counterparts["id"].map(lambda target: profile_url(other, target))
    shown = ["name", "province", *(["type"] if "type" in counterparts else []), "contracts", "value", "share",
             "profile", "id"]
    table(counterparts[shown], name=f"{kind}-{safe_id}-{other}s",
          headings={"name": t(f"kind_{other}"), "province": t("province")},
          display={"province": named(provinces), "type": named(names("types"))}, links={"profile": t("open_profile")})
    st.caption(t(f"counterparts_note_{kind}").format(n=number(profile["contracts"], language)))

st.subheader(t("sectors"))
sectors = pd.DataFrame(profile["sectors"], columns=["sector", "contracts", "value"])
if sectors.empty:
    st.info(t("no_items"))
else:
    sector_names = named(names("sectors"))
    bars = sectors.assign(sectorLabel=sectors["sector"].map(sector_names))
    st.plotly_chart(charts.ranked_bar_figure(bars, value="value", label="sectorLabel", title=t("value"),
                                             lang=language, kind="money"), width="stretch", config=PLOTLY_CONFIG)
    table(sectors, name=f"{kind}-{safe_id}-sectors", headings={"sector": t("sector")}, display={"sector": sector_names})

where = pd.DataFrame(profile["provinces"], columns=["province", "contracts", "value"])
scale = choose("map_scale", list(charts.SCALES), name="scale", labels={s: t(f"scale_{s}") for s in charts.SCALES},
               default="quantile", place=st.columns(3)[0])
st.plotly_chart(charts.choropleth_figure(where.rename(columns={"province": "subject"}), data.province_paths(),
                                         value="value", denominator="contracts", lang=language, kind="money",
                                         title=t(f"map_{kind}").format(period=year_label(period, span)),
                                         unit=t("unit_money"), scale=scale, mark_few=False),
                width="stretch", config=PLOTLY_CONFIG)
st.caption(t("boundaries_credit"))

st.subheader(t("red_flags"))
st.caption(t("flags_note").format(n=number(profile["contracts"], language)))
definitions = guarded(data.red_flags).set_index("id")
for flag in profile["flags"]:
    rule = definitions.loc[flag["flag"]] if flag["flag"] in definitions.index else None
    title = rule["nameTr" if language == "tr" else "nameEn"] if rule is not None else flag["flag"]
    share = flag["contracts"] / profile["contracts"] if profile["contracts"] else None
    with st.container(border=True):
        st.markdown(f"**{literal(title)}** · {number(flag['contracts'], language)} · "
                    f"{counted(share, profile['contracts'], 'contracts', language)}")
        st.caption(t("flag_counts"))
        if rule is not None:  # the rule in the reader's language; its anchor (the API's, in English) is not shown
            st.caption(literal(rule["definitionTr" if language == "tr" else "definitionEn"]))
        if flag["contracts"]:
            st.page_link("views/awards.py", label=t("open_awards"), icon=":material/list:",
                         query_params={kind: party_id, "flag": flag["flag"], "period": period, "lang": language})

st.subheader(t("its_awards"))
sort = choose("sort_by", ["date", "value"], name="sort", labels={"date": t("sort_date"), "value": t("sort_value")},
              sidebar=False)
st.page_link("views/awards.py", label=t("open_explorer"), icon=":material/open_in_new:",
             query_params={kind: party_id, "period": period, "sort": sort, "lang": language})
# The party's own name, type and province would fill a column each with one value: left off the screen.
awards_section(((kind, party_id), ("period", period), ("sort", sort)), name=f"{kind}-{safe_id}-awards",
               hidden=(f"{kind}.",))
