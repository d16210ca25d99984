"""One picture per tender (İKN) from all its records, in input order: later records fill and
replace what earlier ones said, result notices become lots in their order, a notice published
again replaces the earlier one of the same İKN and lot, and nothing is counted twice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loaders.ekap.names import normalise_name
from loaders.ekap.notice import Notice
from loaders.ekap.records import TenderRecord
from loaders.ekap.report import Report
from store.reference.lists import fold

RESULT_PUBLISHED_STATUS = "15"  # ihaleDurum of "Sonuç İlanı Yayımlanmış"


@dataclass
class TenderPicture:
    ikn: str
    files: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    okas: list[str] = field(default_factory=list)
    lots: dict[int, tuple[Notice, str]] = field(default_factory=dict)  # lot -> (notice, file)
    cancellation_notice: bool = False
    announced: dict[str, str] = field(default_factory=dict)  # what its announcements say (records.py)

    @property
    def first_notice(self) -> Notice | None:
        return self.lots[min(self.lots)][0] if self.lots else None

    @property
    def multi_lot(self) -> bool:
        return self.fields.get("multi_lot") is True or len(self.lots) > 1 or any(
            n.multi_lot for n, _ in self.lots.values())

    def status(self) -> tuple[bool, bool]:
        """(cancelled by EKAP's status, result published by EKAP's status), from the Turkish text, the
        English one EKAP's search answers in another language, or the status code."""
        text = fold(str(self.fields.get("status") or ""))
        code = str(self.fields.get("status_code") or "").strip()
        cancelled = "iptal" in text or "cancel" in text
        published = "sonuc ilani" in text or code == RESULT_PUBLISHED_STATUS or (
            "result" in text and ("publish" in text or "announce" in text))
        return cancelled, published


def group_records(records: list[TenderRecord], report: Report) -> list[list[TenderRecord]]:
    """Records per İKN in input order; a tender's bare notices form one record, placed at the first."""
    by_ikn: dict[str, list[TenderRecord]] = {}
    loose: dict[str, TenderRecord] = {}
    for record in sorted(records, key=lambda r: r.position):
        ikn = record.ikn
        if not ikn and record.direct_number:
            report.kept_out("direct-procurement-announcement", f"a direct-procurement announcement "
                            f"({record.direct_number}), not a tender: it prints no amount and no supplier, so it "
                            "cannot enter direct_purchases.csv", file=record.file)
            continue
        if not ikn:
            report.unmapped("no-ikn", f"a {record.shape} record names no İKN (İhale kayıt numarası)", file=record.file)
            continue
        if record.shape == "notice":
            if ikn in loose:
                loose[ikn].notices += record.notices
                loose[ikn].also_from.append(record.file)
                continue
            loose[ikn] = record
        by_ikn.setdefault(ikn, []).append(record)
    return list(by_ikn.values())


def _distinct(notices: list[Notice], record: TenderRecord, report: Report) -> list[Notice]:
    seen: dict[str, Notice] = {}
    for notice in notices:
        if notice.key() in seen:
            report.note("duplicate-notice", "the same result notice appears twice; counted once",
                        file=record.file, ikn=record.ikn)
            continue
        seen[notice.key()] = notice
    kept = list(seen.values())
    if record.fields.get("multi_lot") is False and len(kept) > 1:
        # EKAP says bids by lot were not allowed: several notices are versions of the one lot.
        report.note("notice-replaced", f"{len(kept)} different result notices of a single-lot tender "
                    "(kismiIhale false): the last one is kept", file=record.file, ikn=record.ikn)
        kept = kept[-1:]
    return kept


def _apply_corrections(picture: TenderPicture, record: TenderRecord, report: Report) -> None:
    """A result notice published as a correction (Düzeltme İlanı) replaces the lot it corrects: the
    only lot, or the one lot whose contractor it names."""
    for correction in record.corrections:
        if len(picture.lots) == 1:
            lot = next(iter(picture.lots))
        else:
            name = normalise_name(correction.fields.get("contractor", ""))
            same = [k for k, (n, _) in picture.lots.items() if normalise_name(n.fields.get("contractor", "")) == name]
            if len(same) != 1:
                report.unmapped("correction-without-lot", "a correction notice matches no single lot of the "
                                "tender (the lot number is not printed); it is not applied", file=record.file,
                                ikn=picture.ikn)
                continue
            lot = same[0]
        picture.lots[lot] = (correction, record.file)
        report.note("notice-replaced", f"lot {lot} replaced by a correction notice", file=record.file, ikn=picture.ikn)


def build_picture(records: list[TenderRecord], report: Report) -> TenderPicture:
    picture = TenderPicture(records[0].ikn)
    for record in records:
        picture.files += [record.file, *record.also_from]
        for name, value in record.fields.items():
            if value is not None:
                picture.fields[name] = value
        picture.okas = record.okas or picture.okas
        picture.cancellation_notice |= record.cancellation_notice
        picture.announced.update(record.announced)
        for lot, notice in enumerate(_distinct(record.notices, record, report), start=1):
            if notice.ikn and notice.ikn != picture.ikn:
                report.unmapped("ikn-mismatch", f"a result notice of {notice.ikn} inside the record of "
                                f"{picture.ikn}; left out", file=record.file, ikn=picture.ikn)
                continue
            earlier = picture.lots.get(lot)
            if earlier is not None and earlier[0].key() != notice.key():
                report.note("notice-replaced", f"lot {lot} published again: {record.file} replaces {earlier[1]}",
                            file=record.file, ikn=picture.ikn)
            picture.lots[lot] = (notice, record.file)
        _apply_corrections(picture, record, report)
    return picture
