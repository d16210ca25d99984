"""One source's run: where its documents come from, the `--since` cut-off, and what it reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

from loaders.news.documents import Document, Entry
from loaders.news.fetch import DirectoryGetter, FetchError, HttpGetter, NotSavedError


@dataclass
class RunReport:
    """What a run did, per source; every problem is listed, none is skipped silently."""

    documents: int = 0
    not_saved: int = 0
    new: int = 0
    already_stored: int = 0
    already_from_sample: int = 0  # of those already stored, the curated sample's, not a model's
    summarised_again: int = 0
    failed: list[str] = field(default_factory=list)
    # Documents read and deliberately not summarised, each with the rule that leaves it out.
    left_out: list[str] = field(default_factory=list)
    # Addresses that could not be fetched (also in `failed`), each with the reason: kept in the store, so that
    # `gosterge news failures` lists them beside the summaries that failed.
    not_fetched: dict[str, str] = field(default_factory=dict)

    def fetch_failed(self, url: str, error: Exception) -> None:
        self.not_fetched[url] = str(error)
        self.failed.append(f"{url}: {error}" if url not in str(error) else str(error))

    def line(self, source: str) -> str:
        saved = f", {self.not_saved} not in the saved folder" if self.not_saved else ""
        left = f", {len(self.left_out)} left out ({'; '.join(self.left_out)})" if self.left_out else ""
        again = f", {self.summarised_again} summarised again" if self.summarised_again else ""
        sample = (f" ({self.already_from_sample} of them the curated sample's: --resummarise sample summarises them "
                  f"with the model)") if self.already_from_sample else ""
        return (f"{source}: {self.documents} documents{saved}{left}, {self.new} new articles{again}, "
                f"{self.already_stored} already stored{sample}, {len(self.failed)} failed")


@dataclass
class Run:
    """One source's run: where its documents come from, the `--since` cut-off, and its report."""

    getter: HttpGetter | DirectoryGetter
    since: datetime | None
    report: RunReport
    folder: Path | None = None  # the saved folder of a `--from-dir` run
    passed_over: set[str] = field(default_factory=set)  # saved files accounted for without being read

    def saved(self, pattern: str) -> list[Path]:
        """The saved files matching `pattern`, by name; none when the run reads the web."""
        return sorted(p for p in self.folder.glob(pattern) if p.is_file()) if self.folder else []

    def read(self, path: Path) -> bytes:
        """A saved file a source's own rule found (so that it counts as read)."""
        return self.getter.read(path)

    def pass_over(self, url: str) -> None:
        """A document the run accounts for without reading its saved copy (older than `--since`, say)."""
        self.passed_over.add(Path(urlparse(url).path).name)

    def leave_out(self, url: str, reason: str) -> None:
        """A document deliberately not summarised: named in the report with the rule that leaves it out."""
        self.pass_over(url)
        self.report.left_out.append(f"{Path(urlparse(url).path).name if self.folder else url}: {reason}")

    def one(self, entry: Entry, build) -> Iterator[Document]:  # noqa: ANN001
        """The document `build` makes of one entry, unless older than `--since`; a problem is listed, not raised."""
        if not recent(entry.published_at, self.since):
            self.pass_over(entry.url)
            return
        try:
            document = build(entry)
        except NotSavedError:
            self.report.not_saved += 1
            return
        except FetchError as exc:
            self.report.fetch_failed(entry.url, exc)
            return
        except ValueError as exc:
            self.report.failed.append(f"{entry.url}: {exc}")
            return
        self.report.documents += 1
        yield document

    def report_unread(self, source: str) -> None:
        """Every saved file that no rule read is named, with the reason (section "Saved documents" of the README)."""
        if not isinstance(self.getter, DirectoryGetter):
            return
        for path in self.saved("*"):
            if path.name in self.getter.served or path.name in self.passed_over:
                continue
            if path.name in self.getter.older_copies:
                self.report.left_out.append(f"{path.name}: an older copy of the feed; only the last by name, "
                                            f"{self.getter.older_copies[path.name]}, is read")
            elif path.suffix.lower() == ".pdf":
                self.report.failed.append(f"{path.name}: a PDF: the loader reads no PDF, it has no reliable text")
            else:
                self.report.failed.append(f"{path.name}: no rule of the {source} loader reads this file")


def recent(moment: datetime | None, since: datetime | None) -> bool:
    return since is None or moment is None or moment >= since
