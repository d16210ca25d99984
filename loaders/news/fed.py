"""The Federal Reserve Board: press-release RSS, then each release page."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from loaders.news.documents import Document, Entry
from loaders.news.feeds import entry_time, entry_title, parse_feed
from loaders.news.text import block_text, soup_of, squash

SOURCE = "fed"
FEED_URL = "https://www.federalreserve.gov/feeds/press_all.xml"


def parse_fed_feed(data: bytes) -> list[Entry]:
    entries = []
    for item in parse_feed(data):
        tags = item.get("tags") or []
        section = tags[0].get("term") if tags else None
        entries.append(Entry(SOURCE, item.get("link", "").strip(), entry_title(item), entry_time(item),
                             section=section.strip() if section else None))
    return entries


def parse_fed_release(markup: bytes | str, entry: Entry) -> Document:
    """A release page: `div#article` holds the date, the title, the release time and the paragraphs."""
    soup = soup_of(markup, "utf-8")
    article = soup.select_one("#article")
    if article is None:
        raise ValueError("no div#article in the release page")
    title_node = article.select_one("h3.title")
    title = squash(title_node.get_text(" ")) if title_node else entry.title
    for node in article.select("p.article__time, h3.title, p.releaseTime, .shareDL, #lastUpdate, .panel"):
        node.decompose()
    text = block_text(article)
    published = entry.published_at or _page_date(soup)
    return Document(SOURCE, entry.url, title, published, "en", text, section=entry.section)


def _page_date(soup) -> datetime:  # noqa: ANN001
    node = soup.select_one("p.article__time")
    text = squash(node.get_text(" ")) if node else ""
    match = re.search(r"[A-Z][a-z]+ \d{1,2}, \d{4}", text)
    if not match:
        raise ValueError("the release page carries no date")
    return datetime.strptime(match.group(0), "%B %d, %Y").replace(tzinfo=UTC)
