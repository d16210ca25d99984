"""/v1/finance-news: sources, the filtered article list, one article."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from flask import Blueprint

from api.areas import Area
from api.db import db_session
from api.description.schemas import CATEGORIES, SENTIMENTS, SOURCES
from api.operations import Reply, json_body
from api.params import (
    MAX_VALUE_CHARS,
    Param,
    bool_param,
    enum_param,
    int_param,
    list_param,
    paging,
    parse_instant,
    path_param,
)
from api.problems import NotFound
from api.transport.paging import cursor_filters, finish_page, page_envelope
from api.transport.totals import totals
from store.errors import NotFoundError
from store.news import ArticleFilters, get_article, list_articles, news_version, source_stats
from store.reference.news import SOURCES as SOURCE_INFO

# An article's place in the order: publishedAt|id, as store/news.py order_key writes it.
ORDER_KEY_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\|(fed|ecb|sec|rg)-[0-9a-f]{16}")
area = Area(Blueprint("news", __name__, url_prefix="/v1/finance-news"), "Finance news", api="finance-news",
            data_version=lambda caller: f"news-{caller.news_version}")


def _since(raw: str) -> datetime:
    return parse_instant(raw, end_of_day=False)


def _until(raw: str) -> datetime:
    return parse_instant(raw, end_of_day=True)


def _country(raw: str) -> str:
    if not re.fullmatch(r"[A-Za-z]{2}", raw):
        raise ValueError("must list ISO 3166-1 alpha-2 codes such as US, TR, DE")
    return raw.upper()


# `YYYY-MM-DD`, or an ISO 8601 time with its offset in any form Python reads (api/params.py
# `parse_instant`), so no pattern: it would refuse forms the server takes.
DATE_OR_TIME = {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS}
ARTICLE_PARAMS: tuple[Param, ...] = (
    list_param("source", "Comma-separated source ids from /sources; an unknown id is 400.", enum=SOURCES),
    enum_param("category", CATEGORIES, "Exactly one category."),
    list_param("tag", "Comma-separated tags, matched without regard to case; an unknown tag matches nothing.",
               str.lower),
    list_param("ticker", "Comma-separated US tickers of 8-K filers; an unknown ticker matches nothing.", str.upper),
    list_param("country", "Comma-separated ISO 3166-1 alpha-2 codes.", _country, pattern="^[A-Za-z]{2}(,[A-Za-z]{2})*$"),
    int_param("minImportance", 1, 5, "Only articles of at least this importance."),
    enum_param("sentiment", SENTIMENTS, "Exactly one sentiment."),
    bool_param("confident", "`true` or `false`."),
    Param("since", DATE_OR_TIME, "Inclusive lower bound: `YYYY-MM-DD` (from the start of that UTC day) or an "
          "ISO 8601 time with offset.", _since),
    Param("until", DATE_OR_TIME, "Inclusive upper bound: `YYYY-MM-DD` (to the end of that UTC day) or an "
          "ISO 8601 time with offset.", _until),
    *paging(lambda position: isinstance(position, str) and ORDER_KEY_SHAPE.fullmatch(position) is not None),
)


def check_window(values: dict[str, Any]) -> list[dict[str, str]]:
    if values["since"] and values["until"] and values["since"] > values["until"]:
        return [{"parameter": "since", "message": "is after until"}]
    return []


@area.get("/articles", cost=1, params=ARTICLE_PARAMS, checks=[check_window], response_schema="NewsArticlePage",
          links={"GetFirstArticle": {"operationId": "get_news_article", "parameters": {"id": "$response.body#/items/0/id"},
                                     "description": "The first article of the page, by its id."}})
def list_news_articles(values: dict[str, Any]) -> Reply:
    """Articles, newest first
    Filters combine; a list-valued filter matches any of its values. Order: publishedAt descending, then id
    descending, stable across pages."""
    filters = ArticleFilters(
        sources=values["source"], category=values["category"], tags=values["tag"], tickers=values["ticker"],
        countries=values["country"], min_importance=values["minImportance"], sentiment=values["sentiment"],
        confident=values["confident"],
        since=values["since"], until=values["until"],
    )
    before = values["cursor"].position if values["cursor"] is not None else None
    session = db_session()
    version = news_version(session)
    filters_only = cursor_filters(values, ARTICLE_PARAMS)
    known_total = totals().get(version, filters_only)
    rows, total = list_articles(session, filters, before=before, limit=values["limit"] + 1, known_total=known_total)
    if known_total is None:
        totals().put(version, filters_only, total)
    return Reply(finish_page(rows, total, values, position=lambda key: key), version)


ARTICLE_ID_SHAPE = re.compile(r"(fed|ecb|sec|rg)-[0-9a-f]{16}")
ARTICLE_ID = path_param("id", {"type": "string", "pattern": f"^{ARTICLE_ID_SHAPE.pattern}$"},
                        "Article identifier, `<prefix>-<16 hex>`; any other form names no article (404).", "article")


@area.get("/articles/<id>", cost=1, response_schema="NewsArticle", path_params=[ARTICLE_ID],
          extra_statuses=[404])
def get_news_article(values: dict[str, Any], id: str) -> Reply:
    """One article by its identifier"""
    try:
        body = get_article(db_session(), id)
    except NotFoundError:
        raise NotFound(f"No article {id!r}.") from None
    return Reply(body, "article")


@area.get("/sources", cost=0, response_schema="NewsSourcePage")
def list_news_sources(values: dict[str, Any]) -> Reply:
    """The four sources with their licence terms and number of summarised articles"""
    session = db_session()
    stats = source_stats(session)
    items = []
    for source in SOURCE_INFO.values():
        count, latest = stats.get(source.id, (0, None))
        items.append(json_body({
            "id": source.id, "name": source.name, "nameTr": source.name_tr, "language": source.language,
            "homepage": source.homepage, "licence": source.licence, "articles": count,
            "latestAt": latest.split("|")[0] if latest else None,
        }))
    return Reply(page_envelope(items, len(items), None), news_version(session))
