"""Direct-procurement records mapped to rows of direct_purchases.csv by the rules of docs/ekap.md
("Direct purchases"): one row per contract with a supplier and an amount in lira; anything missing
is reported with the DT number, never guessed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from loaders.ekap.authority_types import classify_authority
from loaders.ekap.direct import DirectRecord, contract_value
from loaders.ekap.goods import goods_fallback_sector, goods_sector
from loaders.ekap.mapping import fallback_sector, okas_codes, sector_from_codes, tender_type
from loaders.ekap.places import province_from_name
from loaders.ekap.registry import Authority, Registry
from loaders.ekap.report import Report
from loaders.ekap.values import amount_fits, clean_text, parse_amount, parse_date

EARLIEST_DATE = date(2019, 1, 1)
INCOMPLETE = "direct-purchase-incomplete"


@dataclass
class PurchaseMapper:
    registry: Registry
    report: Report
    published: date
    goods_unplaced: str = "fallback"  # as a tender's (tables.Mapper): "fallback" or "keep-out"

    def rows(self, records: list[DirectRecord]) -> list[dict[str, str]]:
        """The rows of every record in input order; a later record of the same DT number replaces
        the earlier one's rows (a result saved again)."""
        latest = {str(r.fields.get("number") or r.position): r for r in sorted(records, key=lambda r: r.position)}
        rows: list[dict[str, str]] = []
        for record in latest.values():
            rows += self._record(str(record.fields.get("number") or ""), record)
        return rows

    def _record(self, number: str, record: DirectRecord) -> list[dict[str, str]]:
        where = {"file": record.file, "ikn": number or None}
        if not number:
            self.report.unmapped("no-direct-number", "a direct-procurement record names no DT number (Dtn, dt_no)",
                                 **where)
            return []
        if not record.contracts:
            what = "a listing, which" if record.listed else "a record that"
            self.report.kept_out(INCOMPLETE, f"direct procurement {number}: {what} gives no contract, so no amount "
                                 "and no supplier; not in direct_purchases.csv", **where)
            return []
        authority, sector = self._authority(record, where), self._sector(record, where)
        if authority is None or sector is None:
            return []
        rows = []
        for index, contract in enumerate(record.contracts, start=1):
            row = self._contract(f"{number}/{index}", contract, record, where)
            if row is not None:
                authority.used = True
                rows.append({**row, "authority_id": self.registry.authority_id(authority), "sector": str(sector)})
        return rows

    def _contract(self, purchase_id: str, contract: dict[str, Any], record: DirectRecord,
                  where: dict) -> dict[str, str] | None:
        supplier = clean_text(contract_value(contract, "supplier"))
        missing = [n for n, absent in (("supplier (IstekliAdi)", not supplier),
                                       ("amount (SozlesmeBedeli)", contract_value(contract, "amount") is None)) if absent]
        if missing:
            self.report.kept_out(INCOMPLETE, f"direct purchase {purchase_id}: no {' and no '.join(missing)}; not in "
                                 "direct_purchases.csv", field="supplier_id" if not supplier else "amount", **where)
            return None
        if (amount := self._amount(contract, purchase_id, where)) is None:
            return None  # reported where it was read
        day = self._date(contract_value(contract, "date") or record.fields.get("date"), purchase_id, where)
        if day is None:
            return None
        contractor = self.registry.add_contractor(supplier)
        contractor.used = True
        return {"purchase_id": purchase_id, "purchase_date": day.isoformat(), "supplier_id": contractor.id,
                "amount": format(amount, "f")}

    def _amount(self, contract: dict[str, Any], purchase_id: str, where: dict) -> Decimal | None:
        """A JSON number as written, or a text in Turkish notation (`12.500,00 TRY`); another
        notation or currency is reported, not converted."""
        raw = contract_value(contract, "amount")
        where = {**where, "field": "amount"}
        try:
            if isinstance(raw, int | float) and not isinstance(raw, bool):
                value, currency = Decimal(str(raw)), "TRY"
            else:
                parsed = parse_amount(str(raw))
                if parsed is None:
                    return None
                value, currency = parsed.value, parsed.currency
        except (ValueError, InvalidOperation) as exc:
            self.report.unmapped("unparseable-value", f"direct purchase {purchase_id}: {exc}", **where)
            return None
        if currency != "TRY":
            self.report.unmapped("currency", f"direct purchase {purchase_id}: amount in {currency}, not converted",
                                 **where)
            return None
        if not amount_fits(value):
            self.report.unmapped("value-out-of-range", f"direct purchase {purchase_id}: amount {value} does not "
                                 "fit the release (0 to 15 digits, at most 6 decimals)", **where)
            return None
        return value

    def _date(self, raw: object, purchase_id: str, where: dict) -> date | None:
        where = {**where, "field": "purchase_date"}
        try:
            day = parse_date(raw)
        except ValueError as exc:
            self.report.unmapped("unparseable-value", f"direct purchase {purchase_id}: {exc}", **where)
            return None
        if day is None:
            self.report.kept_out(INCOMPLETE, f"direct purchase {purchase_id}: no date (SozlesmeTarihi or the "
                                 "DT date)", **where)
        elif not EARLIEST_DATE <= day <= self.published:
            self.report.unmapped("purchase-date-out-of-range", f"direct purchase {purchase_id}: date {day} is before "
                                 f"{EARLIEST_DATE} or after the release's publishedAt ({self.published})", **where)
            return None
        return day

    def _authority(self, record: DirectRecord, where: dict) -> Authority | None:
        f = record.fields
        name, given = clean_text(f.get("authority")), clean_text(f.get("province"))
        plate = province_from_name(given) if given else None
        if not name or plate is None:
            what = "no authority name" if not name else f"no province for {name!r} (Ili {given or 'not given'})"
            self.report.kept_out("authority-not-given" if not name else "authority-province-not-given",
                                 f"direct procurement {f.get('number')}: {what}", field="authority_id", **where)
            return None
        kind, _ = classify_authority(name, clean_text(f.get("top_institution")), clean_text(f.get("parent")))
        return self.registry.add_authority(name, plate, kind)

    def _sector(self, record: DirectRecord, where: dict) -> int | None:
        """As a tender's: the OKAS codes (BransKodList), else the kind of purchase (Turu): works and
        services their fallback sector, goods the sector their name names, else the goods fallback
        (or none under `--goods-unplaced keep-out`)."""
        if (sector := sector_from_codes(okas_codes(record.okas))) is not None:
            return sector
        printed = clean_text(record.fields.get("type"))
        kind = tender_type(printed, printed if printed.isdigit() else record.fields.get("type_code"))
        number, name = record.fields.get("number"), clean_text(record.fields.get("name"))
        if kind != "goods":
            sector = fallback_sector(kind)
        elif (sector := goods_sector(name)[0]) is None and self.goods_unplaced == "fallback":
            sector = goods_fallback_sector()
            self.report.note("sector-by-kind-fallback", f"direct procurement {number}: no OKAS code, and its name "
                             f"({name or 'no name'!r}) names no one sector: sector {sector}, the goods fallback",
                             field="sector", **where)
        if sector is None:
            self.report.kept_out("sector-not-given", f"direct procurement {number}: no OKAS code, and its kind "
                                 f"({kind or 'unknown'}) and name place it in no sector", field="sector", **where)
        return sector
        printed = clean_text(record.fields.get("type"))
        kind = tender_type(printed, printed if printed.isdigit() else record.fields.get("type_code"))
        sector = goods_sector(clean_text(record.fields.get("name")))[0] if kind == "goods" else fallback_sector(kind)
        if sector is None:
            self.report.kept_out("sector-not-given", f"direct procurement {record.fields.get('number')}: no OKAS code, "
                                 f"and its kind ({kind or 'unknown'}) and name place it in no sector", field="sector",
                                 **where)
        return sector
