"""An independent pandas/NumPy reading of procurement-statistics.md, to check the service's numbers."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd


def read_release(path: Path) -> dict[str, pd.DataFrame]:
    def read(name: str) -> pd.DataFrame:
        if path.is_dir():
            return pd.read_csv(path / name, dtype=str, keep_default_na=False)
        with zipfile.ZipFile(path) as zf, zf.open(name) as handle:
            return pd.read_csv(handle, dtype=str, keep_default_na=False)

    au, co, te, aw, dp = (read(f) for f in ("authorities.csv", "contractors.csv", "tenders.csv", "awards.csv",
                                            "direct_purchases.csv"))
    au["province"] = au["province"].astype(int)
    co["cprov"] = pd.to_numeric(co["province"].replace("", np.nan))
    te = te.merge(au[["authority_id", "province", "authority_type"]], on="authority_id")
    te["year"] = te["tender_date"].str[:4]
    te["lots"] = te["lots"].astype(int)
    te["est"] = pd.to_numeric(te["estimated_cost"].replace("", np.nan))
    aw = aw[aw["contractor_id"] != ""].copy()
    aw["value"] = aw["contract_value"].astype(float)
    aw["bids"] = pd.to_numeric(aw["bids"].replace("", np.nan))
    aw = aw.merge(te[["tender_id", "year", "province", "authority_type", "sector", "procedure", "lots", "authority_id"]],
                  on="tender_id").merge(co[["contractor_id", "cprov"]], on="contractor_id")
    dp = dp.merge(au[["authority_id", "province", "authority_type"]], on="authority_id")
    dp["year"] = dp["purchase_date"].str[:4]
    dp["amount"] = dp["amount"].astype(float)
    # Each tender's awarded total and number of awarded lots, over every award: read once, not per item.
    sums = aw.groupby("tender_id").agg(total=("value", "sum"), n=("value", "size"))
    return {"au": au, "co": co, "te": te, "aw": aw, "dp": dp, "sums": sums}


COLUMN = {"province": "province", "sector": "sector", "procedure": "procedure", "authority-type": "authority_type"}


def subset(d: dict, name: str, dimension: str, subject: str | None, period: str) -> pd.DataFrame:
    """The rows of d[name] for one subject (its column read as text) and one year, or every year.

    The frame is split once per dimension, every subject and year at a time, and the parts kept in
    `d`: the index test asks for thousands of subsets of the same few frames."""
    frame = d[name]
    parts = d.setdefault("parts", {})
    if (name, dimension) not in parts:
        keys = [frame[COLUMN[dimension]].astype(str)] if dimension != "overall" else []
        split: dict = {}
        for key, rows in frame.groupby([*keys, frame["year"]], sort=False).indices.items():
            split[key if keys else (key[0] if isinstance(key, tuple) else key)] = rows
        if keys:
            for key, rows in frame.groupby(keys[0], sort=False).indices.items():
                split[(key, "all")] = rows
        parts[(name, dimension)] = split
    split = parts[(name, dimension)]
    key = period if dimension == "overall" else (str(subject), period)
    if dimension == "overall" and period == "all":
        return frame
    return frame.iloc[split.get(key, [])]


def none_if_nan(x):  # noqa: ANN001
    return None if x is None or (isinstance(x, float) and np.isnan(x)) else float(x)


def competition(d, dimension, subject, period):  # noqa: ANN001
    te, aw = subset(d, "te", dimension, subject, period), subset(d, "aw", dimension, subject, period)
    known = aw[aw["bids"].notna()]
    known1 = known[known["lots"] == 1]
    t = te.merge(d["sums"], left_on="tender_id", right_index=True, how="left")
    t = t[(t["est"] > 0) & (t["n"] == t["lots"])]
    return {
        "tenders": len(te),
        "singleBidShare": (known["bids"] == 1).mean() if len(known) else None,
        "singleBidShareSingleLot": (known1["bids"] == 1).mean() if len(known1) else None,
        "lotsWithBids": len(known),
        "averageLots": te["lots"].mean() if len(te) else None,
        "averageDiscount": (1 - t["total"] / t["est"]).mean() if len(t) else None,
    }


def concentration(d, dimension, subject, period):  # noqa: ANN001
    aw = subset(d, "aw", dimension, subject, period)
    if not len(aw):
        return {"contracts": 0, "firms": 0, "cr1": None, "cr4": None, "cr10": None, "hhi": None}
    v = aw.groupby("contractor_id")["value"].sum().sort_values(ascending=False).to_numpy()
    total = v.sum()
    return {"contracts": len(aw), "firms": len(v), "cr1": v[:1].sum() / total, "cr4": v[:4].sum() / total,
            "cr10": v[:10].sum() / total, "hhi": float(((100 * v / total) ** 2).sum())}


def direct(d, dimension, subject, period):  # noqa: ANN001
    a = subset(d, "dp", dimension, subject, period)["amount"].to_numpy()
    if not len(a):
        return {"purchases": 0, **dict.fromkeys(["median", "mean", "total", "p95", "p99", "max", "largestShare"])}
    return {"purchases": len(a), "median": np.quantile(a, 0.5), "mean": a.mean(), "total": a.sum(),
            "p95": np.quantile(a, 0.95), "p99": np.quantile(a, 0.99), "max": a.max(), "largestShare": a.max() / a.sum()}


def localization(d, dimension, subject, period):  # noqa: ANN001
    aw = subset(d, "aw", dimension, subject, period)
    aw = aw[aw["cprov"].notna()]
    if not len(aw):
        return {"contracts": 0, "localShareCount": None, "localShareValue": None}
    local = aw["cprov"] == aw["province"]
    return {"contracts": len(aw), "localShareCount": local.mean(), "localShareValue": aw.loc[local, "value"].sum() / aw["value"].sum()}


INDEX = {"competition-indices": competition, "concentration-indices": concentration,
         "direct-procurement-indices": direct, "localization-indices": localization}
