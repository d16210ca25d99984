"""The European Central Bank: press RSS, then each page (every article acknowledges the source)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from loaders.news.documents import Document, Entry
from loaders.news.feeds import entry_time, entry_title, parse_feed
from loaders.news.text import soup_of, squash

SOURCE = "ecb"
FEED_URL = "https://www.ecb.europa.eu/rss/press.html"
ACKNOWLEDGEMENT = "Source: European Central Bank"
# The kind of release, from the code in its file name (ecb.pr…, ecb.mp…).
SECTIONS = {"pr": "Press release", "mp": "Monetary policy decision", "sp": "Speech", "is": "Press conference",
            "gc": "Governing Council decision", "in": "Interview", "bl": "Blog post", "ds": "Slides"}


def canonical_ecb_url(url: str) -> str:
    """The feed writes `…europa.eu//press/…`; the site answers the same page without the double slash."""
    return re.sub(r"(?<!:)/{2,}", "/", url.strip())


def ecb_section(url: str) -> str | None:
    match = re.search(r"/ecb\.([a-z]{2})\d", url)
    return SECTIONS.get(match.group(1)) if match else None


def parse_ecb_feed(data: bytes) -> list[Entry]:
    entries = []
    for item in parse_feed(data):
        url = canonical_ecb_url(item.get("link", ""))
        entries.append(Entry(SOURCE, url, entry_title(item), entry_time(item), section=ecb_section(url)))
    return entries


def parse_ecb_page(markup: bytes | str, entry: Entry) -> Document:
    """`<main>`: title in `div.title > h1`, date in `p.ecb-publicationDate` or the published_time meta,
    text in the direct `div.section` / `div.orderedlist` children, up to the `***` separator."""
    soup = soup_of(markup, "utf-8")
    main = soup.find("main")
    if main is None:
        raise ValueError("no <main> in the ECB page")
    heading = main.select_one("div.title h1")
    title = squash(heading.get_text(" ")) if heading else entry.title
    lines: list[str] = []
    for block in main.find_all(["div"], class_=["section", "orderedlist"], recursive=False):
        for node in block.find_all(["p", "h2", "h3", "li"]):
            line = squash(node.get_text(" "))
            if line == "***":
                break
            if line:
                lines.append(line)
        else:
            continue
        break
    lines.append(ACKNOWLEDGEMENT + ".")
    return Document(SOURCE, entry.url, title, entry.published_at or _page_date(soup), "en", "\n".join(lines),
                    section=entry.section or ecb_section(entry.url))


def _page_date(soup) -> datetime:  # noqa: ANN001
    meta = soup.find("meta", attrs={"property": "article:published_time"})
    if meta and meta.get("content"):
        return datetime.fromisoformat(meta["content"][:10]).replace(tzinfo=UTC)
    node = soup.select_one("p.ecb-publicationDate, div.ecb-pressContentPubDate")
    if node is None:
        raise ValueError("the ECB page carries no date")
    return datetime.strptime(squash(node.get_text(" ")), "%d %B %Y").replace(tzinfo=UTC)
