"""What the parsers produce: feed entries to fetch, and documents to summarise."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Company:
    name: str
    ticker: str | None = None


@dataclass(frozen=True)
class Entry:
    """One item of a source's index (feed, filing list, gazette contents) pointing at a document."""

    source: str
    url: str
    title: str
    published_at: datetime | None
    section: str | None = None
    extra: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Document:
    """A parsed source document: its clean text is all the summariser may use."""

    source: str
    url: str
    title: str
    published_at: datetime
    language: str
    text: str
    section: str | None = None
    companies: tuple[Company, ...] = ()
    filing_items: tuple[str, ...] | None = None
