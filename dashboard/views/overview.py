"""Overview: the release served, its datasets, headline figures of complete years, latest news."""

import streamlit as st

from dashboard import data, years
from dashboard.formats import local_time, number, points, share, short_money
from dashboard.i18n import dataset_text, news_value
from dashboard.ui import guarded, lang, link, literal, said, t

# (endpoint, field, label, how the value and its change are written, whether a fall is good news)
HEADLINES = (
    ("competition-indices", "tenders", "tenders", number, number, "normal"),
    ("competition-indices", "singleBidShare", "single_bid_share", share, points, "inverse"),
    ("competition-indices", "averageDiscount", "average_discount", share, points, "normal"),
    ("concentration-indices", "hhi", "hhi", number, number, "inverse"),
    ("direct-procurement-indices", "total", "direct_total", short_money, short_money, "off"),
)
# The EKAP importer's citations (loaders/ekap/importer.py) by how they start, and their labels.
KNOWN_CITATIONS = (("Kamu İhale Kurumu (KİK), Elektronik Kamu Alımları Platformu (EKAP)", "ekap_citation"),
                   ("No direct purchases: ", "ekap_no_direct"))
ROW = 3  # cards in a row: five in one row cut the amounts short

def citation_text(citation: str) -> str:
    """A release's citation; the EKAP importer's own two (written in both languages, or in English) in the
    reader's language, any other as the release wrote it."""
    for start, key in KNOWN_CITATIONS:
        if citation.startswith(start):
            return t(key)
    return literal(citation)


st.title(t("overview"))
release = guarded(data.datasets)
if release["synthetic"]:
    st.warning(t("synthetic_badge"))
st.caption(f"{t('release')}: {release['release']} · {t('loaded_at')}: {local_time(release['loadedAt'], lang())} "
           f"· {t('times_note')}")

st.subheader(t("headline_figures"))
periods = [str(y) for y in range(2019, int(release.get("latestYear") or 2019) + 1)]
columns = [c for _ in range(0, len(HEADLINES), ROW) for c in st.columns(ROW)]
partial_years_shown: set[str] = set()
for column, (endpoint, field, label, fmt, change, good) in zip(columns, HEADLINES, strict=False):
    frame = guarded(lambda endpoint=endpoint: data.index(endpoint, "overall"))
    span = years.complete_span(release, endpoint)
    figure = years.headline(frame, field, span, years.years_with_data(release, endpoint))
    partial = ", ".join(years.partial_years(periods, span)) or "–"
    if figure.year is None:
        empty = years.emptiness(release, endpoint)
        column.metric(t(label), "–", help=said(empty) if empty is not None else t("not_found_year"))
        if empty is not None:
            column.caption(said(empty))
        continue
    before = str(int(figure.year) - 1)
    if figure.partial:
        partial_years_shown.add(figure.year)
        note = t("partial")
    else:
        note = (t("vs_year").format(year=before) if figure.delta is not None
                else t("no_comparison_partial" if not years.is_complete(before, span) else "no_comparison_missing")
                .format(year=before))
    shown_year = t("year_partial_option").format(year=figure.year) if figure.partial else figure.year
    column.metric(f"{t(label)} · {shown_year}", fmt(figure.value, lang()),
                  change(figure.delta, lang()) if figure.delta is not None else None, delta_color=good,
                  help=t("headline_partial").format(year=figure.year) if figure.partial
                  else f"{t('headline_help').format(year=figure.year, partial=partial)} {note}")
    column.caption(note)
for year in sorted(partial_years_shown):
    # Said once for every card that had to fall back on a partial year.
    st.info(t("headline_partial").format(year=year))

st.subheader(t("datasets"))
coverage_line = years.coverage_text(release)
if coverage_line is not None:
    st.caption(t("coverage_note").format(**coverage_line))
for entry in release["datasets"]:
    # A synthetic release's citation, written by the generator in English, says only what the badge says;
    # any other is the release's own words (its manifest): data, shown as text, never as Markdown.
    citation = t("synthetic_citation") if release["synthetic"] else citation_text(entry["citation"])
    st.markdown(f"**{literal(dataset_text(entry['name'], lang()))}** · {number(entry['rows'], lang())} "
                f"{t('rows').lower()}  \n{t('citation')}: {citation}")

files = guarded(data.downloads)
if files["items"] and files["release"] == release["release"]:  # the files of the release shown, no other's
    st.subheader(t("downloads"))
    for entry in files["items"]:
        line = t("download_line").format(size=number(entry["size"] / 1e6, lang(), digits=1),
                                         credits=number(entry["credits"], lang()), sha=entry["sha256"][:12])
        st.markdown(f"{link(t('download_' + entry['kind']), entry['url'])}  \n{line}")
    st.caption(t("downloads_note"))

st.subheader(t("latest_news"))
news = guarded(lambda: data.get("/v1/finance-news/articles", (("minImportance", 4), ("limit", 5))))
for article in news["items"]:
    title = article["titleTr"] if lang() == "tr" else article["titleEn"]
    st.markdown(f"- {link(title, article['url'])} · {literal(news_value(article['source'], lang()))} · "
                f"{local_time(article['publishedAt'], lang(), with_time=False)}")
st.caption(t("machine_written"))
