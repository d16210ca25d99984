"""Türkiye's consumer price index, for showing amounts in real terms.

Source: TÜİK (Turkish Statistical Institute), Consumer Price Index (2003=100), the December index
of each year as published in TÜİK's monthly CPI bulletin (Tüketici Fiyat Endeksi, Aralık; table
"Tüketici fiyat endeksi ve değişim oranları"); the same series is TP.FG.J0 in the central bank's
EVDS. `december_change_percent` is TÜİK's published change on the December before, kept beside
the index so that the file checks itself (tests/store/test_prices.py).

The December index is the price level at the end of each year: an amount of year Y is expressed in
the prices of the end of base year B as amount × CPI(B) / CPI(Y). Years the file does not cover
yet (a December index is published in the January after) have no real-terms value; to extend the
series, add a row from the next December bulletin. The API serves the series at
`/v1/public-procurement/price-index`, and the dashboard deflates with what it serves.
"""

from __future__ import annotations

import csv
from functools import cache

from store.reference.lists import DATA_DIR

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
