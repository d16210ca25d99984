"""The import report: every record or field that could not be mapped (file, İKN, field, reason),
every decided case that applied, and the summary printed at the end."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

UNMAPPED = "unmapped"  # printed but not mappable, or a record kept out: --strict fails on these
NOTE = "note"  # a decided case or a fallback rule applied; the value in the release is documented
# A tender the input does not say enough about to be placed in a release (no province, procedure,
# sector or date given anywhere): listed, not released, and not a failure of --strict, because
# nothing printed was misread; importing a record that gives what is missing places it.
KEPT_OUT = "kept-out"


@dataclass(frozen=True)
class Entry:
    kind: str
    reason: str
    message: str
    file: str = ""
    ikn: str | None = None
    field: str | None = None


@dataclass
class Report:
    entries: list[Entry] = field(default_factory=list)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    tenders: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # files that are plainly not records
    excluded: list[str] = field(default_factory=list)  # files left out by --exclude

    def unmapped(self, reason: str, message: str, **where: Any) -> None:
        self.entries.append(Entry(UNMAPPED, reason, message, **where))

    def kept_out(self, reason: str, message: str, **where: Any) -> None:
        self.entries.append(Entry(KEPT_OUT, reason, message, **where))

    def note(self, reason: str, message: str, **where: Any) -> None:
        self.entries.append(Entry(NOTE, reason, message, **where))

    def extend(self, entries: list[Entry]) -> None:
        self.entries.extend(entries)

    def by_reason(self, kind: str) -> dict[str, int]:
        return dict(sorted(Counter(e.reason for e in self.entries if e.kind == kind).items()))

    @property
    def unmapped_count(self) -> int:
        return sum(1 for e in self.entries if e.kind == UNMAPPED)

    def unmapped_files(self) -> list[str]:
        """The files with anything unmapped, each once, in the report's order (a tender read from
        several files names them all, comma-separated)."""
        return list(dict.fromkeys(f for e in self.entries if e.kind == UNMAPPED and e.file
                                  for f in e.file.split(", ")))

    def summary(self) -> dict[str, Any]:
        return {**self.counts, "unmapped": self.by_reason(UNMAPPED), "keptOut": self.by_reason(KEPT_OUT),
                "notes": self.by_reason(NOTE)}

    def write(self, path: Path, **head: Any) -> None:
        """JSON with one input, entry or tender a line: readable, and written by the C encoder
        (an indented dump goes through the pure-Python one, seconds slower for a national year)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        lists = {"skipped": self.skipped, "excluded": self.excluded, "inputs": self.inputs, "entries": [e.__dict__ for e in self.entries], "tenders": self.tenders}
        with open(partial, "w", encoding="utf-8") as out:
            out.write(json.dumps({**head, "summary": self.summary()}, ensure_ascii=False, indent=1)[:-2])
            for name, items in lists.items():
                out.write(f',\n "{name}": [\n  ')
                out.write(",\n  ".join(json.dumps(item, ensure_ascii=False) for item in items))
                out.write("\n ]")
            out.write("\n}\n")
        partial.replace(path)

    def lines(self) -> list[str]:
        """The summary a person reads at the end of an import."""
        c = self.counts
        out = [f"files read: {c.get('files', 0)}, of no accepted shape: {c.get('filesRefused', 0)}" + (
                   f", skipped as plainly not records (README, licence, hidden): {c['filesSkipped']}"
                   if c.get("filesSkipped") else "") + (
                   f", left out by --exclude: {c['filesExcluded']}" if c.get("filesExcluded") else ""),
               f"tenders: {c.get('tenders', 0)} (kept out: {c.get('tendersKeptOut', 0)}), awarded lots: "
               f"{c.get('awardedLots', 0)}, authorities: {c.get('authorities', 0)}, contractors: {c.get('contractors', 0)}"
               + (f", direct purchases: {c['directPurchases']}" if c.get("directPurchases") else "")]
        for kind, title in ((UNMAPPED, "unmapped by reason"), (KEPT_OUT, "kept out by reason"),
                            (NOTE, "notes by reason")):
            reasons = self.by_reason(kind)
            out.append(f"{title}: " + (", ".join(f"{r} {n}" for r, n in reasons.items()) if reasons else "none"))
        return out
