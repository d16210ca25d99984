"""The finance-news endpoints: filters, inclusive date bounds, order, paging, 404 and sources."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from store.db import session_scope
from store.news import upsert_article
from store.reference.news import article_id
from tests.helpers import assert_problem, error_parameters, walk_pages

BASE = "/v1/finance-news"
SOURCES = ["fed", "ecb", "sec", "resmi-gazete"]


def make_article(n: int, **overrides) -> dict:
    source = SOURCES[n % 4]
    url = f"https://example.test/{source}/{n}"
    published = datetime(2026, 8, 1, 12, tzinfo=UTC) - timedelta(hours=6 * (n // 2))
    article = {
        "id": article_id(source, url), "source": source, "sourceName": source.upper(), "url": url,
        "publishedAt": published.strftime("%Y-%m-%dT%H:%M:%SZ"), "language": "tr" if source == "resmi-gazete" else "en",
        "originalTitle": f"Document {n}", "titleTr": f"Belge {n}", "titleEn": f"Document {n}",
        "summaryTr": "Birinci cümle. İkinci cümle.", "summaryEn": "First sentence. Second sentence.",
        "section": None, "category": ["monetary-policy", "earnings", "regulation"][n % 3],
        "tags": ["rates"] if n % 2 else ["inflation"], "companies": [{"name": "Acme Inc.", "ticker": "ACME"}] if source == "sec" else [],
        "countries": ["US"] if source in ("fed", "sec") else ["TR"] if source == "resmi-gazete" else ["DE", "FR"],
        "sentiment": ["positive", "negative", "neutral", "mixed"][n % 4], "importance": 1 + n % 5,
        "confident": n % 3 != 0, "filingItems": None, "model": "test-model",
        "summarizedAt": "2026-08-02T00:00:00Z",
    }
    article.update(overrides)
    return article


@pytest.fixture
def news(app, auth):
    articles = [make_article(n) for n in range(40)]
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        for article in articles:
            upsert_article(session, article)
    client = app.test_client()

    def get(query: str = "", status: int = 200):
        response = client.get(f"{BASE}/articles{query}", headers=auth)
        assert response.status_code == status, response.get_data(as_text=True)
        return response

    return articles, get


def expected(articles, keep) -> list[str]:  # noqa: ANN001
    chosen = [a for a in articles if keep(a)]
    return [a["id"] for a in sorted(chosen, key=lambda a: (a["publishedAt"], a["id"]), reverse=True)]


@pytest.mark.parametrize(("query", "keep"), [
    ("?limit=7", lambda a: True),
    ("?limit=5&source=fed,sec", lambda a: a["source"] in ("fed", "sec")),
    ("?limit=5&category=earnings", lambda a: a["category"] == "earnings"),
    ("?limit=5&tag=RATES", lambda a: "rates" in a["tags"]),
    ("?limit=5&ticker=acme", lambda a: a["source"] == "sec"),
    ("?limit=5&country=de,tr", lambda a: {"DE", "TR"} & set(a["countries"])),
    ("?limit=5&minImportance=4", lambda a: a["importance"] >= 4),
    ("?limit=5&sentiment=mixed&confident=true", lambda a: a["sentiment"] == "mixed" and a["confident"]),
    ("?limit=3&since=2026-07-30&until=2026-07-31", lambda a: "2026-07-30" <= a["publishedAt"][:10] <= "2026-07-31"),
    ("?limit=3&since=2026-07-31T00:00:00Z&until=2026-07-31T18:00:00Z",
     lambda a: "2026-07-31T00:00:00Z" <= a["publishedAt"] <= "2026-07-31T18:00:00Z"),
    ("?tag=unknown-tag", lambda a: False),
])
def test_filters_and_paging(news, app, auth, query, keep):
    articles, _ = news
    walked = walk_pages(app.test_client(), f"{BASE}/articles{query}", auth)
    assert [a["id"] for a in walked] == expected(articles, keep)


@pytest.mark.parametrize(("query", "parameter"), [
    ("?source=bloomberg", "source"), ("?category=sports", "category"), ("?minImportance=6", "minImportance"),
    ("?sentiment=happy", "sentiment"), ("?confident=yes", "confident"), ("?since=yesterday", "since"),
    ("?since=2026-08-02&until=2026-08-01", "since"), ("?country=USA", "country"), ("?limit=201", "limit"),
    ("?cursor=abc", "cursor"),
])
def test_invalid_values_are_400(news, query, parameter):
    _, get = news
    body = assert_problem(get(query, 400), 400, "invalid_parameters")
    assert error_parameters(body) == [parameter]


def test_article_by_id_and_404(news, app, auth):
    articles, _ = news
    client = app.test_client()
    body = client.get(f"{BASE}/articles/{articles[3]['id']}", headers=auth).get_json()
    assert body == articles[3]
    assert_problem(client.get(f"{BASE}/articles/fed-0000000000000000", headers=auth), 404, "not_found")


def test_sources_count_articles(news, app, auth):
    items = app.test_client().get(f"{BASE}/sources", headers=auth).get_json()["items"]
    assert [s["id"] for s in items] == SOURCES
    assert all(s["articles"] == 10 and s["latestAt"] and s["licence"] for s in items)


def test_same_document_gives_same_id():
    assert article_id("fed", "https://x.test/a") == article_id("fed", "https://x.test/a")
    assert article_id("resmi-gazete", "https://x.test/a").startswith("rg-")


def test_total_follows_new_articles(news, app, auth):
    articles, get = news
    assert get("?source=fed").get_json()["total"] == 10
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        upsert_article(session, make_article(100, source="fed", id=article_id("fed", "https://example.test/new")))
    assert get("?source=fed").get_json()["total"] == 11
