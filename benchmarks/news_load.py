"""The article list under load: 200,000 synthetic articles, gunicorn with 2 workers, wrk.

    .venv/bin/python benchmarks/news_load.py                  # 200,000 articles, 10 s per query (needs wrk)
    .venv/bin/python benchmarks/news_load.py --smoke          # CI: 5,000 articles, 2 s per query
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests
from sqlalchemy import insert

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import start  # noqa: E402
from benchmarks.wrk_runs import wrk  # noqa: E402
from store.db import create_store_engine  # noqa: E402
from store.models import Article, ArticleFacet  # noqa: E402
from store.news import order_key  # noqa: E402
from store.reference.news import CATEGORY_IDS, SENTIMENT_IDS, SOURCES, article_id  # noqa: E402
from store.schema import upgrade  # noqa: E402

TAGS = ["inflation", "rates", "banking", "energy", "trade", "earnings", "bonds", "fx", "tax", "labour"]
TICKERS = ["AAPL", "MSFT", "NVDA", "PM", "R", "CHTR", "ORI", "JOUT", "ZDGE", "SCVL"]
COUNTRIES = ["US", "TR", "DE", "FR", "IT", "ES", "NL", "CN"]


def fill(url: str, count: int, seed: int = 1) -> None:
    """Insert `count` synthetic articles (and their facets) in batches."""
    rng = random.Random(seed)
    engine = create_store_engine(url)
    upgrade(engine)
    start_time = datetime(2026, 11, 1, tzinfo=UTC)
    sources = list(SOURCES)
    batch_articles, batch_facets = [], []
    with engine.begin() as conn:
        for n in range(count):
            source = sources[n % 4]
            link = f"https://example.test/{source}/{n}"
            published = start_time - timedelta(minutes=7 * n + rng.randint(0, 6))
            tags = rng.sample(TAGS, 2)
            tickers = [rng.choice(TICKERS)] if source == "sec" else []
            countries = rng.sample(COUNTRIES, 1)
            aid = article_id(source, link)
            body = {"id": aid, "source": source, "sourceName": SOURCES[source].name, "url": link,
                    "publishedAt": published.strftime("%Y-%m-%dT%H:%M:%SZ"), "language": "en",
                    "originalTitle": f"Document {n}", "titleTr": f"Belge {n}", "titleEn": f"Document {n}",
                    "summaryTr": "Birinci cümle. İkinci cümle.", "summaryEn": "First sentence. Second sentence.",
                    "section": None, "category": rng.choice(CATEGORY_IDS), "tags": tags,
                    "companies": [{"name": t, "ticker": t} for t in tickers], "countries": countries,
                    "sentiment": rng.choice(SENTIMENT_IDS), "importance": rng.randint(1, 5),
                    "confident": rng.random() > 0.1, "filingItems": None, "model": "benchmark",
                    "summarizedAt": "2026-11-02T00:00:00Z"}
            batch_articles.append({"id": aid, "source": source, "url": link, "published_at": published,
                                   "category": body["category"], "sentiment": body["sentiment"],
                                   "importance": body["importance"], "confident": body["confident"],
                                   "order_key": order_key(published, aid), "body": json.dumps(body)})
            batch_facets += [{"article_id": aid, "facet": "tag", "value": t} for t in tags]
            batch_facets += [{"article_id": aid, "facet": "ticker", "value": t} for t in tickers]
            batch_facets += [{"article_id": aid, "facet": "country", "value": c} for c in countries]
            if len(batch_articles) >= 5000:
                conn.execute(insert(Article), batch_articles)
                conn.execute(insert(ArticleFacet), batch_facets)
                batch_articles, batch_facets = [], []
        if batch_articles:
            conn.execute(insert(Article), batch_articles)
            conn.execute(insert(ArticleFacet), batch_facets)
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--articles", type=int, default=200_000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    count, seconds = (5_000, 2) if args.smoke else (args.articles, args.seconds)
    work = Path(tempfile.mkdtemp(prefix="gosterge-news-bench-"))
    url = f"sqlite:///{work / 'news.db'}"
    started = time.perf_counter()
    fill(url, count)
    print(f"{count} synthetic articles written in {time.perf_counter() - started:.0f} s")
    env = {**os.environ, "GOSTERGE_DATABASE_URL": url, "GOSTERGE_VAR_DIR": str(work)}
    key = subprocess.run([sys.executable, "-m", "cli", "keys", "create", "--apis", "finance-news", "--credits",
                          "1000000000", "--rate", "100000000/minute"], env=env, check=True, capture_output=True,
                         text=True, cwd=ROOT).stdout.strip()
    port = 18911
    server = start("api:create_app()", port, env)
    try:
        base = f"http://127.0.0.1:{port}/v1/finance-news/articles"
        filtered = "?source=fed,sec&tag=inflation&minImportance=3"
        cursor, page = None, 1
        while page < 50:  # walk to the 50th page, or the last one a small data set has
            response = requests.get(base + filtered + (f"&cursor={cursor}" if cursor else ""),
                                    headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
            if not response["next_cursor"]:
                break
            cursor, page = response["next_cursor"], page + 1
        queries = {
            "no filter, first page": base,
            "three filters (source, tag, minImportance)": base + filtered,
            f"same filters, page {page}": base + filtered + (f"&cursor={cursor}" if cursor else ""),
        }
        print(f"gunicorn (gunicorn.conf.py), wrk -t2 -c{args.connections} -d{seconds}s, {count} articles, SQLite")
        print("| query | requests/s | p50 ms | p99 ms | non-2xx |")
        print("|---|---|---|---|---|")
        for name, query in queries.items():
            result = wrk(query, key, seconds, args.connections)
            print(f"| {name} | {result['rps']:.0f} | {result['p50']:.2f} | {result['p99']:.2f} | {result['errors']} |")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
