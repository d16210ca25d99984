"""News articles: upsert with their facets, the filtered keyset listing, one by id, per-source counts."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.orm import Session

from store.db import unindexed
from store.errors import NotFoundError
from store.models import Article, ArticleFacet, DataVersion, SummaryFailure
from store.pages import fetch_page
from store.times import format_utc

FACETS = ("tag", "ticker", "country")
NEWS = "news"


def order_key(published_at: datetime, article_id: str) -> str:
    return f"{format_utc(published_at)}|{article_id}"


def _key_bound(moment: datetime, *, lower: bool) -> str:
    """Order keys hold whole seconds: a lower bound rounds up, an upper bound down and covers every id."""
    seconds = moment.timestamp()
    text = format_utc(datetime.fromtimestamp(math.ceil(seconds) if lower else math.floor(seconds), UTC))
    return text if lower else text + "|~"


def upsert_article(session: Session, article: dict[str, Any]) -> bool:
    """Insert or replace one article (its body is the served JSON); True when it was new."""
    published = datetime.fromisoformat(article["publishedAt"].replace("Z", "+00:00"))
    existing = session.get(Article, article["id"])
    row = existing or Article(id=article["id"])
    row.source, row.url, row.published_at = article["source"], article["url"], published
    row.category, row.sentiment = article["category"], article["sentiment"]
    row.importance, row.confident = int(article["importance"]), bool(article["confident"])
    row.order_key = order_key(published, article["id"])
    row.body = json.dumps(article, ensure_ascii=False, separators=(",", ":"))
    if existing is None:
        session.add(row)
    session.flush()
    session.execute(delete(ArticleFacet).where(ArticleFacet.article_id == row.id))
    facets = {("tag", t.lower()) for t in article["tags"]}
    facets |= {("ticker", c["ticker"].upper()) for c in article["companies"] if c.get("ticker")}
    facets |= {("country", c.upper()) for c in article["countries"]}
    session.add_all(ArticleFacet(article_id=row.id, facet=f, value=v) for f, v in sorted(facets))
    session.execute(delete(SummaryFailure).where(SummaryFailure.article_id == row.id))
    _bump_news_version(session)
    return existing is None


def _bump_news_version(session: Session) -> None:
    bumped = session.execute(update(DataVersion).where(DataVersion.name == NEWS).values(version=DataVersion.version + 1))
    if bumped.rowcount == 0:
        session.add(DataVersion(name=NEWS, version=1))
        session.flush()


@dataclass(frozen=True)
class ArticleFilters:
    sources: list[str] | None = None
    category: str | None = None
    tags: list[str] | None = None
    tickers: list[str] | None = None
    countries: list[str] | None = None
    min_importance: int | None = None
    sentiment: str | None = None
    confident: bool | None = None
    since: datetime | None = None  # inclusive bounds of publishedAt
    until: datetime | None = None


def _conditions(f: ArticleFilters) -> list[Any]:
    """Filters of the article list. Every column but the order key is compared `unindexed`: the list is
    a newest-first walk of the order-key index that stops after one page, and on SQLite an index on a
    filter column would instead find and sort every matching row (PostgreSQL's planner is unaffected)."""
    where: list[Any] = []
    if f.sources:
        where.append(unindexed(Article.source).in_(f.sources))
    if f.category:
        where.append(unindexed(Article.category) == f.category)
    for facet, values in (("tag", f.tags), ("ticker", f.tickers), ("country", f.countries)):
        if values:
            # A correlated EXISTS probes the (article, facet, value) index once per walked row.
            where.append(exists().where(ArticleFacet.article_id == Article.id, ArticleFacet.facet == facet,
                                        ArticleFacet.value.in_(values)))
    if f.min_importance is not None:
        where.append(unindexed(Article.importance) >= f.min_importance)
    if f.sentiment:
        where.append(unindexed(Article.sentiment) == f.sentiment)
    if f.confident is not None:
        where.append(unindexed(Article.confident) == f.confident)
    if f.since:
        where.append(Article.order_key >= _key_bound(f.since, lower=True))
    if f.until:
        where.append(Article.order_key <= _key_bound(f.until, lower=False))
    return where


def list_articles(session: Session, filters: ArticleFilters, *, before: str | None, limit: int,
                  known_total: int | None = None) -> tuple[list[tuple[str, str]], int]:
    """Newest first: a page of (order key, body) strictly after the cursor key `before`, and the total
    (counted unless the caller already knows it for this data version)."""
    where = _conditions(filters)
    return fetch_page(session, key=Article.order_key, body=Article.body, where=where, after=before, descending=True,
                      limit=limit, known_total=known_total)


def get_article(session: Session, article_id: str) -> str:
    body = session.scalar(select(Article.body).where(Article.id == article_id))
    if body is None:
        raise NotFoundError(f"no article {article_id}")
    return body



def source_stats(session: Session) -> dict[str, tuple[int, str | None]]:
    """Per source: (number of articles, latest order key or None)."""
    rows = session.execute(select(Article.source, func.count(), func.max(Article.order_key)).group_by(Article.source))
    return {r[0]: (int(r[1]), r[2]) for r in rows}


def news_version(session: Session) -> str:
    """Changes with every article written: one primary-key read, cheap enough for every request."""
    return f"news-{session.scalar(select(DataVersion.version).where(DataVersion.name == NEWS)) or 0}"


def stored_models(session: Session, article_ids: list[str]) -> dict[str, str]:
    """The model that wrote each stored article among `article_ids` (absent ones are left out)."""
    models: dict[str, str] = {}
    for start in range(0, len(article_ids), 500):  # well under every database's limit of bound parameters
        chunk = article_ids[start:start + 500]
        for article_id, body in session.execute(select(Article.id, Article.body).where(Article.id.in_(chunk))):
            models[article_id] = str(json.loads(body).get("model") or "")
    return models


def record_failure(session: Session, *, article_id: str, source: str, url: str, reason: str, now: datetime) -> None:
    """Keep the latest reason a document could not be summarised; the next run tries it again."""
    row = session.scalars(select(SummaryFailure).where(SummaryFailure.article_id == article_id)).first()
    if row is None:
        session.add(SummaryFailure(article_id=article_id, source=source, url=url, at=now, reason=reason, attempts=1))
    else:
        row.at, row.reason, row.attempts = now, reason, row.attempts + 1


def clear_fetch_failures(session: Session, source: str, *, keep: set[str], prefix: str) -> None:
    """Take off the list the failures of fetching (their reason starts with `prefix`) of `source` whose
    address is not in `keep`: fetched again, they are no longer failures."""
    rows = session.scalars(select(SummaryFailure).where(SummaryFailure.source == source,
                                                        SummaryFailure.reason.startswith(prefix, autoescape=True)))
    for row in rows:
        if row.url not in keep:
            session.delete(row)


def list_failures(session: Session) -> list[SummaryFailure]:
    return list(session.scalars(select(SummaryFailure).order_by(SummaryFailure.at.desc())))
