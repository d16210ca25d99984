"""The dashboard's pure parts: numbers and times in each language, complete years, the CSV guard
(no Streamlit, no server)."""

from __future__ import annotations

import pandas as pd
import pytest

from dashboard import years
from dashboard.formats import (
    local_time,
    money,
    nice_ticks,
    number,
    points,
    share,
    short_money,
    spreadsheet_safe,
    tick_label,
)

SPANS = {"completeYears": {"competition": {"from": 2019, "to": 2024}, "direct": {"from": 2025, "to": 2025}}}


@pytest.mark.parametrize(("value", "tr", "en"), [
    (1234567.891, "1.234.567,89 ₺", "TRY 1,234,567.89"),
    (0, "0,00 ₺", "TRY 0.00"),
    (-5.5, "-5,50 ₺", "TRY -5.50"),
    (None, "–", "–"),
    (float("nan"), "–", "–"),
])
def test_money_in_each_readers_conventions(value, tr, en):
    assert money(value, "tr") == tr and money(value, "en") == en


@pytest.mark.parametrize(("value", "tr", "en"), [
    (1_234_567_890, "1,23 milyar ₺", "TRY 1.23 billion"),
    (526_000_000, "526 milyon ₺", "TRY 526 million"),
    (12_500_000, "12,5 milyon ₺", "TRY 12.5 million"),
    (845_000, "845.000 ₺", "TRY 845,000"),
    (2e12, "2 trilyon ₺", "TRY 2 trillion"),
])
def test_large_amounts_shortened_in_words(value, tr, en):
    assert short_money(value, "tr") == tr and short_money(value, "en") == en


def test_shares_counts_and_changes_in_each_language():
    assert share(0.2346, "tr") == "%23,5" and share(0.2346, "en") == "23.5%"
    assert share(1, "en") == "100.0%"
    # A negative share (the discount of an award above its estimate) has its sign before the percent sign.
    assert share(-0.077, "tr") == "-%7,7" and share(-0.077, "en") == "-7.7%"
    assert tick_label(-0.05, "tr", "share") == "-%5" and tick_label(-0.05, "en", "share") == "-5%"
    assert number(1234567, "tr") == "1.234.567" and number(1234567, "en") == "1,234,567"
    assert points(-0.024, "tr") == "-2,4 puan" and points(0.024, "en") == "+2.4 pp"


def test_axis_labels_are_short_and_in_the_readers_language():
    assert tick_label(2e9, "tr", "money") == "2 milyar ₺" and tick_label(2.5e8, "en", "money") == "TRY 250 million"
    assert tick_label(0.045, "tr", "share") == "%4,5" and tick_label(0.5, "en", "share") == "50%"
    assert nice_ticks(0.12, 0.45) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    assert nice_ticks(0.2, 0.35, zero=False)[0] >= 0.15


