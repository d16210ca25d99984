"""The accepted input shapes, found in files and folders: a saved tender detail (the answer of
EKAP's tender-detail call, or its `item`), a bundle of `{"tender", "announcements"}` entries, a
search answer (`{"list": [...]}`), and a bare result notice in Markdown or HTML. Anything else is
reported, never skipped silently."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loaders.ekap.announcement import direct_number
from loaders.ekap.direct import DirectRecord, is_direct_result, read_direct
from loaders.ekap.files import FileRefusedError, read_bytes
from loaders.ekap.notice import parse_notice
from loaders.ekap.records import TenderRecord, notice_entries, read_record
from loaders.ekap.report import KEPT_OUT, UNMAPPED, Entry

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
HTML_SUFFIXES = frozenset({".htm", ".html"})
JSON_SUFFIXES = frozenset({".json"})
ACCEPTED = ("a tender detail JSON, a bundle JSON, a search answer JSON, a direct-procurement result JSON, or a "
            "result notice (.md, .htm, .html)")


@dataclass
class FileResult:
    file: str
    shape: str
    records: list[TenderRecord] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    direct: list[DirectRecord] = field(default_factory=list)  # direct-procurement records (direct.py)

    def refuse(self, reason: str, message: str) -> FileResult:
        self.shape = "none"
        self.entries.append(Entry(UNMAPPED, reason, message, file=self.file))
        return self


# Files that travel with saved records and are plainly not records: a folder's README, licence or
# change log, and hidden files (`.DS_Store`). They are skipped, listed once in the report.
NOT_RECORDS = frozenset({"readme", "license", "licence", "copying", "changelog", "notice", "authors"})


def is_plainly_not_a_record(path: Path) -> bool:
    return path.name.startswith(".") or path.stem.lower() in NOT_RECORDS


def read_file(path: Path, index: int) -> FileResult:
    """Every tender record in one file, with what could not be read reported; each notice's
    identity is worked out here, in the worker, rather than in the importer that runs alone."""
    result = _read_file(path, index)
    for record in result.records:
        for notice in record.notices + record.corrections:
            notice.key()
    return result


def _read_file(path: Path, index: int) -> FileResult:
    result = FileResult(str(path), "none")
    suffix = path.suffix.lower()
    if suffix not in MARKDOWN_SUFFIXES | HTML_SUFFIXES | JSON_SUFFIXES:
        return result.refuse("no-accepted-shape", f"not an accepted shape ({ACCEPTED})")
    try:
        text = _decode(read_bytes(path), html=suffix in HTML_SUFFIXES)
    except FileRefusedError as exc:
        return result.refuse(exc.reason, str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        return result.refuse("unreadable-file", f"cannot be read as text: {exc}")
    if suffix in JSON_SUFFIXES:
        return _read_json(text, result, index)
    notice = parse_notice(text, html=suffix in HTML_SUFFIXES)
    if not notice.is_result and (number := direct_number(text)):
        result.shape = "direct-procurement-announcement"
        result.entries.append(Entry(KEPT_OUT, "direct-procurement-announcement", f"a direct-procurement "
                                    f"announcement ({number}), not a tender: it prints no amount and no supplier, so "
                                    "it cannot enter direct_purchases.csv", file=result.file))
        return result
    if not notice.is_result:
        return result.refuse("no-accepted-shape", "not a result notice (no İhale kayıt numarası with a contract "
                             f"or a SONUÇ İLANI heading); accepted: {ACCEPTED}")
    result.shape = "notice"
    result.entries.extend(notice_entries(notice, result.file))
    record = TenderRecord(result.file, (index, 0), "notice", notices=[notice])
    record.fields["ikn"] = notice.ikn
    result.records.append(record)
    return result


def _decode(data: bytes, *, html: bool) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if not html:
            raise
        # Pages saved from EKAP's older site may be in the Turkish Windows code page.
        return data.decode("cp1254")


def _read_json(text: str, result: FileResult, index: int) -> FileResult:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return result.refuse("unreadable-file", f"not valid JSON: {exc}")
    except RecursionError:
        # Python's JSON decoder recurses once per level: a file nested deeper than its stack is
        # refused like any file that cannot be read, and the rest of the batch goes on.
        return result.refuse("unreadable-file", "JSON nested too deeply to be read (no EKAP record is)")
    elements = data if isinstance(data, list) else [data]
    shapes: set[str] = set()
    for i, element in enumerate(elements):
        found = list(_records(element, result, (index, i)))
        if not found:
            where = f"element {i}" if isinstance(data, list) else "the file"
            result.entries.append(Entry(UNMAPPED, "no-accepted-shape", f"{where} is of no accepted shape "
                                        f"({ACCEPTED})", file=result.file))
        for record in found:
            if isinstance(record, DirectRecord):
                shapes.add("direct-listing" if record.listed else "direct-result")
                result.direct.append(record)
                continue
            shapes.add(record.shape)
            result.records.append(record)
    result.shape = "+".join(sorted(shapes)) or "none"
    return result


def _records(element: Any, result: FileResult, position: tuple[int, ...]) -> Iterator[TenderRecord | DirectRecord]:
    if not isinstance(element, dict):
        return
    where = {"file": result.file, "entries": result.entries}
    if is_direct_result(element):
        yield read_direct(element, file=result.file, position=position)
    elif isinstance(element.get("direct_procurements"), list):
        # ihale-mcp's `search_direct_procurements` output: a listing, with no contract to read.
        for j, item in enumerate(element["direct_procurements"]):
            if isinstance(item, dict):
                yield read_direct(item, file=result.file, position=(*position, j), listed=True)
    elif isinstance(element.get("tender"), dict):
        yield read_record(element, tender=element["tender"], position=position, shape="bundle", **where)
    elif isinstance(element.get("item"), dict) and element["item"].get("ikn"):
        yield read_record(element["item"], tender=None, position=position, shape="detail", **where)
    elif element.get("ikn"):
        yield read_record(element, tender=None, position=position, shape="detail", **where)
    elif isinstance(element.get("list"), list) or isinstance(element.get("tenders"), list):
        # EKAP's search answer (`list`), or ihale-mcp's `search_tenders` output (`tenders`), whose
        # records FIELDS reads by ihale-mcp's names.
        items = element["list"] if isinstance(element.get("list"), list) else element["tenders"]
        for j, item in enumerate(items):
            if isinstance(item, dict) and item.get("ikn"):
                yield read_record(item, tender=None, position=(*position, j), shape="search", **where)
