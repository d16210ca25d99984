"""SEC EDGAR 8-K filings: the current-filings Atom feed, each filing's index, its primary document,
and the filer's ticker from the SEC's own company_tickers.json (never guessed)."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, date, datetime
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from bs4 import BeautifulSoup

from loaders.news.documents import Company, Document, Entry
from loaders.news.feeds import entry_time, parse_feed
from loaders.news.text import block_text, soup_of, squash

SOURCE = "sec"
BASE = "https://www.sec.gov"
FEED_URL = f"{BASE}/cgi-bin/browse-edgar?action=getcurrent&type=8-K&owner=include&count=100&output=atom"
TICKERS_URL = f"{BASE}/files/company_tickers.json"
FORMS = ("8-K", "8-K/A")
# EDGAR prints acceptance times and filing dates in Eastern time (the SEC sits in Washington), with
# daylight saving: IANA zone America/New_York.
EDGAR_ZONE = ZoneInfo("America/New_York")
# Form 8-K items (General Instructions B): number -> title, for filings that name items by title only.
ITEMS = {
    "1.01": "Entry into a Material Definitive Agreement", "1.02": "Termination of a Material Definitive Agreement",
    "1.03": "Bankruptcy or Receivership", "1.04": "Mine Safety - Reporting of Shutdowns and Patterns of Violations",
    "1.05": "Material Cybersecurity Incidents", "2.01": "Completion of Acquisition or Disposition of Assets",
    "2.02": "Results of Operations and Financial Condition",
    "2.03": "Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant",
    "2.04": "Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement",
    "2.05": "Costs Associated with Exit or Disposal Activities", "2.06": "Material Impairments",
    "3.01": "Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing",
    "3.02": "Unregistered Sales of Equity Securities", "3.03": "Material Modification to Rights of Security Holders",
    "4.01": "Changes in Registrant's Certifying Accountant",
    "4.02": "Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review",
    "5.01": "Changes in Control of Registrant",
    "5.02": "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers",
    "5.03": "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year",
    "5.04": "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
    "5.05": "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
    "5.06": "Change in Shell Company Status", "5.07": "Submission of Matters to a Vote of Security Holders",
    "5.08": "Shareholder Director Nominations", "6.01": "ABS Informational and Computational Material",
    "6.02": "Change of Servicer or Trustee", "6.03": "Change in Credit Enhancement or Other External Support",
    "6.04": "Failure to Make a Required Distribution", "6.05": "Securities Act Updating Disclosure",
    "7.01": "Regulation FD Disclosure", "8.01": "Other Events", "9.01": "Financial Statements and Exhibits",
}
_ITEM_BY_TITLE = {re.sub(r"\W+", " ", t).lower().strip(): n for n, t in ITEMS.items()}


def format_item(number: str, title: str) -> str:
    return f"{number} {squash(title)}"


def item_from_title(title: str) -> str | None:
    number = _ITEM_BY_TITLE.get(re.sub(r"\W+", " ", title).lower().strip())
    return format_item(number, ITEMS[number]) if number else None


def items_in(text: str) -> tuple[str, ...]:
    """`Item 2.02: Results of …` lines, as `2.02 Results of …`, in order, once each."""
    found = [format_item(n, t) for n, t in re.findall(r"Item\s+(\d\.\d\d):?\s*([^\n<]+?)(?=\s*(?:<|\n|Item\s+\d\.\d\d|$))", text)]
    return tuple(dict.fromkeys(found))


def edgar_time(text: str, layout: str) -> datetime:
    """An acceptance time as EDGAR prints it (New York wall clock), in UTC."""
    return datetime.strptime(text, layout).replace(tzinfo=EDGAR_ZONE).astimezone(UTC)


def edgar_day(day: date) -> datetime:
    """The start of a New York day, in UTC: for a document that prints its date but no time.

    The start of the day in New York, not in UTC: midnight UTC is the evening before in New York,
    which would put the document before its own date."""
    return datetime(day.year, day.month, day.day, tzinfo=EDGAR_ZONE).astimezone(UTC)


def filed_at(accepted: datetime | None, filing_date: date | None) -> datetime | None:
    """When a filing was filed: its acceptance time to the second, or only where no acceptance
    time is printed, the start of its filing date."""
    if accepted:
        return accepted
    return edgar_day(filing_date) if filing_date else None


def load_tickers(data: bytes) -> dict[int, str]:
    """CIK -> ticker from company_tickers.json; the first ticker listed for a CIK is its main one."""
    table: dict[int, str] = {}
    for row in json.loads(data).values():
        table.setdefault(int(row["cik_str"]), row["ticker"])
    return table


def parse_sec_feed(data: bytes) -> list[Entry]:
    """8-K and 8-K/A entries of the current-filings feed, with filer, CIK, accession and items."""
    entries = []
    for item in parse_feed(data):
        form = next((t.get("term") for t in item.get("tags") or [] if t.get("label") == "form type"), None)
        if form not in FORMS:
            continue
        match = re.match(r"\s*(\S+)\s+-\s+(.*?)\s+\((\d{10})\)\s+\((\w+)\)", html.unescape(item.get("title", "")))
        if not match or match.group(4) != "Filer":
            continue
        summary = html.unescape(item.get("summary", ""))
        accession = re.search(r"accession-number=([\d-]+)", item.get("id", ""))
        entries.append(Entry(SOURCE, item.get("link", "").strip(), f"{form} - {match.group(2)}", entry_time(item),
                             section=form, extra={"company": match.group(2), "cik": int(match.group(3)),
                                                  "accession": accession.group(1) if accession else None,
                                                  "items": items_in(summary)}))
    return entries


def parse_filing_index(markup: bytes | str, index_url: str) -> dict:
    """The filing index page: primary document URL, every document's file name and type, filer name and CIK,
    items, and when it was filed."""
    soup = soup_of(markup, "utf-8")
    primary, documents = None, {}
    for row in soup.select("table.tableFile tr"):
        cells = [squash(td.get_text(" ")) for td in row.find_all("td")]
        link = row.find("a", href=True)
        if len(cells) < 4 or not link:
            continue
        url = urljoin(index_url, link["href"].replace("/ix?doc=", ""))
        documents[url.rsplit("/", 1)[-1]] = cells[3] or cells[1]
        if primary is None and cells[3] in FORMS:
            primary = url
    name_node = soup.select_one(".companyName")
    name_text = squash(name_node.get_text(" ")) if name_node else ""
    cik = re.search(r"CIK\s*:\s*(\d+)", name_text)
    groups = " ".join(squash(g.get_text(" ")) for g in soup.select(".formGrouping"))
    filed = re.search(r"Filing Date (\d{4}-\d{2}-\d{2})", groups)
    accepted = re.search(r"Accepted (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})", groups)
    return {
        "primary_url": primary, "documents": documents,
        "company": re.sub(r"\s*\((Filer|Subject|Reporting)\).*", "", name_text) or None,
        "cik": int(cik.group(1)) if cik else None,
        "items": items_in(groups.replace("Item ", "\nItem ")),
        "filed": filed_at(edgar_time(accepted.group(1), "%Y-%m-%d %H:%M:%S") if accepted else None,
                          date.fromisoformat(filed.group(1)) if filed else None),
    }


def primary_text(markup: bytes | str) -> str:
    """Text of an (inline XBRL) 8-K document; the hidden XBRL header is not text."""
    return _document_text(soup_of(markup, "utf-8"))


def _document_text(soup: BeautifulSoup) -> str:
    for hidden in soup.select("ix\\:header, [style*='display:none']"):
        hidden.decompose()
    return block_text(soup.body or soup)


def parse_primary_document(markup: bytes | str) -> dict:
    """An 8-K document saved on its own: filer, CIK, form and items from its inline-XBRL cover facts
    (dei:), else from its cover page text; its text; and its own date, as it prints no acceptance time."""
    soup = soup_of(markup, "utf-8")
    facts: dict[str, str] = {}
    for fact in soup.find_all("ix:nonnumeric"):
        facts.setdefault(fact.get("name", "").lower(), squash(fact.get_text(" ")))
    text = _document_text(soup)
    cover = text.splitlines()[:40]
    form = facts.get("dei:documenttype") or next(
        (m.group(1) for m in (re.fullmatch(r"FORM\s+(8-K(?:/A)?)", line, flags=re.I) for line in cover) if m), None)
    # The name stands on the line above the cover's "(Exact name of registrant as specified in its charter)".
    named = next((cover[i - 1] for i, line in enumerate(cover) if i and line.lower().startswith("(exact name of")), None)
    cik = facts.get("dei:entitycentralindexkey", "")
    reported = re.search(r"Date of Report[^\n]*?:\s*([^\n]+)", text, flags=re.I)
    # The date it was signed is the nearest to its filing that the document prints; the date of the
    # report (the event's) may be days earlier. Either is a New York day with no time of day.
    day = (_month_day(_signature_date(text)) or _month_day(facts.get("dei:documentperiodenddate"))
           or _month_day(reported.group(1) if reported else None))
    return {
        "company": facts.get("dei:entityregistrantname") or named, "cik": int(cik) if cik.isdigit() else None,
        "form": form.upper() if form else None, "items": items_numbered(text), "text": text,
        "dated": edgar_day(day) if day else None,
    }


def items_numbered(text: str) -> tuple[str, ...]:
    """The items an 8-K's own headings name (`ITEM 2.02.`, `Item 5.07`), with their titles from Form 8-K."""
    numbers = {n for n in re.findall(r"\bItem\s+(\d\.\d\d)\b", text, flags=re.I) if n in ITEMS}
    return tuple(format_item(n, ITEMS[n]) for n in sorted(numbers))


