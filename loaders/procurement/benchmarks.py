"""Discount benchmarks: the distribution of the tender discount (competition's `averageDiscount`
population) per sector, procedure, province and year, each dimension either one value or pooled,
computed in DuckDB with CUBE at load time (docs/awards-and-flags.md, "Discount benchmarks")."""

from __future__ import annotations

import duckdb

from loaders.procurement.awards import Rows, fetched
from loaders.procurement.compute import TENDER_DISCOUNTS

# A group resting on fewer tenders gives its n and nothing else.
MIN_TENDERS = 5
QUANTILES = (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9))


def benchmark_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """One row per group with at least one tender: its keys (pooled as "", the year as text or
    "all") and n, the quantiles (linear interpolation, NumPy's default) and the mean, all null but
    n in a group of fewer than MIN_TENDERS."""
    levels = "[" + ", ".join(str(q) for _, q in QUANTILES) + "]"
    figures = ", ".join(f"CASE WHEN n >= {MIN_TENDERS} THEN q[{i}] END AS {name}"
                        for i, (name, _) in enumerate(QUANTILES, 1))
    return fetched(con, f"""
        SELECT period, sector, procedure, province, n, {figures}, CASE WHEN n >= {MIN_TENDERS} THEN mean END AS mean
        FROM (
            SELECT
                CASE WHEN GROUPING(yr) = 1 THEN 'all' ELSE CAST(yr AS VARCHAR) END AS period,
                CASE WHEN GROUPING(sector) = 1 THEN '' ELSE CAST(sector AS VARCHAR) END AS sector,
                CASE WHEN GROUPING(procedure) = 1 THEN '' ELSE procedure END AS procedure,
                CASE WHEN GROUPING(province) = 1 THEN '' ELSE CAST(province AS VARCHAR) END AS province,
                CAST(count(*) AS INTEGER) AS n, quantile_cont(discount, {levels}) AS q, avg(discount) AS mean
            FROM ({TENDER_DISCOUNTS}) GROUP BY CUBE (sector, procedure, province, yr)
        ) ORDER BY period, sector, procedure, province
    """)
