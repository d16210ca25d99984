"""One tender record from a saved EKAP JSON object, read by EKAP's own field names and by the
names ihale-mcp's formatted record uses; its announcements parsed into result notices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loaders.ekap.announcement import direct_number, read_announcement
from loaders.ekap.notice import Notice, looks_like_html, parse_notice
from loaders.ekap.report import NOTE, UNMAPPED, Entry

# Our attribute -> where a record may hold it, first found wins. Dotted paths walk objects.
FIELDS: dict[str, tuple[str, ...]] = {
    "ikn": ("ikn",),
    "name": ("ihaleAdi", "name", "basic_info.name"),
    "authority_id": ("idare.id", "idareId", "authority.id"),
    "authority": ("idare.adi", "idareAdi", "authority", "authority.name"),
    "top_institution": ("idare.enUstIdareAdi", "authority.top_authority_name"),
    "parent": ("idare.ustIdare", "authority.parent_authority"),
    "province": ("idare.il.adi", "ihaleIlAdi", "province", "authority.province"),
    "province_id": ("idare.il.id", "ihaleIlId"),
    "tender_date": ("ihaleBilgi.ihaleTarihSaat", "ihaleTarihSaat", "tender_datetime", "basic_info.tender_datetime"),
    "type": ("ihaleBilgi.ihaleTipiAciklama", "ihaleTipAciklama", "type.description", "basic_info.type_description",
             "type"),
    "type_code": ("ihaleTip", "type.code"),
    "exception": ("ihaleBilgi.istisnaUsulAciklama",),
    "method": ("ihaleBilgi.ihaleUsulAciklama", "ihaleUsulAciklama", "method", "basic_info.method_description"),
    "status": ("ihaleBilgi.ihaleDurumAciklama", "ihaleDurumAciklama", "status.description", "status"),
    "status_code": ("ihaleDurum", "status.code"),
    "cancelled_on": ("ihaleBilgi.iptalTarihi", "cancellation_info.cancelled_date"),
    "multi_lot": ("kismiIhale", "basic_info.is_partial"),
}
OKAS_PATHS = (("ihtiyacKalemiOkasList", "kodu"), ("okas_codes", "code"))
ANNOUNCEMENT_LISTS = ("ilanList", "announcements", "announcements_summary.announcements")
# EKAP's announcement types (`ilanTip`): 2 İhale İlanı, 3 İptal İlanı, 4 Sonuç İlanı, 6 Düzeltme İlanı.
ANNOUNCEMENT, CANCELLATION, RESULT, CORRECTION = "2", "3", "4", "6"


@dataclass
class TenderRecord:
    """What one record says about one tender, in input order (`position`)."""

    file: str
    position: tuple[int, ...]
    shape: str
    fields: dict[str, Any] = field(default_factory=dict)
    okas: list[str] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    corrections: list[Notice] = field(default_factory=list)
    cancellation_notice: bool = False
    also_from: list[str] = field(default_factory=list)  # the other files of a tender's bare notices
    # What its announcements (and corrections repeating them) say: authority, address, tender_date,
    # procedure, tender_type; a later announcement replaces what an earlier one said.
    announced: dict[str, str] = field(default_factory=dict)
    direct_number: str | None = None  # a direct-procurement announcement's number (26DT507662)

    @property
    def ikn(self) -> str:
        return str(self.fields.get("ikn") or "").strip() or next((n.ikn for n in self.notices if n.ikn), "")


def lookup(obj: Any, path: str) -> Any:
    """The scalar at a dotted path, or None (an object or list where a scalar is expected is None)."""
    for part in path.split("."):
        if not isinstance(obj, dict):
            return None
        obj = obj.get(part)
    if isinstance(obj, dict | list) or obj is None or (isinstance(obj, str) and not obj.strip()):
        return None
    return obj


def _okas(obj: dict[str, Any]) -> list[str]:
    values: list[Any] = []
    for list_key, code_key in OKAS_PATHS:
        items = obj.get(list_key)
        if isinstance(items, list):
            values += [i.get(code_key) for i in items if isinstance(i, dict) and i.get(code_key)]
    if not values and lookup(obj, "ihaleBilgi.okas"):
        values.append(lookup(obj, "ihaleBilgi.okas"))
    return [str(v) for v in values]


def _announcements(obj: dict[str, Any]) -> list[dict[str, Any]]:
    for path in ANNOUNCEMENT_LISTS:
        node: Any = obj
        for part in path.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, list):
            return [a for a in node if isinstance(a, dict)]
    return []


def _announcement_type(item: dict[str, Any]) -> str:
    kind = item.get("ilanTip", item.get("type"))
    if isinstance(kind, dict):
        kind = kind.get("code")
    return str(kind).strip() if kind is not None else ""


def _announcement_text(item: dict[str, Any]) -> tuple[str, bool]:
    for key, html in (("veriHtml", True), ("markdown_content", False), ("html", True), ("content", False)):
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value, html or looks_like_html(value)
    return "", False


def notice_entries(notice: Notice, file: str) -> list[Entry]:
    """What a notice printed that the importer does not read: labels it does not know, and rows
    that are not `label : value` (a layout it does not recognise, whose estimate is left out)."""
    ikn = notice.ikn or None
    found = [Entry(NOTE, "unknown-label", f"row {label!r} is not a label the importer reads", file=file, ikn=ikn)
             for label in notice.unknown_labels]
    if notice.unread_rows:
        found.append(Entry(UNMAPPED, "notice-structure-unknown", "the notice is laid out in a way the importer "
                           f"does not recognise (rows {notice.unread_rows!r}); its estimate is left out, as it may "
                           "be the tender-wide one of several lots", file=file, ikn=ikn, field="estimated_cost"))
    return found


def read_record(obj: dict[str, Any], *, tender: dict[str, Any] | None, file: str, position: tuple[int, ...],
                shape: str, entries: list[Entry]) -> TenderRecord:
    """A tender record: its fields from `tender` (the record itself when None) and its announcements."""
    source = obj if tender is None else tender
    record = TenderRecord(file, position, shape)
    for name, paths in FIELDS.items():
        record.fields[name] = next((v for p in paths if (v := lookup(source, p)) is not None), None)
    record.okas = _okas(source)
    _read_announcements(obj, record, entries)
    if not record.fields.get("ikn") and record.announced.get("ikn"):
        record.fields["ikn"] = record.announced["ikn"]  # a bundle's tender may name none
    return record


def _read_announcements(obj: dict[str, Any], record: TenderRecord, entries: list[Entry]) -> None:
    file = record.file
    for item in _announcements(obj):
        kind = _announcement_type(item)
        text, html = _announcement_text(item)
        record.direct_number = record.direct_number or direct_number(text)
        if kind == CANCELLATION:
            record.cancellation_notice = True
        if not text or kind not in ("", ANNOUNCEMENT, RESULT, CORRECTION):
            continue
        if kind == ANNOUNCEMENT:
            record.announced.update(read_announcement(text, html=html))
            continue
        notice = parse_notice(text, html=html)
        if kind == CORRECTION and not notice.is_result:  # a correction of the announcement
            record.announced.update(read_announcement(text, html=html))
            continue
        if not notice.is_result:
            if kind == RESULT:
                entries.append(Entry("unmapped", "not-a-result-notice", "an announcement of type 4 (Sonuç "
                                     "İlanı) has no İKN and no contract rows", file=file, ikn=record.ikn or None))
            continue
        entries.extend(notice_entries(notice, file))
        (record.corrections if kind == CORRECTION else record.notices).append(notice)
