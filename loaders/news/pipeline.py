"""One run of `gosterge load news`: documents from each source, summaries, checks, storage."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from loaders.news import ecb, fed, resmi_gazete, sec
from loaders.news.documents import Document
from loaders.news.fetch import DirectoryGetter, FetchError, HttpGetter, NotSavedError
from loaders.news.runs import Run, RunReport, recent
from loaders.news.sample import SAMPLE_MODEL_PREFIX
from loaders.news.sec_run import documents_sec
from loaders.news.summarise import LlmClient, SummaryError, summarise
from loaders.settings import LoaderSettings
from store.db import session_scope
from store.news import clear_fetch_failures, record_failure, stored_models, upsert_article
from store.reference.news import SOURCES, article_id

log = logging.getLogger("gosterge.loaders.news")
NOT_FETCHED = "could not fetch: "  # how a stored failure of fetching reads beside a failed summary
GAZETTE_BASE = "https://www.resmigazete.gov.tr/eskiler"
FEED_PATTERNS = {fed.FEED_URL: "press_all*.xml", ecb.FEED_URL: "press_rss*.xml", sec.FEED_URL: "getcurrent*.xml",
                 sec.TICKERS_URL: "company_tickers*.json"}


def _documents_fed(run: Run) -> Iterator[Document]:
    for entry in fed.parse_fed_feed(run.getter.get(fed.FEED_URL)):
        yield from run.one(entry, lambda e: fed.parse_fed_release(run.getter.get(e.url), e))


def _documents_ecb(run: Run) -> Iterator[Document]:
    for entry in ecb.parse_ecb_feed(run.getter.get(ecb.FEED_URL)):
        if entry.url.endswith(".pdf"):
            run.leave_out(entry.url, "published as a PDF only, which has no reliable text")
            continue
        yield from run.one(entry, lambda e: ecb.parse_ecb_page(run.getter.get(e.url), e))


def _documents_gazette(run: Run) -> Iterator[Document]:
    if run.folder:
        indexes = [p for p in run.saved("*.htm") if re.fullmatch(r"\d{8}", p.stem)]
        urls = [f"{GAZETTE_BASE}/{p.stem[:4]}/{p.stem[4:6]}/{p.name}" for p in indexes]
    else:
        first = (run.since or datetime.now(UTC) - timedelta(days=1)).date()
        days = [first + timedelta(days=n) for n in range((datetime.now(UTC).date() - first).days + 1)]
        urls = [f"{GAZETTE_BASE}/{d:%Y/%m/%Y%m%d}.htm" for d in days]
    seen: set[str] = set()
    for url in urls:
        try:
            entries = resmi_gazete.parse_gazette_index(run.getter.get(url), url)
        except NotSavedError:
            run.report.not_saved += 1
            continue
        except FetchError as exc:
            run.report.fetch_failed(url, exc)
            continue
        except ValueError as exc:
            run.report.failed.append(f"{url}: {exc}")
            continue
        for entry in entries:
            seen.add(Path(entry.url).name)
            yield from run.one(entry, lambda e: resmi_gazete.parse_gazette_text(run.getter.get(e.url), e.url))
    # Saved texts whose contents page was not saved: each is judged by its own kind and title.
    for path in run.saved("*-*.htm"):
        if path.name in seen:
            continue
        url = f"{GAZETTE_BASE}/{path.name[:4]}/{path.name[4:6]}/{path.name}"
        try:
            document = resmi_gazete.parse_gazette_text(run.read(path), url)
        except ValueError as exc:
            run.report.failed.append(f"{path.name}: {exc}")
            continue
        if not resmi_gazete.is_economic(document.section or "", f"{document.title} {document.text[:300]}"):
            run.leave_out(path.name, "not an economic text by the rules in resmi_gazete.py")
        elif recent(document.published_at, run.since):
            run.report.documents += 1
            yield document


def collect(source: str, run: Run) -> Iterator[Document]:
    if source == "fed":
        return _documents_fed(run)
    if source == "ecb":
        return _documents_ecb(run)
    if source == "sec":
        return documents_sec(run)
    return _documents_gazette(run)


def make_getter(source: str, settings: LoaderSettings, *, from_dir: Path | None, cache_dir: Path):  # noqa: ANN201
    if from_dir is not None:
        return DirectoryGetter(from_dir, FEED_PATTERNS)
    return HttpGetter(user_agent=settings.user_agent, timeout=settings.http_timeout_seconds, cache_dir=cache_dir / source)


def load_news(
    sources: list[str], sessions: sessionmaker[Session], settings: LoaderSettings, *, from_dir: Path | None,
    since: datetime | None, cache_dir: Path, client: LlmClient | None = None, resummarise: str | None = None,
) -> dict[str, RunReport]:
    """Summarise every document not stored yet (failed ones are tried again), with bounded concurrency;
    with `resummarise` "all" the stored ones found again too, with "sample" those the curated sample holds."""
    client = client or LlmClient(settings)
    reports: dict[str, RunReport] = {}
    for source in sources:
        report = reports[source] = RunReport()
        directory = _source_dir(from_dir, source)
        if directory is None and from_dir is not None:
            report.failed.append(f"no folder {source}/ in {from_dir}, which holds other sources' folders")
            continue
        run = Run(make_getter(source, settings, from_dir=directory, cache_dir=cache_dir), since, report, directory)
        try:
            documents = list(collect(source, run))
        except FetchError as exc:
            report.fetch_failed(exc.url or f"{source} index", exc)
            documents = []
        except ValueError as exc:
            report.failed.append(f"{source} index: {exc}")
            continue
        finally:
            _keep_fetch_failures(source, report, sessions, isinstance(run.getter, HttpGetter))
        run.report_unread(source)
        todo = _to_summarise(source, documents, sessions, report, resummarise)
        with ThreadPoolExecutor(max_workers=max(1, settings.llm_concurrency)) as pool:
            for document, outcome in zip(todo, pool.map(lambda d: _summarise(d, client), todo), strict=True):
                with session_scope(sessions) as session:
                    if isinstance(outcome, dict):
                        if upsert_article(session, outcome):
                            report.new += 1
                        else:
                            report.summarised_again += 1
                    else:
                        record_failure(session, article_id=article_id(source, document.url), source=source,
                                       url=document.url, reason=outcome, now=datetime.now(UTC))
                        report.failed.append(f"{document.url}: {outcome}")
    return reports


def _keep_fetch_failures(source: str, report: RunReport, sessions: sessionmaker[Session], from_web: bool) -> None:
    """The addresses of `source` this run could not fetch, stored as failures; those it fetched again are
    taken off the list (a saved-folder run fetches nothing from the web and leaves the list alone)."""
    if not from_web:
        return
    with session_scope(sessions) as session:
        for url, reason in report.not_fetched.items():
            record_failure(session, article_id=article_id(source, url), source=source, url=url,
                           reason=f"{NOT_FETCHED}{reason}", now=datetime.now(UTC))
        clear_fetch_failures(session, source, keep=set(report.not_fetched), prefix=NOT_FETCHED)


def _to_summarise(source: str, documents: list[Document], sessions: sessionmaker[Session], report: RunReport,
                  resummarise: str | None) -> list[Document]:
    """The documents to ask the model about: those not stored yet, and the stored ones `resummarise` names."""
    with session_scope(sessions) as session:
        models = stored_models(session, [article_id(source, d.url) for d in documents])
    todo = []
    for document in documents:
        model = models.get(article_id(source, document.url))
        from_sample = model is not None and model.startswith(SAMPLE_MODEL_PREFIX)
        if model is None or resummarise == "all" or (resummarise == "sample" and from_sample):
            todo.append(document)
        else:
            report.already_stored += 1
            report.already_from_sample += from_sample
    return todo


def _summarise(document: Document, client: LlmClient) -> dict | str:
    try:
        return summarise(document, client)
    except SummaryError as exc:
        return str(exc)


def _source_dir(from_dir: Path | None, source: str) -> Path | None:
    """`--from-dir` may point at one source's folder or at a folder holding one per source; None when it
    holds other sources' folders but not this one's."""
    if from_dir is None:
        return None
    nested = from_dir / source
    if nested.is_dir():
        return nested
    return None if any((from_dir / other).is_dir() for other in SOURCES) else from_dir


ALL_SOURCES = list(SOURCES)
