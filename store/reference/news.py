"""The four news sources: names, language, homepage, licence terms and article-id prefix."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class NewsSource:
    id: str
    prefix: str
    name: str
    name_tr: str
    language: str
    homepage: str
    licence: str


SOURCES: dict[str, NewsSource] = {s.id: s for s in [
    NewsSource("fed", "fed", "Board of Governors of the Federal Reserve System", "ABD Merkez Bankası (Fed)", "en",
               "https://www.federalreserve.gov/",
               "Works of the US federal government are in the public domain in the United States; "
               "the Federal Reserve Board asks that it be credited as the source."),
    NewsSource("ecb", "ecb", "European Central Bank", "Avrupa Merkez Bankası (ECB)", "en",
               "https://www.ecb.europa.eu/",
               "Reproduction is permitted provided that the source is acknowledged: "
               "Source: European Central Bank."),
    NewsSource("sec", "sec", "U.S. Securities and Exchange Commission (EDGAR 8-K filings)",
               "ABD Sermaye Piyasası Kurulu (SEC) 8-K bildirimleri", "en", "https://www.sec.gov/",
               "EDGAR filings are public records; SEC content is a US government work in the public domain."),
    NewsSource("resmi-gazete", "rg", "Official Gazette of the Republic of Türkiye", "T.C. Resmî Gazete", "tr",
               "https://www.resmigazete.gov.tr/",
               "Official texts (laws, regulations, decisions) are not protected by copyright under Article 31 "
               "of Law No. 5846; the Official Gazette is cited as the source."),
]}


SOURCE_IDS = tuple(SOURCES)
CATEGORY_IDS = ("monetary-policy", "macro-data", "regulation", "banking", "capital-markets", "corporate", "earnings",
                "m-and-a", "management", "debt", "fiscal", "trade", "energy", "other")
SENTIMENT_IDS = ("positive", "negative", "neutral", "mixed")


def article_id(source: str, canonical_url: str) -> str:
    """`<prefix>-<16 hex>` from the canonical document URL: the same document always gets the same id."""
    digest = hashlib.sha256(canonical_url.strip().encode("utf-8")).hexdigest()[:16]
    return f"{SOURCES[source].prefix}-{digest}"
