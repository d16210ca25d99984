"""Resmî Gazete: the daily contents page, filtered to economic texts, then each text (windows-1254).

Which texts count as economic: items of the executive part (YÜRÜTME VE İDARE BÖLÜMÜ) under the
regulatory headings in KINDS whose title names an economic subject or issuer from KEYWORDS.
Announcements (İLÂN BÖLÜMÜ), court decisions and PDF-only texts are left out: announcements are not
regulation, and a PDF has no text the service can extract reliably.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urljoin

from loaders.news.documents import Document, Entry
from loaders.news.text import soup_of, squash
from store.reference.lists import fold

SOURCE = "resmi-gazete"
ENCODING = "windows-1254"
EXECUTIVE_PART = "yurutme ve idare bolumu"
KINDS = ("yonetmelik", "teblig", "kurul karar", "cumhurbaskani karar", "cumhurbaskanligi kararname",
         "kanun", "genelge")
KEYWORDS = (
    "banka", "bankacilik", "finans", "sermaye piyasasi", "piyasa", "borsa", "vergi", "gumruk", "ithalat", "ihracat",
    "ticaret", "ticari", "kambiyo", "doviz", "kur ", "merkez bankasi", "faiz", "kredi", "sigorta", "emeklilik",
    "enerji", "elektrik", "dogal gaz", "petrol", "maden", "butce", "maliye", "hazine", "borc", "yatirim", "tesvik",
    "ihale", "kamu ihale", "rekabet", "fiyat", "tarife", "harc", "odeme", "kooperatif", "ekonomi", "istihdam",
    "ucret", "sosyal guvenlik", "teknik duzenleme", "standardizasyon", "tuketici", "kalkinma",
)
MONTHS = {"ocak": 1, "subat": 2, "mart": 3, "nisan": 4, "mayis": 5, "haziran": 6, "temmuz": 7, "agustos": 8,
          "eylul": 9, "ekim": 10, "kasim": 11, "aralik": 12}
# An issue appears at midnight Türkiye time (UTC+3), the evening before in UTC.
ISSUE_OFFSET = timedelta(hours=-3)


def is_economic(kind: str, title: str) -> bool:
    folded_kind, folded_title = fold(kind), fold(title)
    return any(k in folded_kind for k in KINDS) and any(k in folded_title for k in KEYWORDS)


def issue_date(text: str) -> datetime:
    """`16 Eylül 2026` (any case, with or without Turkish letters) as the issue's start in UTC."""
    match = re.search(r"(\d{1,2})\s+([A-Za-zÇĞİÖŞÜçğıöşü]+)\s+(\d{4})", text)
    if not match or fold(match.group(2)) not in MONTHS:
        raise ValueError(f"no Turkish date in {text[:80]!r}")
    day = datetime(int(match.group(3)), MONTHS[fold(match.group(2))], int(match.group(1)), tzinfo=UTC)
    return day + ISSUE_OFFSET


def parse_gazette_index(data: bytes, index_url: str) -> list[Entry]:
    """Economic texts of one issue: part and kind come from the headings above each `––` item."""
    soup = soup_of(data, ENCODING)
    header = next((text for text in (squash(p.get_text(" ")) for p in soup.find_all("p"))
                   if "Sayılı Resmî Gazete" in text), "")
    published = issue_date(header)
    part = kind = ""
    entries = []
    for paragraph in soup.find_all("p"):
        text = squash(paragraph.get_text(" "))
        link = paragraph.find("a", href=True)
        if not text:
            continue
        if link is None and text.isupper():
            if "BÖLÜMÜ" in text:
                part, kind = text, ""
            else:
                kind = text
            continue
        if link is None or not text.startswith("–"):
            continue
        title = text.lstrip("–- ").strip()
        url = urljoin(index_url, link["href"])
        if fold(part) == EXECUTIVE_PART and url.endswith(".htm") and is_economic(kind, title):
            entries.append(Entry(SOURCE, url, title, published, section=kind))
    return entries


def parse_gazette_text(data: bytes, url: str) -> Document:
    """One text: date line, issue number, kind (YÖNETMELİK…), issuer (`…Kurumundan:`), title, articles."""
    soup = soup_of(data, ENCODING)
    lines = [squash(p.get_text(" ")) for p in soup.find_all("p")]
    lines = [line for line in lines if line]
    published = issue_date(" ".join(lines[:3]))
    start = next((i for i, line in enumerate(lines) if line.startswith("Sayı")), 0) + 1
    kind = lines[start] if start < len(lines) else ""
    body = lines[start + 1:]
    issuer = body[0] if body and body[0][-1:] in (":", ";") else ""
    rest = body[1:] if issuer else body
    title_lines = []
    for line in rest:
        if not line.isupper():
            break
        title_lines.append(line)
    title = " ".join(title_lines) or kind
    text = "\n".join([issuer, title, *rest[len(title_lines):]]).strip()
    return Document(SOURCE, url, title, published, "tr", text, section=kind or None)
