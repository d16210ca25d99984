"""Amounts in real terms, from the price index the API serves (`/price-index`): display arithmetic
only, no statistics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd


def real_factor(index: Mapping[int, float], year: int | str, base_year: int) -> float | None:
    """What an amount of `year` is multiplied by to be in `base_year`'s prices; None where the
    index does not cover either year (or `year` is not a year, such as `all`)."""
    try:
        year = int(year)
    except (TypeError, ValueError):
        return None
    if year not in index or base_year not in index:
        return None
    return index[base_year] / index[year]


def in_prices_of(frame: pd.DataFrame, columns: list[str], index: Mapping[int, float], base_year: int, *,
                 year_column: str = "period") -> pd.DataFrame:
    """A copy of `frame` with `columns` in `base_year`'s prices; rows whose year the index does not
    cover (or that span every year, such as `all`) get no value rather than a nominal one."""
    factors = frame[year_column].map(lambda year: real_factor(index, year, base_year)).astype("float64")
    out = frame.copy()
    for column in columns:
        out[column] = pd.to_numeric(out[column], errors="coerce") * factors
    return out


def uncovered_years(periods: Iterable[str], index: Mapping[int, float], base_year: int) -> list[str]:
    """The years among `periods` that have no value in `base_year`'s prices (`all` is not a year)."""
    return sorted({p for p in periods if p != "all" and real_factor(index, p, base_year) is None})
