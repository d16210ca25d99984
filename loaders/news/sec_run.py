"""The SEC's documents for one run: the feed's 8-K filings, then every filing saved in the folder.

A saved 8-K is read from its filing index page (with its primary document beside it), from its
complete submission text file, or from its primary document alone; README "Saved documents" says
what each gives.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from loaders.news import sec
from loaders.news.documents import Document, Entry
from loaders.news.runs import Run


def documents_sec(run: Run) -> Iterator[Document]:
    tickers = sec.load_tickers(run.getter.get(sec.TICKERS_URL))
    reached: set[str] = set()
    for entry in sec.parse_sec_feed(run.getter.get(sec.FEED_URL)):
        # A feed entry keeps the feed's own time, the acceptance time to the second.
        reached.add(Path(entry.url).name)
        yield from run.one(entry, lambda e: _filing(run, e, tickers))
    # File name of each document of a saved filing -> (the saved file the filing is read from, document type).
    owners: dict[str, tuple[str, str]] = {}
    yield from _saved_indexes(run, tickers, reached, owners)
    yield from _saved_submissions(run, tickers, owners)
    yield from _saved_documents(run, tickers, owners)


def _filing(run: Run, entry: Entry, tickers: dict[int, str], index_page: bytes | None = None) -> Document:
    index = sec.parse_filing_index(index_page or run.getter.get(entry.url), entry.url)
    if not index["primary_url"]:
        raise ValueError("the filing index names no 8-K document")
    text = sec.primary_text(run.getter.get(index["primary_url"]))
    return sec.build_filing(entry, text=text, items=index["items"], tickers=tickers, company=index["company"],
                            cik=index["cik"])


def _saved_indexes(run: Run, tickers: dict[int, str], reached: set[str], owners: dict) -> Iterator[Document]:
    """Saved filing index pages; the ones the saved feed lists were read with it."""
    for path in run.saved("*-index.htm*"):
        page = run.read(path)
        index = sec.parse_filing_index(page, f"{sec.BASE}/Archives/edgar/data/0/{path.name}")
        owners.update({name: (path.name, kind) for name, kind in index["documents"].items()})
        if path.name in reached:
            continue
        if not index["cik"]:
            run.report.failed.append(f"{path.name}: the filing index page names no CIK")
            continue
        url = f"{sec.BASE}/Archives/edgar/data/{index['cik']}/{path.name}"
        # Published at the acceptance time the page prints (parse_filing_index).
        entry = Entry("sec", url, f"8-K - {index['company']}", index["filed"], section="8-K",
                      extra={"company": index["company"], "cik": index["cik"]})
        yield from run.one(entry, lambda e, p=page: _filing(run, e, tickers, p))


def _saved_submissions(run: Run, tickers: dict[int, str], owners: dict) -> Iterator[Document]:
    """Saved complete submission text files (`<accession>.txt`)."""
    for path in run.saved("*.txt"):
        if path.name in owners:
            run.leave_out(path.name, f"the same filing as {owners[path.name][0]}, read from there")
            continue
        submission = sec.parse_submission_text(run.read(path))
        if submission["form"]:  # a header names the filing its documents belong to
            owners.update({name: (path.name, kind) for name, kind in submission["documents"].items()})
        problem = _submission_problem(submission)
        if problem:
            run.report.failed.append(f"{path.name}: {problem}")
            continue
        url = f"{sec.BASE}/Archives/edgar/data/{submission['cik']}/{path.stem.replace('-', '')}/{path.name}"
        entry = Entry("sec", url, f"{submission['form']} - {submission['company']}", submission["filed"],
                      section=submission["form"], extra={"company": submission["company"], "cik": submission["cik"]})
        yield from run.one(entry, lambda e, s=submission: sec.build_filing(e, text=s["text"], items=s["items"],
                                                                         tickers=tickers))


def _submission_problem(submission: dict) -> str | None:
    if not submission["form"]:
        kinds = ", ".join(submission["documents"].values())
        held = f"; it holds document blocks only ({kinds})" if kinds else ""
        return f"not a complete submission text file: no SEC header names the filer and form{held}"
    if submission["form"] not in sec.FORMS:
        return f"a {submission['form']} submission, not an 8-K"
    return None if submission["cik"] else "the submission header names no CIK"


def _saved_documents(run: Run, tickers: dict[int, str], owners: dict) -> Iterator[Document]:
    """Saved documents not read through an index page or submission: an 8-K's primary document alone."""
    for path in run.saved("*.htm*"):
        if path.name in run.getter.served:
            continue  # an index page, or the primary document of a filing read from one
        owner, kind = owners.get(path.name, (None, None))
        if owner and kind in sec.FORMS:
            run.pass_over(path.name)  # its filing was passed over (--since) or failed, and the report says so
        elif owner:
            run.leave_out(path.name, f"the {kind} of the filing saved as {owner}; only a filing's 8-K document is "
                                     "summarised")
        else:
            yield from _document_alone(run, path, tickers)


def _document_alone(run: Run, path: Path, tickers: dict[int, str]) -> Iterator[Document]:
    document = sec.parse_primary_document(run.read(path))
    if document["form"] not in sec.FORMS:
        run.report.failed.append(f"{path.name}: not an 8-K document: its cover names no Form 8-K")
        return
    if not document["cik"]:
        run.report.failed.append(f"{path.name}: the 8-K document prints no CIK (dei:EntityCentralIndexKey), so its "
                                 "EDGAR address cannot be made: save its filing index page or submission .txt")
        return
    if not document["dated"]:
        run.report.failed.append(f"{path.name}: the 8-K document prints no date")
        return
    # No acceptance time is printed in the document: it is published at the start of its own date.
    entry = Entry("sec", sec.document_url(document["cik"], path.name), f"{document['form']} - {document['company']}",
                  document["dated"], section=document["form"],
                  extra={"company": document["company"], "cik": document["cik"]})
    yield from run.one(entry, lambda e: sec.build_filing(e, text=document["text"], items=document["items"],
                                                         tickers=tickers))
