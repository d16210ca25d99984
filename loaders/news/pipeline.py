"""One run of `gosterge load news`: documents from each source, summaries, checks, storage."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from loaders.news import ecb, fed, resmi_gazete, sec
from loaders.news.documents import Document, Entry
from loaders.news.fetch import DirectoryGetter, FetchError, HttpGetter, NotSavedError
from loaders.news.sources import SOURCES, article_id
from loaders.news.summarise import LlmClient, SummaryError, summarise
from loaders.settings import LoaderSettings
from store.db import session_scope
from store.news import article_exists, record_failure, upsert_article

log = logging.getLogger("gosterge.loaders.news")
GAZETTE_BASE = "https://www.resmigazete.gov.tr/eskiler"
FEED_PATTERNS = {fed.FEED_URL: "press_all*.xml", ecb.FEED_URL: "press_rss*.xml", sec.FEED_URL: "getcurrent*.xml",
                 sec.TICKERS_URL: "company_tickers*.json"}


@dataclass
class RunReport:
    """What a run did, per source; every problem is listed, none is skipped silently."""

    documents: int = 0
    not_saved: int = 0
    new: int = 0
    already_stored: int = 0
    failed: list[str] = field(default_factory=list)

    def line(self, source: str) -> str:
        saved = f", {self.not_saved} not in the saved folder" if self.not_saved else ""
        return (f"{source}: {self.documents} documents{saved}, {self.new} new articles, {self.already_stored} already "
                f"stored, {len(self.failed)} failed")


def _documents_fed(getter, since, report) -> Iterator[Document]:  # noqa: ANN001
    for entry in fed.parse_fed_feed(getter.get(fed.FEED_URL)):
        yield from _one(report, entry, since, lambda e: fed.parse_fed_release(getter.get(e.url), e))


def _documents_ecb(getter, since, report) -> Iterator[Document]:  # noqa: ANN001
    for entry in ecb.parse_ecb_feed(getter.get(ecb.FEED_URL)):
        if entry.url.endswith(".pdf"):
            continue  # speeches published as PDF only: no reliable text
        yield from _one(report, entry, since, lambda e: ecb.parse_ecb_page(getter.get(e.url), e))


def _documents_sec(getter, since, report, from_dir: Path | None) -> Iterator[Document]:  # noqa: ANN001
    tickers = sec.load_tickers(getter.get(sec.TICKERS_URL))

    def filing(entry: Entry, index_page: bytes | None = None) -> Document:
        index = sec.parse_filing_index(index_page or getter.get(entry.url), entry.url)
        if not index["primary_url"]:
            raise ValueError("the filing index names no 8-K document")
        text = sec.primary_text(getter.get(index["primary_url"]))
        return sec.build_filing(entry, text=text, items=index["items"], tickers=tickers,
                                company=index["company"], cik=index["cik"])

    reached: set[str] = set()
    for entry in sec.parse_sec_feed(getter.get(sec.FEED_URL)):
        reached.add(Path(entry.url).name)
        yield from _one(report, entry, since, filing)
    # Saved filing indexes the saved feed does not list.
    for path in sorted(from_dir.glob("*-index.htm*")) if from_dir else []:
        if path.name in reached:
            continue
        index = sec.parse_filing_index(path.read_bytes(), f"{sec.BASE}/Archives/edgar/data/0/{path.name}")
        if not index["cik"]:
            continue
        url = f"{sec.BASE}/Archives/edgar/data/{index['cik']}/{path.name}"
        entry = Entry("sec", url, f"8-K - {index['company']}", index["filed"], section="8-K",
                      extra={"company": index["company"], "cik": index["cik"]})
        yield from _one(report, entry, since, lambda e, p=path: filing(e, p.read_bytes()))
    for path in sorted(from_dir.glob("*.txt")) if from_dir else []:
        submission = sec.parse_submission_text(path.read_bytes())
        if submission["form"] not in sec.FORMS or not submission["cik"]:
            continue
        accession = path.stem
        url = f"{sec.BASE}/Archives/edgar/data/{submission['cik']}/{accession.replace('-', '')}/{path.name}"
        entry = Entry("sec", url, f"{submission['form']} - {submission['company']}", submission["filed"],
                      section=submission["form"], extra={"company": submission["company"], "cik": submission["cik"]})
        yield from _one(report, entry, since, lambda e, s=submission: sec.build_filing(
            e, text=s["text"], items=s["items"], tickers=tickers))


def _documents_gazette(getter, since, report, from_dir: Path | None) -> Iterator[Document]:  # noqa: ANN001
    if from_dir:
        indexes = sorted(p for p in from_dir.glob("*.htm") if re.fullmatch(r"\d{8}", p.stem))
        urls = [f"{GAZETTE_BASE}/{p.stem[:4]}/{p.stem[4:6]}/{p.name}" for p in indexes]
    else:
        first = (since or datetime.now(UTC) - timedelta(days=1)).date()
        days = [first + timedelta(days=n) for n in range((datetime.now(UTC).date() - first).days + 1)]
        urls = [f"{GAZETTE_BASE}/{d:%Y/%m/%Y%m%d}.htm" for d in days]
    seen: set[str] = set()
    for url in urls:
        try:
            entries = resmi_gazete.parse_gazette_index(getter.get(url), url)
        except (FetchError, ValueError) as exc:
            report.failed.append(f"{url}: {exc}")
            continue
        for entry in entries:
            seen.add(Path(entry.url).name)
            yield from _one(report, entry, since, lambda e: resmi_gazete.parse_gazette_text(getter.get(e.url), e.url))
    # Saved texts whose contents page was not saved: each is judged by its own kind and title.
    for path in sorted(from_dir.glob("*-*.htm")) if from_dir else []:
        if path.name in seen:
            continue
        url = f"{GAZETTE_BASE}/{path.name[:4]}/{path.name[4:6]}/{path.name}"
        try:
            document = resmi_gazete.parse_gazette_text(path.read_bytes(), url)
        except ValueError as exc:
            report.failed.append(f"{url}: {exc}")
            continue
        if resmi_gazete.is_economic(document.section or "", f"{document.title} {document.text[:300]}") and _recent(
                document.published_at, since):
            report.documents += 1
            yield document


def _recent(moment: datetime | None, since: datetime | None) -> bool:
    return since is None or moment is None or moment >= since


def _one(report: RunReport, entry: Entry, since, build) -> Iterator[Document]:  # noqa: ANN001
    if not _recent(entry.published_at, since):
        return
    try:
        document = build(entry)
    except NotSavedError:
        report.not_saved += 1
        return
    except (FetchError, ValueError) as exc:
        report.failed.append(f"{entry.url}: {exc}")
        return
    report.documents += 1
    yield document


def collect(source: str, getter, *, since: datetime | None, report: RunReport, from_dir: Path | None) -> Iterator[Document]:  # noqa: ANN001
    if source == "fed":
        return _documents_fed(getter, since, report)
    if source == "ecb":
        return _documents_ecb(getter, since, report)
    if source == "sec":
        return _documents_sec(getter, since, report, from_dir)
    return _documents_gazette(getter, since, report, from_dir)


def make_getter(source: str, settings: LoaderSettings, *, from_dir: Path | None, cache_dir: Path):  # noqa: ANN201
    if from_dir is not None:
        return DirectoryGetter(from_dir, FEED_PATTERNS)
    return HttpGetter(user_agent=settings.user_agent, timeout=settings.http_timeout_seconds, cache_dir=cache_dir / source)


def load_news(
    sources: list[str], sessions: sessionmaker[Session], settings: LoaderSettings, *, from_dir: Path | None,
    since: datetime | None, cache_dir: Path, client: LlmClient | None = None,
) -> dict[str, RunReport]:
    """Summarise every document not stored yet (failed ones are tried again), with bounded concurrency."""
    client = client or LlmClient(settings)
    reports: dict[str, RunReport] = {}
    for source in sources:
        report = reports[source] = RunReport()
        directory = _source_dir(from_dir, source)
        getter = make_getter(source, settings, from_dir=directory, cache_dir=cache_dir)
        try:
            documents = list(collect(source, getter, since=since, report=report, from_dir=directory))
        except (FetchError, ValueError) as exc:
            report.failed.append(f"{source} index: {exc}")
            continue
        todo = []
        with session_scope(sessions) as session:
            for document in documents:
                if article_exists(session, article_id(source, document.url)):
                    report.already_stored += 1
                else:
                    todo.append(document)
        with ThreadPoolExecutor(max_workers=max(1, settings.llm_concurrency)) as pool:
            for document, outcome in zip(todo, pool.map(lambda d: _summarise(d, client), todo), strict=True):
                with session_scope(sessions) as session:
                    if isinstance(outcome, dict):
                        upsert_article(session, outcome)
                        report.new += 1
                    else:
                        record_failure(session, article_id=article_id(source, document.url), source=source,
                                       url=document.url, reason=outcome, now=datetime.now(UTC))
                        report.failed.append(f"{document.url}: {outcome}")
    return reports


def _summarise(document: Document, client: LlmClient) -> dict | str:
    try:
        return summarise(document, client)
    except SummaryError as exc:
        return str(exc)


def _source_dir(from_dir: Path | None, source: str) -> Path | None:
    """`--from-dir` may point at one source's folder or at a folder holding one per source."""
    if from_dir is None:
        return None
    nested = from_dir / source
    return nested if nested.is_dir() else from_dir


ALL_SOURCES = list(SOURCES)
