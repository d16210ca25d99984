"""RSS and Atom feeds through feedparser (BOMs, CDATA and odd dates are its business)."""

from __future__ import annotations

import calendar
import html
from datetime import UTC, datetime
from typing import Any

import feedparser


def parse_feed(data: bytes) -> list[Any]:
    parsed = feedparser.parse(data)
    if parsed.bozo and not parsed.entries:
        raise ValueError(f"not a readable feed: {parsed.bozo_exception}")
    return list(parsed.entries)


def entry_time(entry: Any) -> datetime | None:
    """The entry's publication (or update) time in UTC; feedparser normalises every zone to UTC."""
    for key in ("published_parsed", "updated_parsed"):
        value = entry.get(key)
        if value:
            return datetime.fromtimestamp(calendar.timegm(value), UTC)
    return None


def entry_title(entry: Any) -> str:
    return " ".join(html.unescape(entry.get("title", "")).split())