def _signature_date(text: str) -> str | None:
    block = re.split(r"^SIGNATURES?$", text, flags=re.M | re.I)
    dates = re.findall(r"^Dated?:\s*(.+)$", block[-1], flags=re.M | re.I) if len(block) > 1 else []
    return dates[-1] if dates else None


def _month_day(text: str | None) -> date | None:
    """`March 2, 2026` (any case, any spacing) as a date."""
    match = re.search(r"([A-Za-z]+)\s+(\d{1,2})\s*,\s*(\d{4})", squash(text or ""))
    try:
        return datetime.strptime(" ".join(match.groups()), "%B %d %Y").date() if match else None
    except ValueError:
        return None


def document_url(cik: int, name: str) -> str:
    """The address of a document saved without its filing index: the filer's EDGAR folder and the file's
    name. EDGAR keeps the file one folder deeper, under the accession number, which the document does not
    print; this address names the document stably (its article id comes from it) but may not open it."""
    return f"{BASE}/Archives/edgar/data/{cik}/{name}"


def parse_submission_text(data: bytes | str) -> dict:
    """A complete submission text file (SGML): header facts, the 8-K document's own text, and the file name
    and type of every document it holds."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    header = text.split("<DOCUMENT>", 1)[0]

    def field(name: str) -> str | None:
        match = re.search(rf"{name}:\s*(.+)", header)
        return match.group(1).strip() if match else None

    items = tuple(i for i in (item_from_title(t.strip()) for t in re.findall(r"ITEM INFORMATION:\s*(.+)", header)) if i)
    body, documents = "", {}
    for document in re.findall(r"<DOCUMENT>(.*?)</DOCUMENT>", text, flags=re.S):
        kind = re.search(r"<TYPE>([^\n<]+)", document)
        name = re.search(r"<FILENAME>([^\n<]+)", document)
        if kind and name:
            documents[name.group(1).strip()] = kind.group(1).strip()
        if kind and kind.group(1).strip() in FORMS and not body:
            inner = re.search(r"<TEXT>(.*?)</TEXT>", document, flags=re.S)
            body = primary_text(inner.group(1) if inner else document)
    filed = field("FILED AS OF DATE")
    accepted = re.search(r"<ACCEPTANCE-DATETIME>\s*(\d{14})", header)
    return {
        "company": field("COMPANY CONFORMED NAME"), "cik": int(field("CENTRAL INDEX KEY") or 0) or None,
        "form": field("CONFORMED SUBMISSION TYPE"), "items": items, "text": body, "documents": documents,
        "filed": filed_at(edgar_time(accepted.group(1), "%Y%m%d%H%M%S") if accepted else None,
                          datetime.strptime(filed, "%Y%m%d").date() if filed else None),
    }


def build_filing(entry: Entry, *, text: str, items: tuple[str, ...], tickers: dict[int, str],
                 company: str | None = None, cik: int | None = None) -> Document:
    """The document of one 8-K: the filer is the only company with a ticker, looked up by CIK."""
    name = company or entry.extra.get("company") or ""
    cik = cik or entry.extra.get("cik")
    filer = Company(name, tickers.get(int(cik)) if cik else None)
    return Document(SOURCE, entry.url, entry.title, entry.published_at, "en", text, section=entry.section,
                    companies=(filer,), filing_items=items or tuple(entry.extra.get("items") or ()) or None)
