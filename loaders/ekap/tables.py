"""A tender's picture mapped to release rows by the rules of docs/ekap.md; a tender that cannot be
mapped (no authority province, date, procedure or sector) is kept out and reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from loaders.ekap.authority_types import classify_authority
from loaders.ekap.goods import goods_fallback_sector, goods_sector
from loaders.ekap.mapping import fallback_sector, okas_codes, procedure_id, sector_from_codes, tender_type
from loaders.ekap.names import is_joint_venture, normalise_name
from loaders.ekap.notice import Notice
from loaders.ekap.places import (
    province_from_address,
    province_from_id,
    province_from_name,
    province_from_unit_name,
)
from loaders.ekap.registry import ABROAD, Authority, Contractor, Registry
from loaders.ekap.report import Report
from loaders.ekap.tenders import TenderPicture
from loaders.ekap.values import amount_fits, clean_text, parse_amount, parse_count, parse_date
from loaders.procurement.validate import MAX_INTEGER
from store.reference.lists import fold

EARLIEST_DATE = date(2019, 1, 1)
DOMESTIC = frozenset({"turkiye", "turk", "t.c.", "tc", "turkiye cumhuriyeti", "yerli"})


@dataclass
class AwardRow:
    lot: int
    bids: int | None
    contractor: Contractor | None
    value: Decimal | None


@dataclass
class TenderRow:
    ikn: str
    authority: Authority
    tender_date: date
    procedure: str
    sector: int
    estimate: Decimal | None
    lots: int
    awards: list[AwardRow] = field(default_factory=list)
    name: str | None = None  # İhale Adı


def tender_name(picture: TenderPicture) -> str | None:
    """The tender's name (İhale Adı): EKAP's `ihaleAdi` (or a saved record's `name`), else the
    first result notice's "2- İhale konusu …  a) Adı"; None when neither gives one."""
    notice = picture.first_notice
    return clean_text(picture.fields.get("name")) or (clean_text(notice.fields.get("subject")) if notice else "") \
        or None


def goods_name(picture: TenderPicture) -> str:
    """What a goods tender's name says: its name and the words its announcement puts before "mal
    alımı", joined; empty when neither is given."""
    return " / ".join(t for t in (tender_name(picture), picture.announced.get("subject")) if t)


@dataclass
class Mapper:
    """Maps pictures to rows, adding authorities and contractors to the registry and problems to the report."""

    registry: Registry
    report: Report
    published: date
    goods_unplaced: str = "fallback"  # a goods tender its name does not place: "fallback" or "keep-out"

    def map(self, picture: TenderPicture) -> tuple[TenderRow | None, dict[str, Any]]:
        where = {"file": ", ".join(dict.fromkeys(picture.files)), "ikn": picture.ikn}
        trace: dict[str, Any] = {"ikn": picture.ikn, "files": list(dict.fromkeys(picture.files))}
        authority = self._authority(picture, where, trace)
        day = self._tender_date(picture, where)
        procedure = self._procedure(picture, where, trace)
        sector = self._sector(picture, where, trace)
        missing = [name for name, value in (("authority", authority), ("tender date", day),
                                            ("procedure", procedure), ("sector", sector)) if value is None]
        if missing:
            self.report.kept_out("tender-kept-out", f"kept out of the release: no {', '.join(missing)}", **where)
            return None, {**trace, "status": "kept-out"}
        awards, status = self._awards(picture, where, day)
        lots = max(1, len(picture.lots))
        row = TenderRow(picture.ikn, authority, day, procedure, sector, self._estimate(picture, where), lots, awards,
                        tender_name(picture))
        return row, {**trace, "status": status, "lots": lots, "awardedLots": sum(1 for a in awards if a.contractor)}

    def _authority(self, picture: TenderPicture, where: dict, trace: dict) -> Authority | None:
        f = picture.fields
        name = clean_text(f.get("authority")) or (picture.first_notice.authority if picture.first_notice else "") \
            or clean_text(picture.announced.get("authority"))
        if not name:
            self.report.kept_out("authority-not-given", "no authority name in the record or the notice heading",
                                 field="authority", **where)
            return None
        plate = self._authority_province(f, name, picture.announced.get("address", ""), where)
        if plate is None:
            return None
        kind, fired = classify_authority(name, clean_text(f.get("top_institution")), clean_text(f.get("parent")))
        if not fired:
            self.report.note("authority-type-default", f"no rule of the table matches {name!r}: type other",
                             field="authority_type", **where)
        ekap_id = clean_text(f.get("authority_id")) or None
        known = self.registry.by_id.get(ekap_id) if ekap_id else None
        was = (known.name, known.province) if known else None
        entry = self.registry.add_authority(name, plate, kind, ekap_id=ekap_id)
        if was and (normalise_name(was[0]), was[1]) != (normalise_name(name), plate):
            self.report.note("authority-renamed", f"EKAP authority {ekap_id} is {was[0]!r} (province {was[1]}) in an "
                             f"earlier record and {name!r} (province {plate}) in this one: one row, as the latest "
                             "record names it", field="authority_id", **where)
        trace.update(authority=name, authorityType=entry.type)
        return entry

    def _authority_province(self, f: dict[str, Any], name: str, address: str, where: dict) -> int | None:
        given = clean_text(f.get("province"))
        if given:
            plate = province_from_name(given) or province_from_id(given)
            if plate is None:
                self.report.unmapped("authority-province-unknown", f"province {given!r} is not a province name or "
                                     "EKAP province id (245-325)", field="province", **where)
            return plate
        if f.get("province_id") is not None:
            plate = province_from_id(f["province_id"])
            if plate is None:
                self.report.unmapped("authority-province-unknown", f"EKAP province id {f['province_id']!r} is "
                                     "outside 245-325", field="province", **where)
            return plate
        if (plate := province_from_address(address)) is not None:
            self.report.note("authority-province-from-announcement", f"province of {name!r} read from the address "
                             "its tender announcement prints (1.2. Adresi)", field="province", **where)
            return plate
        plate = province_from_unit_name(name)
        if plate is None:
            self.report.kept_out("authority-province-not-given", f"no province for {name!r}: the record gives none "
                                 "and the name names no provincial unit", field="province", **where)
        else:
            self.report.note("authority-province-from-name", f"province of {name!r} read from its name",
                             field="province", **where)
        return plate

    def _tender_date(self, picture: TenderPicture, where: dict) -> date | None:
        notice = picture.first_notice
        raw = picture.fields.get("tender_date") or (notice.fields.get("tender_date") if notice else None) \
            or picture.announced.get("tender_date")
        try:
            day = parse_date(raw)
        except ValueError as exc:
            self.report.unmapped("unparseable-value", str(exc), field="tender_date", **where)
            return None
        if day is None:
            self.report.kept_out("tender-date-not-given", "no tender date (ihaleTarihSaat, or 1- İhalenin a) Tarihi)",
                                 field="tender_date", **where)
        elif not EARLIEST_DATE <= day <= self.published:
            self.report.unmapped("tender-date-out-of-range", f"tender date {day} is before {EARLIEST_DATE} or after "
                                 f"the release's publishedAt ({self.published})", field="tender_date", **where)
            return None
        return day

    def _procedure(self, picture: TenderPicture, where: dict, trace: dict) -> str | None:
        notice = picture.first_notice
        texts = [clean_text(picture.fields.get(k)) for k in ("exception", "method")]
        texts.append(clean_text(notice.fields.get("procedure")) if notice else "")
        texts.append(clean_text(picture.announced.get("procedure")))  # the result notice's first, if any
        texts = [t for t in texts if t]
        for text in texts:
            if found := procedure_id(text):
                trace.update(procedure=found, procedureText=text)
                return found
        if texts:
            self.report.unmapped("procedure-unknown", f"no procedure id for {texts!r}", field="procedure", **where)
        else:
            self.report.kept_out("procedure-not-given", "no procedure printed (ihaleUsulAciklama, "
                                 "istisnaUsulAciklama or 1- İhalenin c) Usulü)", field="procedure", **where)
        return None

    def _sector(self, picture: TenderPicture, where: dict, trace: dict) -> int | None:
        codes = okas_codes(picture.okas)
        if (sector := sector_from_codes(codes)) is not None:
            trace.update(sector=sector, sectorRule="okas")
            return sector
        if codes:
            self.report.unmapped("unparseable-value", f"OKAS codes {codes} name no CPV division", field="okas", **where)
        notice = picture.first_notice
        printed = picture.fields.get("type") or (notice.fields.get("tender_type") if notice else None) \
            or picture.announced.get("tender_type")
        kind = tender_type(printed, picture.fields.get("type_code"))
        if kind == "goods":
            return self._goods_sector(picture, where, trace)
        sector = fallback_sector(kind)
        if sector is None:
            self.report.kept_out("sector-not-given", f"no OKAS code, and tender type {kind or 'unknown'} has no "
                                 "fallback sector", field="sector", **where)
            return None
        self.report.note("sector-by-tender-type", f"no OKAS code: sector {sector} by tender type {kind}",
                         field="sector", **where)
        trace.update(sector=sector, sectorRule=f"tender-type:{kind}")
        return sector

    def _goods_sector(self, picture: TenderPicture, where: dict, trace: dict) -> int | None:
        """A goods tender with no OKAS code: the sector its name's words name (loaders/ekap/goods.py),
        read from the tender's name and the words its announcement puts before "mal alımı"; when they
        name none or two, the goods fallback sector, or nothing under `--goods-unplaced keep-out`."""
        name = goods_name(picture)
        sector, words = goods_sector(name)
        if sector is not None:
            self.report.note("sector-by-goods-name", f"no OKAS code: sector {sector} by the words {words} of the "
                             "goods tender's name", field="sector", **where)
            trace.update(sector=sector, sectorRule=f"goods-name:{words[0]}")
            return sector
        why = f"its name's words {words} name several sectors" if words else "its name names no sector"
        if self.goods_unplaced == "keep-out":
            self.report.kept_out("sector-not-given", f"no OKAS code, and --goods-unplaced keep-out: {why} "
                                 f"({name or 'no name'!r})", field="sector", **where)
            return None
        sector = goods_fallback_sector()
        self.report.note("sector-by-kind-fallback", f"no OKAS code, and {why} ({name or 'no name'!r}): sector "
                         f"{sector}, the goods fallback", field="sector", **where)
        trace.update(sector=sector, sectorRule="kind-fallback:goods")
        return sector

    def _amount(self, notice: Notice, name: str, where: dict) -> Decimal | None:
        try:
            amount = parse_amount(notice.fields.get(name))
        except ValueError as exc:
            self.report.unmapped("unparseable-value", str(exc), field=name, **where)
            return None
        if amount is not None and not amount.in_lira:
            self.report.unmapped("currency", f"{name} is in {amount.currency}, not TRY: left empty, not converted",
                                 field=name, **where)
            return None
        if amount is not None and not amount_fits(amount.value):
            # The loader refuses a release with such an amount: the figure is left out here instead.
            self.report.unmapped("value-out-of-range", f"{name} {amount.value} TRY does not fit the release's "
                                 "amounts (at most 15 digits and 6 decimals): left empty", field=name, **where)
            return None
        return amount.value if amount else None

    def _estimate(self, picture: TenderPicture, where: dict) -> Decimal | None:
        notice = picture.first_notice
        if notice is None:
            return None
        estimate = self._amount(notice, "estimate", where)
        if estimate is not None and any(n.unread_rows for n, _ in picture.lots.values()):
            # Reported where the notice was read (notice-structure-unknown): whether the estimate
            # is the lot's or the whole tender's cannot be told, so it is not taken for either.
            return None
        if estimate is not None and picture.multi_lot:
            self.report.note("multi-lot-estimate", "multi-lot tender whose lots' estimates are not published: the "
                             "tender-wide estimate is left out, so the tender stays out of averageDiscount",
                             field="estimated_cost", **where)
            return None
        return estimate

    def _awards(self, picture: TenderPicture, where: dict, day: date) -> tuple[list[AwardRow], str]:
        cancelled, published = picture.status()
        if not picture.lots:
            if published:
                self.report.note("result-not-in-input", "EKAP's status says the result is published, but no result "
                                 "notice is in the input: no awarded lot", **where)
            gone = cancelled or picture.fields.get("cancelled_on") or picture.cancellation_notice
            return [], "cancelled" if gone else "no-result"
        if cancelled:
            self.report.note("cancelled-status-with-result", "EKAP's status says cancelled: the result notices are "
                             "not counted", **where)
            return [], "cancelled"
        if picture.fields.get("cancelled_on"):
            self.report.note("cancelled-with-result", "a cancellation date and a result notice: the award is kept",
                             **where)
        return [self._award(lot, notice, where, day) for lot, (notice, _) in sorted(picture.lots.items())], "awarded"

    def _award(self, lot: int, notice: Notice, where: dict, day: date) -> AwardRow:
        try:
            bids = parse_count(notice.fields.get("bids_valid"))
        except ValueError as exc:
            self.report.unmapped("unparseable-value", str(exc), field="bids", **where)
            bids = None
        value = self._amount(notice, "contract_value", where)
        if not (self._fits(lot, bids, where) and self._contract_date_plausible(lot, notice, where, day)):
            return AwardRow(lot, None, None, None)
        name = clean_text(notice.fields.get("contractor"))
        if not name or value is None:
            missing = "contractor" if not name else "contract value"
            self.report.unmapped("award-incomplete", f"lot {lot}: no {missing}; written as not awarded",
                                 field="contractor_id" if not name else "contract_value", **where)
            return AwardRow(lot, bids, None, None)
        contractor = self.registry.add_contractor(name)
        self._contractor_province(contractor, notice, where)
        return AwardRow(lot, bids, contractor, value)

    def _fits(self, lot: int, bids: int | None, where: dict) -> bool:
        """Whether the lot's bid count fits the release format (a 32-bit integer, as the loader
        checks): a lot that does not is written as not awarded, so one misprinted figure does not
        make the loader refuse the whole week."""
        if bids is None or bids <= MAX_INTEGER:
            return True
        self.report.unmapped("value-out-of-range", f"lot {lot}: a bid count of {bids} is above {MAX_INTEGER}; "
                             "written as not awarded", field="bids", **where)
        return False

    def _contract_date_plausible(self, lot: int, notice: Notice, where: dict, day: date) -> bool:
        """A contract signed before its tender, before 2019 or after the release is a misprint: the
        lot is written as not awarded rather than carried with figures that cannot be trusted."""
        try:
            signed = parse_date(notice.fields.get("contract_date"))
        except ValueError as exc:
            self.report.unmapped("unparseable-value", f"lot {lot}: {exc}", field="contract_date", **where)
            return True  # the contract date is not in the release; the award stands on its other rows
        if signed is None or day <= signed <= self.published:
            return True
        self.report.unmapped("contract-date-implausible", f"lot {lot}: contract date {signed} is before the tender "
                             f"date {day} or after the release's publishedAt ({self.published}); written as not "
                             "awarded", field="contract_date", **where)
        return False

    def _contractor_province(self, contractor: Contractor, notice: Notice, where: dict) -> None:
        nationality = fold(clean_text(notice.fields.get("nationality")))
        address = clean_text(notice.fields.get("address"))
        found: int | None
        if is_joint_venture(contractor.name):
            # The one address a joint venture's notice prints is its pilot partner's: the venture is
            # placed there, as any contractor is placed at the address its notice prints.
            self.report.note("joint-venture", f"{contractor.name} is a joint venture: its province is that of the "
                             "address printed, the pilot partner's", **where)
        if nationality and nationality not in DOMESTIC:
            found = ABROAD
            self.report.note("foreign-contractor", f"nationality {nationality!r}: province empty", **where)
        elif not address:
            found = None
            self.report.note("no-address", "no contractor address printed: province empty", **where)
        elif (found := province_from_address(address)) is None:
            self.report.unmapped("contractor-province-unknown", f"no İLÇE/İL province in the address {address!r}",
                                 field="province", **where)
        if found is None:
            return
        if contractor.province is not None and contractor.province != found:
            self.report.note("contractor-province-changed", f"{contractor.name}: head office province "
                             f"{contractor.province} becomes {found} (the later notice)", **where)
        contractor.province = found
