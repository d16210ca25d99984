"""Türkiye's consumer price index, for showing amounts in real terms.

Source: TÜİK (Turkish Statistical Institute), Consumer Price Index (2003=100), the December index
of each year as published in TÜİK's monthly CPI bulletin (Tüketici Fiyat Endeksi, Aralık; table
"Tüketici fiyat endeksi ve değişim oranları"); the same series is TP.FG.J0 in the central bank's
EVDS. `december_change_percent` is TÜİK's published change on the December before, kept beside
the index so that the file checks itself (tests/test_prices.py).

The December index is the price level at the end of each year: an amount of year Y is expressed in
the prices of the end of base year B as amount × CPI(B) / CPI(Y). Years the file does not cover
yet (a December index is published in the January after) have no real-terms value; to extend the
series, add a row from the next December bulletin.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from functools import cache

import pandas as pd

from loaders.reference.lists import DATA_DIR

SOURCE = ("TÜİK, Tüketici Fiyat Endeksi (2003=100), December index of each year "
          "(EVDS series TP.FG.J0)")


@cache
def _column(name: str) -> dict[int, float]:
    with open(DATA_DIR / "cpi_tr.csv", encoding="utf-8", newline="") as handle:
        return {int(row["year"]): float(row[name]) for row in csv.DictReader(handle)}


def december_cpi() -> dict[int, float]:
    """Year -> December CPI (2003=100)."""
    return _column("december_index")


def published_changes() -> dict[int, float]:
    """Year -> TÜİK's published December-on-December change, in percent."""
    return _column("december_change_percent")


def real_factor(year: int | str, base_year: int) -> float | None:
    """What an amount of `year` is multiplied by to be in `base_year`'s prices; None where the
    index does not cover either year (or `year` is not a year, such as `all`)."""
    index = december_cpi()
    try:
        year = int(year)
    except (TypeError, ValueError):
        return None
    if year not in index or base_year not in index:
        return None
    return index[base_year] / index[year]


def in_prices_of(frame: pd.DataFrame, columns: list[str], base_year: int, *, year_column: str = "period") -> pd.DataFrame:
    """A copy of `frame` with `columns` in `base_year`'s prices; rows whose year the index does not
    cover (or that span every year, such as `all`) get no value rather than a nominal one."""
    factors = frame[year_column].map(lambda year: real_factor(year, base_year)).astype("float64")
    out = frame.copy()
    for column in columns:
        out[column] = pd.to_numeric(out[column], errors="coerce") * factors
    return out


def uncovered_years(periods: Iterable[str], base_year: int) -> list[str]:
    """The years among `periods` that have no value in `base_year`'s prices (`all` is not a year)."""
    return sorted({p for p in periods if p != "all" and real_factor(p, base_year) is None})
