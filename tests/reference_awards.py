"""An independent reading of docs/awards-and-flags.md with pandas, NumPy and Decimal, straight from
the release's CSV files: awards with their flags, profile figures and discount benchmarks."""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd

CENT = Decimal("0.01")
FLAG_ORDER = ["single-bid", "at-or-above-estimate", "just-below-estimate", "negotiated-without-notice", "winner-share"]


def money(value: Decimal | None) -> Decimal | None:
    return None if value is None else value.quantize(CENT, rounding=ROUND_HALF_UP)


def awards(d: dict) -> list[dict]:
    """Every awarded lot as the awards endpoint serves it, newest first (tender date descending, then
    tender id and lot), with `_value` (exact) and `_year` for the other computations."""
    te = d["te"].set_index("tender_id")
    names = d["co"].set_index("contractor_id")["name"]
    au = d["au"].set_index("authority_id")
    has_names = "name" in d["te"].columns
    won: dict[tuple, Decimal] = defaultdict(Decimal)
    spent: dict[tuple, Decimal] = defaultdict(Decimal)
    for r in d["aw"].itertuples():
        won[(r.authority_id, r.year, r.contractor_id)] += Decimal(r.contract_value)
        spent[(r.authority_id, r.year)] += Decimal(r.contract_value)
    items = []
    for r in d["aw"].itertuples():
        t = te.loc[r.tender_id]
        value = Decimal(r.contract_value)
        est = Decimal(t["estimated_cost"]) if t["lots"] == 1 and t["estimated_cost"] != "" else None
        flags = []
        if r.bids == 1 and r.procedure in ("open", "restricted"):
            flags.append("single-bid")
        if est is not None and est > 0 and value >= est:
            flags.append("at-or-above-estimate")
        if est is not None and est > 0 and Decimal("0.99") * est <= value < est:
            flags.append("just-below-estimate")
        if r.procedure in ("negotiated-21b", "negotiated-21c", "negotiated-21f"):
            flags.append("negotiated-without-notice")
        if won[(r.authority_id, r.year, r.contractor_id)] > spent[(r.authority_id, r.year)] / 2:
            flags.append("winner-share")
        item = {"tenderId": r.tender_id, "tenderDate": t["tender_date"]}
        if has_names:
            item["tenderName"] = t["name"].strip(" ") or None
        cprov = None if pd.isna(r.cprov) else int(r.cprov)
        item.update(
            lot=int(r.lot), lots=int(t["lots"]), procedure=r.procedure, sector=int(r.sector),
            authority={"id": r.authority_id, "name": au.loc[r.authority_id, "name"],
                       "type": au.loc[r.authority_id, "authority_type"], "province": int(r.province)},
            contractor={"id": r.contractor_id, "name": names.loc[r.contractor_id], "province": cprov},
            estimatedCost=money(est), contractValue=money(value), bids=None if pd.isna(r.bids) else int(r.bids),
            discount=1 - float(r.contract_value) / float(t["estimated_cost"]) if est is not None and est > 0 else None,
            flags=sorted(flags), _value=value, _year=r.year,
        )
        items.append(item)
    items.sort(key=lambda i: (i["tenderId"], i["lot"]))
    items.sort(key=lambda i: i["tenderDate"], reverse=True)
    return items


def by_value(items: list[dict]) -> list[dict]:
    """The awards by contract value, largest first, then tender id and lot."""
    return sorted(items, key=lambda i: (-i["_value"], i["tenderId"], i["lot"]))


def tender_discounts(d: dict) -> pd.DataFrame:
    """Tenders with an estimate above 0 and every lot awarded, with their discount."""
    t = d["te"].merge(d["sums"], left_on="tender_id", right_index=True, how="left")
    t = t[(t["est"] > 0) & (t["n"] == t["lots"])].copy()
    t["discount"] = 1 - t["total"] / t["est"]
    return t


