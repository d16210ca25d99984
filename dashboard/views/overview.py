"""Overview: the release served, its datasets, headline figures against the year before, latest news."""

import streamlit as st

from dashboard import data
from dashboard.i18n import number, share
from dashboard.ui import guarded, lang, link, literal, t

st.title(t("overview"))
release = guarded(data.datasets)
if release["synthetic"]:
    st.warning(t("synthetic_badge"))
st.caption(f"{t('release')}: {release['release']} · {t('loaded_at')}: {release['loadedAt']}")

st.subheader(t("headline_figures"))
competition = guarded(lambda: data.index("competition-indices", "overall"))
concentration = guarded(lambda: data.index("concentration-indices", "overall"))
years = sorted(p for p in competition["period"] if p != "all")
latest = years[-1] if years else None
if latest:
    before = str(int(latest) - 1)
    columns = st.columns(4)
    for column, frame, field, label, fmt in (
        (columns[0], competition, "tenders", "tenders", lambda v: number(v, lang())),
        (columns[1], competition, "singleBidShare", "single_bid_share", lambda v: share(v, lang())),
        (columns[2], competition, "averageDiscount", "average_discount", lambda v: share(v, lang())),
        (columns[3], concentration, "hhi", "hhi", lambda v: number(v, lang())),
    ):
        now, then = (frame.loc[frame["period"] == p, field] for p in (latest, before))
        value = now.iloc[0] if len(now) else None
        delta = value - then.iloc[0] if value is not None and len(then) and then.iloc[0] is not None else None
        column.metric(f"{t(label)} {latest}", fmt(value), fmt(delta) if delta is not None else None,
                      help=t("vs_year_before"))

st.subheader(t("datasets"))
for entry in release["datasets"]:
    st.markdown(f"**{entry['name']}** · {number(entry['rows'], lang())} {t('rows').lower()}  \n"
                f"{t('citation')}: {entry['citation']}")

st.subheader(t("latest_news"))
news = guarded(lambda: data.get("/v1/finance-news/articles", (("minImportance", 4), ("limit", 5))))
for article in news["items"]:
    title = article["titleTr"] if lang() == "tr" else article["titleEn"]
    st.markdown(f"- {link(title, article['url'])} · {literal(article['sourceName'])} · {article['publishedAt'][:10]}")
st.caption(t("machine_written"))
