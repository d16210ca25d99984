"""The shipped consumer price index and amounts in real terms."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dashboard.prices import in_prices_of, real_factor
from store.reference.prices import covers_through, december_cpi, published_changes, source


def test_the_index_reproduces_the_published_changes():
    # Each December index must give TÜİK's published December-on-December change to two decimals:
    # a mistyped level breaks two of these at once.
    index, changes = december_cpi(), published_changes()
    for year in sorted(index)[1:]:
        assert round((index[year] / index[year - 1] - 1) * 100, 2) == changes[year], year


def test_the_index_covers_every_year_since_the_releases_begin():
    # Through December 2025: the only complete year of direct procurement is 2025.
    assert set(range(2019, 2026)) <= set(december_cpi())
    assert covers_through() == f"{max(december_cpi())}-12"


def test_a_level_computed_from_the_change_is_said_in_the_source(tmp_path, monkeypatch):
    """The file's header and `level_basis` say which levels are TÜİK's published ones: the API's source names
    every December computed from the change instead, and none when all are published."""
    import store.reference.prices as prices

    assert "December 2025 computed" in source()
    (tmp_path / "cpi_tr.csv").write_text("# a header line\nyear,december_index,december_change_percent,level_basis\n"
                                         "2024,2684.55,44.38,published\n", encoding="utf-8")
    monkeypatch.setattr(prices, "DATA_DIR", tmp_path)
    prices._rows.cache_clear()
    try:
        assert source() == prices.SOURCE and december_cpi() == {2024: 2684.55}
    finally:
        monkeypatch.undo()
        prices._rows.cache_clear()


def test_an_amount_of_2019_in_2024_prices():
    assert real_factor(december_cpi(), 2019, 2024) == pytest.approx(2684.55 / 440.50)
    assert real_factor(december_cpi(), "2024", 2024) == 1.0


def test_years_outside_the_index_have_no_real_value():
    assert real_factor(december_cpi(), 2031, 2024) is None
    assert real_factor(december_cpi(), "all", 2024) is None
    frame = pd.DataFrame({"period": ["2023", "2031", "all"], "total": [100.0, 100.0, 100.0]})
    shown = in_prices_of(frame, ["total"], december_cpi(), 2024)
    assert shown["total"].iloc[0] == pytest.approx(100 * 2684.55 / 1859.38)
    assert shown["total"].iloc[1:].isna().all()
    assert frame["total"].tolist() == [100.0, 100.0, 100.0]  # the input is left alone


@given(amount=st.floats(0, 1e15), year=st.sampled_from(sorted(december_cpi())),
       base=st.sampled_from(sorted(december_cpi())))
def test_changing_the_base_year_and_back_gives_the_amount(amount, year, base):
    there = amount * real_factor(december_cpi(), year, base)
    assert math.isclose(there * real_factor(december_cpi(), base, year), amount, rel_tol=1e-12, abs_tol=1e-9)