def _breakdown(rows: list[dict], key) -> list[dict]:  # noqa: ANN001
    groups: dict = defaultdict(lambda: [0, Decimal(0)])
    for r in rows:
        groups[key(r)][0] += 1
        groups[key(r)][1] += r["_value"]
    out = [(k, n, money(v)) for k, n, v in ((k, n, v) for k, (n, v) in groups.items())]
    out.sort(key=lambda x: (-x[2], x[0] is None, x[0] if x[0] is not None else 0))
    return out


def _share(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def profile(d: dict, items: list[dict], kind: str, party_id: str, period: str) -> dict:
    """One party's figures for a period ("all" or a year), as the profile serves them."""
    authority = kind == "authority"
    mine = [i for i in items if i[kind]["id"] == party_id and period in ("all", i["_year"])]
    body: dict = {"period": period, "contracts": len(mine), "value": money(sum((i["_value"] for i in mine), Decimal(0)))
                  if mine else None}
    if authority:
        te = d["te"][d["te"]["authority_id"] == party_id]
        te = te if period == "all" else te[te["year"] == period]
        body["tenders"] = len(te)
    known = [i for i in mine if i["bids"] is not None]
    body["singleBidShare"] = _share(sum(i["bids"] == 1 for i in known), len(known))
    body["lotsWithBids"] = len(known)
    if authority:
        t = tender_discounts(d)
        t = t[(t["authority_id"] == party_id) & ((t["year"] == period) if period != "all" else True)]
        discounts = list(t["discount"])
    else:
        discounts = [i["discount"] for i in mine if i["discount"] is not None]
    body["averageDiscount"] = float(np.mean(discounts)) if discounts else None
    body["discountTenders"] = len(discounts)
    placed = [i for i in mine if i["contractor"]["province"] is not None]
    body["localShare"] = _share(sum(i["contractor"]["province"] == i["authority"]["province"] for i in placed),
                                len(placed))
    body["localShareContracts"] = len(placed)
    other = "contractor" if authority else "authority"
    floats: dict = defaultdict(float)
    for i in mine:
        floats[i[other]["id"]] += float(i["_value"])
    total = sum(floats.values())
    if authority:
        body["hhi"] = sum((100 * v / total) ** 2 for v in floats.values()) if total > 0 else None
    parties = {i[other]["id"]: i[other] for i in mine}
    top = []
    for pid, n, v in _breakdown(mine, lambda i: i[other]["id"])[:10]:
        entry = {"id": pid, "name": parties[pid]["name"]}
        if not authority:
            entry["type"] = parties[pid]["type"]
        entry.update(province=parties[pid]["province"], contracts=n, value=v, share=_share(floats[pid], total))
        top.append(entry)
    body["topContractors" if authority else "topAuthorities"] = top
    body["sectors"] = [{"sector": k, "contracts": n, "value": v} for k, n, v in _breakdown(mine, lambda i: i["sector"])]
    place = (lambda i: i["contractor"]["province"]) if authority else (lambda i: i["authority"]["province"])
    body["provinces"] = [{"province": k, "contracts": n, "value": v} for k, n, v in _breakdown(mine, place)]
    body["flags"] = [{"flag": f, "contracts": sum(f in i["flags"] for i in mine)} for f in FLAG_ORDER]
    return body


def benchmark(d: dict, *, sector: int | None, procedure: str | None, province: int | None, period: str) -> dict:
    """One discount benchmark group (None: pooled)."""
    t = tender_discounts(d)
    if sector is not None:
        t = t[t["sector"].astype(int) == sector]
    if procedure is not None:
        t = t[t["procedure"] == procedure]
    if province is not None:
        t = t[t["province"] == province]
    if period != "all":
        t = t[t["year"] == period]
    values = t["discount"].to_numpy()
    figures: dict = {"n": len(values)}
    levels = {"p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9}
    for name, q in levels.items():
        figures[name] = float(np.quantile(values, q)) if len(values) >= 5 else None
    figures["mean"] = float(values.mean()) if len(values) >= 5 else None
    return figures
