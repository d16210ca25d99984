"""One tender of a release as one OCDS 1.1 release: the field-by-field mapping of docs/ocds.md.

The rules that pick a code (method, category, classification scheme) live here and nowhere else;
`package.py` only streams what `tender_release` returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from store.reference.lists import procedures, provinces, sectors

CURRENCY = "TRY"
COUNTRY = "Türkiye"
# İhale tarihi is a calendar day in Türkiye, which keeps UTC+3 all year (no summer time since 2016).
TURKIYE_OFFSET = "+03:00"
# OKAS codes of eight digits are CPV 2008 codes; a longer one (EKAP's nine-digit codes add a digit
# of its own to a CPV code) is kept whole in a scheme of its own, documented in docs/ocds.md.
CPV_CODE = re.compile(r"[0-9]{8}")
OKAS_SCHEME = "TR-OKAS"


@dataclass(frozen=True)
class TenderRow:
    """What the release holds about one tender, as read from its tables (text as in the CSVs)."""

    tender_id: str
    tender_date: str
    procedure: str
    sector: int
    estimated_cost: str | None
    lots: int
    name: str | None
    authority_id: str
    authority_name: str
    authority_province: int
    # (lot, bids, contractor_id, contract_value, contractor_name, contractor_province), by lot
    lot_rows: list[tuple[int, int | None, str | None, str | None, str | None, int | None]]
    okas: tuple[str, ...] = ()


def ocid(prefix: str, tender_id: str) -> str:
    """The prefix, `-`, and the İKN with its `/` as `-` (2024/123456 -> 2024-123456): a stable form
    that is safe in a URL path and in a file name."""
    return f"{prefix}-{tender_id.replace('/', '-')}"


def procurement_method(procedure: str) -> str:
    """open -> open, restricted -> selective, every negotiated procedure and every other exception -> limited."""
    if procedure == "open":
        return "open"
    if procedure == "restricted":
        return "selective"
    return "limited"


@cache
def _category_by_sector() -> dict[int, str]:
    """A sector's category from the first CPV division it covers: 45 is works, 50 and above are
    services, the rest (03-44, 48) goods. Sector 19 (41;65, water and public utilities) is goods by
    its first division, collected and purified water."""
    categories = {}
    for sector in sectors().values():
        division = int(sector.extra.split(";")[0])
        categories[int(sector.id)] = "works" if division == 45 else "services" if division >= 50 else "goods"
    return categories


def main_procurement_category(sector: int) -> str:
    return _category_by_sector()[sector]


def amount(text: str) -> float:
    """An amount of the release (at most six decimals) as a JSON number: exact to the kuruş up to
    10^13 TRY, which a double carries in its 15 significant digits."""
    return float(text)


def _value(text: str) -> dict[str, Any]:
    return {"amount": amount(text), "currency": CURRENCY}


def _address(province: int | None) -> dict[str, str]:
    if province is None:
        return {"countryName": COUNTRY}
    return {"region": provinces()[province].name, "countryName": COUNTRY}


def authority_party_id(authority_id: str) -> str:
    return f"authority-{authority_id}"


def contractor_party_id(contractor_id: str) -> str:
    return f"contractor-{contractor_id}"


def classification(code: str) -> dict[str, str]:
    if CPV_CODE.fullmatch(code):
        return {"scheme": "CPV", "id": code}
    return {"scheme": OKAS_SCHEME, "id": code}


def _parties(row: TenderRow) -> list[dict[str, Any]]:
    parties = [{"id": authority_party_id(row.authority_id), "name": row.authority_name, "roles": ["buyer"],
                "address": _address(row.authority_province)}]
    seen = set()
    for _lot, _bids, contractor, _value_text, name, province in row.lot_rows:
        if contractor is None or contractor in seen:
            continue
        seen.add(contractor)
        # A joint venture is one contractor of the release, so one party; its members are not in the release.
        parties.append({"id": contractor_party_id(contractor), "name": name, "roles": ["supplier"],
                        "address": _address(province)})
    return parties


def _tender(row: TenderRow) -> dict[str, Any]:
    method = procurement_method(row.procedure)
    tender: dict[str, Any] = {"id": row.tender_id}
    if row.name:
        tender["title"] = row.name
    tender["procurementMethod"] = method
    tender["procurementMethodDetails"] = f"{row.procedure}: {procedures()[row.procedure].name_tr}"
    tender["mainProcurementCategory"] = main_procurement_category(row.sector)
    if row.estimated_cost is not None:
        tender["value"] = _value(row.estimated_cost)
    tender["tenderPeriod"] = {"endDate": f"{row.tender_date}T00:00:00{TURKIYE_OFFSET}"}
    tender["lots"] = [{"id": str(lot)} for lot in range(1, row.lots + 1)]
    if row.okas:
        tender["items"] = [{"id": str(i), "classification": classification(code)}
                           for i, code in enumerate(row.okas, start=1)]
    return tender


def tender_release(row: TenderRow, *, prefix: str, release_name: str, release_date: str) -> dict[str, Any]:
    """The OCDS release of one tender in the weekly release `release_name`, dated `release_date`."""
    awarded = [r for r in row.lot_rows if r[2] is not None]
    award_date = f"{row.tender_date}T00:00:00{TURKIYE_OFFSET}"
    release: dict[str, Any] = {
        "ocid": ocid(prefix, row.tender_id),
        "id": f"{ocid(prefix, row.tender_id)}-{release_name}",
        "date": release_date,
        "tag": ["tender", "award", "contract"] if awarded else ["tender"],
        "initiationType": "tender",
        "language": "tr",
        "parties": _parties(row),
        "buyer": {"id": authority_party_id(row.authority_id), "name": row.authority_name},
        "tender": _tender(row),
    }
    if awarded:
        release["awards"] = [
            {"id": str(lot), "status": "active", "date": award_date, "value": _value(value),
             "suppliers": [{"id": contractor_party_id(contractor), "name": name}], "relatedLots": [str(lot)]}
            for lot, _bids, contractor, value, name, _province in awarded]
        release["contracts"] = [{"id": str(lot), "awardID": str(lot), "value": _value(value)}
                                for lot, _bids, _contractor, value, _name, _province in awarded]
    statistics = [{"id": f"{lot}-validBids", "measure": "validBids", "value": bids, "relatedLot": str(lot)}
                  for lot, bids, *_ in row.lot_rows if bids is not None]
    if statistics:
        release["bids"] = {"statistics": statistics}
    return release
