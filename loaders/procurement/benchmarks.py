"""Discount benchmarks: the distribution of the tender discount (competition's `averageDiscount`
population) per sector, procedure, province and year, each dimension either one value or pooled,
computed in DuckDB with CUBE at load time (docs/awards-and-flags.md, "Discount benchmarks")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import duckdb

from loaders.procurement.compute import TENDER_DISCOUNTS

# A group resting on fewer tenders gives its n and nothing else.
MIN_TENDERS = 5
QUANTILES = (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9))
POOLED = ""  # the stored key of a pooled dimension


def benchmark_rows(con: duckdb.DuckDBPyConnection) -> Iterator[dict[str, Any]]:
    """One row per group with at least one tender: its keys (pooled as "", the year as text or
    "all") and n, the quantiles (linear interpolation, NumPy's default) and the mean."""
    levels = "[" + ", ".join(str(q) for _, q in QUANTILES) + "]"
    cursor = con.execute(f"""
        SELECT
            CASE WHEN GROUPING(sector) = 1 THEN '' ELSE CAST(sector AS VARCHAR) END AS sector,
            CASE WHEN GROUPING(procedure) = 1 THEN '' ELSE procedure END AS procedure,
            CASE WHEN GROUPING(province) = 1 THEN '' ELSE CAST(province AS VARCHAR) END AS province,
            CASE WHEN GROUPING(yr) = 1 THEN 'all' ELSE CAST(yr AS VARCHAR) END AS period,
            count(*) AS n, quantile_cont(discount, {levels}) AS q, avg(discount) AS mean
        FROM ({TENDER_DISCOUNTS}) GROUP BY CUBE (sector, procedure, province, yr)
        ORDER BY period, sector, procedure, province
    """)
    while rows := cursor.fetchmany(5000):
        for sector, procedure, province, period, n, q, mean in rows:
            row = {"period": period, "sector": sector, "procedure": procedure, "province": province, "n": int(n)}
            enough = n >= MIN_TENDERS
            for (name, _), value in zip(QUANTILES, q, strict=True):
                row[name] = float(value) if enough else None
            row["mean"] = float(mean) if enough else None
            yield row