def test_times_are_shown_in_turkiyes_time():
    # A gazette issue of 16 September, stored as its UTC instant, is not shown as 15 September 21:00.
    assert local_time("2026-09-15T21:00:00Z", "tr") == "16.09.2026 00:00"
    assert local_time("2026-09-15T21:00:00Z", "en") == "16 Sep 2026, 00:00"
    assert local_time("2026-01-15T21:30:00+00:00", "en", with_time=False) == "16 Jan 2026"
    assert local_time(None, "tr") == "–"


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted():
    frame = pd.DataFrame({"name": ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "Acme", None],
                          "amount": [-5.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    safe = spreadsheet_safe(frame)
    assert safe["name"].tolist()[:6] == ["'=HYPERLINK(\"http://x\")", "'+1+1", "'-2+3", "'@SUM(A1)", "'\tx", "Acme"]
    assert safe["amount"].tolist()[0] == -5.0  # a negative number is a number, not a formula
    assert frame["name"].iloc[0].startswith("=")  # the caller's frame is left alone
    assert spreadsheet_safe(pd.DataFrame({"=cmd": [1]})).columns.tolist() == ["'=cmd"]


def _overall(values: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame({"period": list(values), "tenders": list(values.values())})


def test_headline_uses_the_latest_complete_year_and_compares_complete_years_only():
    span = years.complete_span(SPANS, "competition-indices")
    figure = years.headline(_overall({"2023": 1003, "2024": 1005, "2025": 989, "2026": 910, "all": 8000}), "tenders",
                            span)
    assert (figure.year, figure.value, figure.delta, figure.before) == ("2024", 1005, 2, "2023")


def test_headline_shows_no_change_across_a_partial_year():
    span = years.complete_span(SPANS, "direct-procurement-indices")
    figure = years.headline(_overall({"2024": 100.0, "2025": 150.0, "2026": 20.0}), "tenders", span)
    assert (figure.year, figure.value, figure.delta) == ("2025", 150.0, None)
    # No complete year has a figure: the latest year that has one, marked partial, with no change.
    figure = years.headline(_overall({"2025": 1.0, "2026": 2.0}), "tenders", (2019, 2024))
    assert (figure.year, figure.value, figure.delta, figure.partial) == ("2026", 2.0, None, True)


def test_headlines_and_maps_open_on_years_the_release_holds_records_of():
    """An import of 2025-2026 records against complete years 2019-2024: the complete years hold zeros."""
    release = {"completeYears": {"competition": {"from": 2019, "to": 2024}, "direct": {"from": 2025, "to": 2025}},
               "coverage": {"years": [{"year": 2025, "tenders": 40, "lots": 50, "awardedLots": 45, "purchases": 0},
                                      {"year": 2026, "tenders": 9, "lots": 9, "awardedLots": 9, "purchases": 0}]}}
    span = years.complete_span(release, "competition-indices")
    held = years.years_with_data(release, "competition-indices")
    figure = years.headline(_overall({"2023": 0, "2024": 0, "2025": 40, "2026": 9}), "tenders", span, held)
    assert (figure.year, figure.value, figure.partial) == ("2026", 9, True)
    periods = [str(y) for y in range(2019, 2027)]
    assert years.default_year(periods, span, held) == "2026"
    assert years.emptiness(release, "competition-indices", "2024") == years.Emptiness("empty_year_tenders", "2024")
    assert years.emptiness(release, "competition-indices", "2025") is None
    assert years.emptiness(release, "direct-procurement-indices") == years.Emptiness("empty_release_purchases")
    assert years.emptiness({"completeYears": {}}, "direct-procurement-indices") is None  # coverage not reported


def test_default_map_year_is_the_latest_complete_one():
    periods = [str(y) for y in range(2019, 2027)]
    assert years.default_year(periods, (2019, 2024)) == "2024"
    assert years.default_year(periods, (2025, 2025)) == "2025"
    assert years.partial_years(periods + ["all"], (2025, 2025)) == ["2019", "2020", "2021", "2022", "2023", "2024",
                                                                   "2026"]


def test_text_from_data_never_becomes_a_link_an_image_or_an_address():
    """GitHub-flavoured Markdown links bare addresses even when their punctuation is escaped."""
    import re

    from dashboard.ui import literal

    shown = literal("See https://evil.example/x, www.evil.example and owner@evil.example ![i](http://x/i.png)")
    plain = shown.replace("\\", "")
    assert not re.search(r"(https?://|www\.|\w@)", plain)
    assert "![" not in shown and plain.replace("\u2060", "") == (
        "See https://evil.example/x, www.evil.example and owner@evil.example ![i](http://x/i.png)")


def test_the_sources_complete_years_are_said_beside_what_the_release_holds():
    """An imported release of 2026 alone: the source's complete years (2019–2024) and the years the release
    holds no record of are said side by side, so that the one is not read for the other."""
    from dashboard.years import coverage_text

    none = {"tenders": 0, "lots": 0, "awardedLots": 0, "purchases": 0}
    release = {"completeYears": {"competition": {"from": 2019, "to": 2024}},
               "coverage": {"years": [{"year": y, **none} for y in range(2019, 2026)]
                            + [{"year": 2026, "tenders": 61, "lots": 70, "awardedLots": 12, "purchases": 0}]}}
    assert coverage_text(release) == {"complete": "2019–2024", "held": "2026",
                                      "missing": "2019, 2020, 2021, 2022, 2023, 2024, 2025"}
    assert coverage_text({**release, "coverage": None}) is None
