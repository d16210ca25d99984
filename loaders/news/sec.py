"""SEC EDGAR 8-K filings: the current-filings Atom feed, each filing's index, its primary document,
and the filer's ticker from the SEC's own company_tickers.json (never guessed)."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from urllib.parse import urljoin

from loaders.news.documents import Company, Document, Entry
from loaders.news.feeds import entry_time, parse_feed
from loaders.news.text import block_text, soup_of, squash

SOURCE = "sec"
BASE = "https://www.sec.gov"
FEED_URL = f"{BASE}/cgi-bin/browse-edgar?action=getcurrent&type=8-K&owner=include&count=100&output=atom"
TICKERS_URL = f"{BASE}/files/company_tickers.json"
FORMS = ("8-K", "8-K/A")
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
    """The filing index page: primary document URL, filer name and CIK, items, filing date."""
    soup = soup_of(markup, "utf-8")
    primary = None
    for row in soup.select("table.tableFile tr"):
        cells = [squash(td.get_text(" ")) for td in row.find_all("td")]
        link = row.find("a", href=True)
        if len(cells) >= 4 and cells[3] in FORMS and link:
            primary = urljoin(index_url, link["href"].replace("/ix?doc=", ""))
            break
    name_node = soup.select_one(".companyName")
    name_text = squash(name_node.get_text(" ")) if name_node else ""
    cik = re.search(r"CIK\s*:\s*(\d+)", name_text)
    groups = " ".join(squash(g.get_text(" ")) for g in soup.select(".formGrouping"))
    filed = re.search(r"Filing Date (\d{4}-\d{2}-\d{2})", groups)
    return {
        "primary_url": primary,
        "company": re.sub(r"\s*\((Filer|Subject|Reporting)\).*", "", name_text) or None,
        "cik": int(cik.group(1)) if cik else None,
        "items": items_in(groups.replace("Item ", "\nItem ")),
        "filed": datetime.fromisoformat(filed.group(1)).replace(tzinfo=UTC) if filed else None,
    }


def primary_text(markup: bytes | str) -> str:
    """Text of an (inline XBRL) 8-K document; the hidden XBRL header is not text."""
    soup = soup_of(markup, "utf-8")
    for hidden in soup.select("ix\\:header, [style*='display:none']"):
        hidden.decompose()
    return block_text(soup.body or soup)


def parse_submission_text(data: bytes | str) -> dict:
    """A complete submission text file (SGML): header facts and the 8-K document's own text."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    header = text.split("<DOCUMENT>", 1)[0]

    def field(name: str) -> str | None:
        match = re.search(rf"{name}:\s*(.+)", header)
        return match.group(1).strip() if match else None

    items = tuple(i for i in (item_from_title(t.strip()) for t in re.findall(r"ITEM INFORMATION:\s*(.+)", header)) if i)
    body = ""
    for document in re.findall(r"<DOCUMENT>(.*?)</DOCUMENT>", text, flags=re.S):
        kind = re.search(r"<TYPE>([^\n<]+)", document)
        if kind and kind.group(1).strip() in FORMS:
            inner = re.search(r"<TEXT>(.*?)</TEXT>", document, flags=re.S)
            body = primary_text(inner.group(1) if inner else document)
            break
    filed = field("FILED AS OF DATE")
    return {
        "company": field("COMPANY CONFORMED NAME"), "cik": int(field("CENTRAL INDEX KEY") or 0) or None,
        "form": field("CONFORMED SUBMISSION TYPE"), "items": items, "text": body,
        "filed": datetime.strptime(filed, "%Y%m%d").replace(tzinfo=UTC) if filed else None,
    }


def build_filing(entry: Entry, *, text: str, items: tuple[str, ...], tickers: dict[int, str],
                 company: str | None = None, cik: int | None = None) -> Document:
    """The document of one 8-K: the filer is the only company with a ticker, looked up by CIK."""
    name = company or entry.extra.get("company") or ""
    cik = cik or entry.extra.get("cik")
    filer = Company(name, tickers.get(int(cik)) if cik else None)
    return Document(SOURCE, entry.url, entry.title, entry.published_at, "en", text, section=entry.section,
                    companies=(filer,), filing_items=items or tuple(entry.extra.get("items") or ()) or None)
