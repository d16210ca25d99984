"""The curated sample feed for the demo, checked by the same rules as a model's answers."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from loaders.news.documents import Company, Document
from loaders.news.summarise import build_article, check_answer
from store.db import session_scope
from store.news import upsert_article

# The start of every sample article's `model`: what tells the sample's summaries from a model's.
SAMPLE_MODEL_PREFIX = "curated-sample"
# When the sample's texts were written: a fixed time keeps the sample's answers and ETags stable.
SAMPLE_WRITTEN_AT = datetime(2026, 11, 22, tzinfo=UTC)


class SampleError(Exception):
    """A sample article breaks a rule; the sample file needs mending."""


def sample_articles() -> list[dict[str, Any]]:
    data = json.loads(resources.files("loaders.news").joinpath("sample/articles.json").read_text(encoding="utf-8"))
    articles = []
    for entry in data["articles"]:
        problems = check_answer(entry["answer"])
        if problems:
            raise SampleError(f"{entry['url']}: {'; '.join(problems)}")
        filer = entry.get("filer")
        document = Document(
            entry["source"], entry["url"], entry["title"].split("\n")[0],
            datetime.fromisoformat(entry["publishedAt"].replace("Z", "+00:00")), entry["language"], entry["text"],
            section=entry.get("section"), companies=(Company(filer["name"], filer["ticker"]),) if filer else (),
            filing_items=tuple(entry["filingItems"]) if entry.get("filingItems") else None,
        )
        articles.append(build_article(document, entry["answer"], model=data["model"], now=SAMPLE_WRITTEN_AT))
    return articles


def load_sample(sessions: sessionmaker[Session]) -> int:
    """Store the sample (replacing earlier copies of the same articles); returns how many."""
    articles = sample_articles()
    with session_scope(sessions) as session:
        for article in articles:
            upsert_article(session, article)
    return len(articles)
