"""Türkiye's consumer price index, for showing amounts in real terms.

Source: TÜİK (Turkish Statistical Institute), Consumer Price Index (2003=100), the December index
of each year as published in TÜİK's monthly CPI bulletin (Tüketici Fiyat Endeksi, Aralık; table
"Tüketici fiyat endeksi ve değişim oranları"); the same series is TP.FG.J0 in the central bank's
EVDS. `december_change_percent` is TÜİK's published change on the December before, kept beside
the index so that the file checks itself (tests/store/test_prices.py).

The December index is the price level at the end of each year: an amount of year Y is expressed in
the prices of the end of base year B as amount × CPI(B) / CPI(Y). Years the file does not cover
yet (a December index is published in the January after) have no real-terms value; to extend the
series, add a row from the next December bulletin to `data/cpi_tr.csv` (its header says how): the API
(`/v1/public-procurement/price-index`, with `coversThrough`) and the dashboard follow the file.
"""

from __future__ import annotations

import csv
from functools import cache

from store.reference.lists import DATA_DIR

SOURCE = ("TÜİK, Tüketici Fiyat Endeksi (2003=100), December index of each year "
          "(EVDS series TP.FG.J0)")


@cache
def _rows() -> tuple[dict[str, str], ...]:
    """The file's rows; its header lines (`#`) say where each figure comes from."""
    with open(DATA_DIR / "cpi_tr.csv", encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(line for line in handle if not line.startswith("#")))


def _column(name: str) -> dict[int, float]:
    return {int(row["year"]): float(row[name]) for row in _rows()}


def december_cpi() -> dict[int, float]:
    """Year -> December CPI (2003=100)."""
    return _column("december_index")


def published_changes() -> dict[int, float]:
    """Year -> TÜİK's published December-on-December change, in percent."""
    return _column("december_change_percent")


def covers_through() -> str:
    """The last month the index covers (`2025-12`): December of its last year."""
    return f"{max(december_cpi())}-12"


def source() -> str:
    """The series, and which December levels were computed from TÜİK's published change rather than
    copied as published (data/cpi_tr.csv's `level_basis`)."""
    computed = [row["year"] for row in _rows() if row["level_basis"] == "change"]
    if not computed:
        return SOURCE
    return (f"{SOURCE}; December {', '.join(computed)} computed from the December before and TÜİK's "
            "published December-on-December change")
