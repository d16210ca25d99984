"""The five release tables from the mapped tenders and the base release, merged lot by lot."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from loaders.ekap.base import BaseRelease
from loaders.ekap.registry import ABROAD, Authority, Registry
from loaders.ekap.report import Report
from loaders.ekap.tables import TenderRow
from loaders.procurement.release import COLUMNS, OPTIONAL_COLUMNS


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def _ikn_order(ikn: str) -> tuple[int, int, str]:
    year, _, number = ikn.partition("/")
    return (int(year), int(number), ikn) if year.isdigit() and number.isdigit() else (0, 0, ikn)


def _tender_rows(row: TenderRow, registry: Registry) -> tuple[dict, dict[int, dict]]:
    tender = {"tender_id": row.ikn, "authority_id": registry.authority_id(row.authority),
              "tender_date": row.tender_date.isoformat(), "procedure": row.procedure, "sector": str(row.sector),
              "estimated_cost": _amount(row.estimate), "lots": str(row.lots), "name": row.name}
    awards = {}
    for award in row.awards:
        if award.contractor is not None:
            award.contractor.used = True
        awards[award.lot] = {"tender_id": row.ikn, "lot": str(award.lot),
                             "bids": None if award.bids is None else str(award.bids),
                             "contractor_id": award.contractor.id if award.contractor else None,
                             "contract_value": _amount(award.value)}
    row.authority.used = True
    return tender, awards


def _merge(tender: dict, awards: dict[int, dict], base: BaseRelease, report: Report) -> tuple[dict, dict[int, dict]]:
    """The new picture replaces the base's lots of the same number; the base's other lots stay."""
    ikn = tender["tender_id"]
    old = base.tenders.get(ikn)
    if old is None:
        return tender, awards
    merged = {**base.awards.get(ikn, {}), **awards}
    lots = max(int(old["lots"]), int(tender["lots"]), max(merged, default=1))
    report.note("replaces-base", f"replaces lots {sorted(awards) or 'none'} of the base release's tender", ikn=ikn)
    if not tender["name"] and old.get("name"):
        tender = {**tender, "name": old["name"]}  # a name the new records do not print is kept
    if lots > 1 and tender["estimated_cost"] is not None:
        report.note("multi-lot-estimate", "with the base release's lots the tender has several lots: the "
                    "tender-wide estimate is left out", ikn=ikn, field="estimated_cost")
        tender = {**tender, "estimated_cost": None}
    return {**tender, "lots": str(lots)}, merged


def _frame(file: str, rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS[file] + OPTIONAL_COLUMNS.get(file, []), dtype=object).astype(object).where(
        lambda f: f.notna() & (f != ""), None)


def _purchases(base: BaseRelease, new: list[dict[str, str]]) -> list[dict[str, str]]:
    """The base's direct purchases, a purchase read again replacing its row, then the new ones."""
    read = {row["purchase_id"]: row for row in new}
    kept = [read.pop(row["purchase_id"], row) for row in base.direct_purchases]
    return kept + list(read.values())


def release_tables(rows: list[TenderRow], base: BaseRelease, registry: Registry, report: Report,
                   purchases: list[dict[str, str]] | None = None) -> dict:
    tenders = {ikn: row for ikn, row in base.tenders.items()}
    awards = {ikn: dict(lots) for ikn, lots in base.awards.items()}
    for row in rows:
        tender, lots = _merge(*_tender_rows(row, registry), base, report)
        tenders[row.ikn], awards[row.ikn] = tender, lots
    order = sorted(tenders, key=_ikn_order)
    def row(a: Authority) -> dict:
        return {"authority_id": registry.authority_id(a), "name": a.name, "authority_type": a.type,
                "province": str(a.province)}

    # A base authority a newer record names otherwise is written as that record names it.
    authorities = [row(registry.by_id[r["authority_id"]]) if r["authority_id"] in registry.by_id else r
                   for r in base.authorities] + [
        row(a) for a in registry.distinct_authorities() if a.used and a.id not in base.authority_ids]
    contractors = [{"contractor_id": c.id, "name": c.name,
                    "province": None if c.province in (None, ABROAD) else str(c.province)}
                   for c in registry.contractors.values() if c.used or c.id in base.contractor_ids]
    return {
        "authorities.csv": _frame("authorities.csv", authorities),
        "contractors.csv": _frame("contractors.csv", contractors),
        "tenders.csv": _frame("tenders.csv", [tenders[ikn] for ikn in order]),
        "awards.csv": _frame("awards.csv", [awards[ikn][lot] for ikn in order for lot in sorted(awards.get(ikn, {}))]),
        "direct_purchases.csv": _frame("direct_purchases.csv", _purchases(base, purchases or [])),
    }
