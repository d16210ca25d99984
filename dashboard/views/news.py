"""News: every filter of the articles endpoint, in Turkish or English, loaded page by page."""

from datetime import date

import streamlit as st

from dashboard import data
from dashboard.formats import local_time
from dashboard.i18n import news_value, text
from dashboard.ui import guarded, lang, literal, safe_url, t

st.title(t("news"))
st.caption(t("machine_written"))
sidebar = st.sidebar
query = st.query_params  # every filter lives in the URL, so a filtered feed can be shared as a link
CATEGORIES = ["", "monetary-policy", "macro-data", "regulation", "banking", "capital-markets", "corporate", "earnings",
              "m-and-a", "management", "debt", "fiscal", "trade", "energy", "other"]
SENTIMENTS = ["", "positive", "negative", "neutral", "mixed"]
SOURCES = ["fed", "ecb", "sec", "resmi-gazete"]
SAMPLE_MODEL = "curated-sample"  # the start of the curated sample's `model` (README, "The demo")
EVERY = {"category": "all_categories", "sentiment": "all_sentiments"}  # what the empty choice of each select reads


LANGUAGE = lang()  # bound once per run: a widget formats its options again after the run


def _value(value: str, every: str) -> str:
    return text(every, LANGUAGE) if value == "" else news_value(value, LANGUAGE)


def written_by(model: str) -> str:
    """Who wrote an article's headline and summary, from its `model`: the curated sample's (the API documents
    its `curated-sample` prefix) are written by hand, any other by the model it names."""
    if model.startswith(SAMPLE_MODEL):
        return t("written_by_hand")
    return t("written_by_model").format(model=literal(model or "?"))


def _date(name: str):  # noqa: ANN202
    try:
        return date.fromisoformat(query.get(name, ""))
    except ValueError:
        return None


sources = sidebar.multiselect(t("source"), SOURCES, key="w_sources", placeholder=t("choose_options"),
                              format_func=lambda v: news_value(v, LANGUAGE),
                              default=[s for s in query.get("source", "").split(",") if s in SOURCES])
category = sidebar.selectbox(t("category"), CATEGORIES, key="w_category", placeholder=t("choose_option"),
                             format_func=lambda v: _value(v, EVERY["category"]),
                             index=CATEGORIES.index(query.get("category", "")) if query.get("category", "") in CATEGORIES else 0)
tags = sidebar.text_input(t("tags"), value=query.get("tag", ""), key="w_tags", help=t("tags_help"),
                          placeholder=t("tags_placeholder"))
tickers = sidebar.text_input(t("tickers"), value=query.get("ticker", ""), key="w_tickers", help=t("tickers_help"),
                             placeholder="AAPL, MSFT")
countries = sidebar.text_input(t("countries"), value=query.get("country", ""), key="w_countries",
                               help=t("countries_help"), placeholder="TR, US")
importance = sidebar.slider(t("min_importance"), 1, 5, int(query.get("minImportance", "1")) if query.get("minImportance", "1") in "12345" else 1,
                            key="w_importance")
sentiment = sidebar.selectbox(t("sentiment"), SENTIMENTS, key="w_sentiment", placeholder=t("choose_option"),
                              format_func=lambda v: _value(v, EVERY["sentiment"]),
                              index=SENTIMENTS.index(query.get("sentiment", "")) if query.get("sentiment", "") in SENTIMENTS else 0)
confident = sidebar.checkbox(t("confident_only"), value=query.get("confident") == "true", key="w_confident")
since = sidebar.date_input(t("since"), value=_date("since"), key="w_since", format=t("date_format"))
until = sidebar.date_input(t("until"), value=_date("until"), key="w_until", format=t("date_format"))

params = (("source", ",".join(sources)), ("category", category), ("tag", tags), ("ticker", tickers),
          ("country", countries), ("minImportance", importance if importance > 1 else None),
          ("sentiment", sentiment), ("confident", "true" if confident else None),
          ("since", since.isoformat() if since else None), ("until", until.isoformat() if until else None))
params = tuple((k, v) for k, v in params if v)
for name in ("source", "category", "tag", "ticker", "country", "minImportance", "sentiment", "confident", "since", "until"):
    query.pop(name, None)
query.update({k: str(v) for k, v in params})
if st.session_state.get("news_filters") != params:
    st.session_state.news_filters, st.session_state.news_cursors = params, [None]

articles, total = [], 0
for cursor in st.session_state.news_cursors:
    page = guarded(lambda cursor=cursor: data.get("/v1/finance-news/articles", params + ((("cursor", cursor),) if cursor else ())))
    articles += page["items"]
    total, next_cursor = page["total"], page["next_cursor"]
st.caption(f"{len(articles)} / {total} · {t('times_note')}")
for article in articles:
    with st.container(border=True):
        title, summary = (article["titleTr"], article["summaryTr"]) if lang() == "tr" else (article["titleEn"], article["summaryEn"])
        st.markdown(f"**{literal(title)}**")
        st.caption(literal(f"{news_value(article['source'], lang())} · {local_time(article['publishedAt'], lang())} · "
                           f"{news_value(article['category'], lang())} · "
                           f"{t('sentiment')}: {news_value(article['sentiment'], lang())} · "
                           f"{t('importance')}: {'★' * article['importance']}"))
        st.markdown(literal(summary))
        st.caption(written_by(article.get("model") or ""))
        companies = ", ".join(c["name"] + (f" ({c['ticker']})" if c["ticker"] else "") for c in article["companies"])
        if companies:
            st.caption(literal(f"{t('companies')}: {companies}"))
        if not article["confident"]:
            st.warning(t("not_confident"))
        if safe_url(article["url"]):
            st.link_button(t("original"), article["url"])
if next_cursor and st.button(t("load_more")):
    st.session_state.news_cursors.append(next_cursor)
    st.rerun()
