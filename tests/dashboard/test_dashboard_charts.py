"""What a chart says about its axes: a logarithmic axis is named, and a trend axis that does not start at zero
says so, in the reader's language."""

from __future__ import annotations

import pandas as pd
import pytest

from dashboard import charts

YEARS = pd.DataFrame({"period": ["2019", "2020", "2021", "all"], "share": [0.31, 0.33, 0.35, 0.33],
                      "median": [1e4, 2e4, 5e4, 2e4], "p99": [1e6, 3e6, 9e6, 3e6]})


@pytest.mark.parametrize(("lang", "words"), [("tr", "Dikey eksen logaritmik"), ("en", "Logarithmic vertical axis")])
def test_a_logarithmic_axis_is_named(lang, words):
    figure = charts.distribution_figure(YEARS, names={"median": "Median", "p99": "p99"}, title="Amount", lang=lang)
    assert figure.layout.yaxis.type == "log"
    assert words in figure.layout.title.text
    assert figure.layout.yaxis.title.text == {"tr": "Logaritmik eksen", "en": "Logarithmic axis"}[lang]


@pytest.mark.parametrize(("lang", "words"), [("tr", "sıfırdan başlamıyor"), ("en", "does not start at zero")])
def test_a_trend_axis_not_starting_at_zero_says_so(lang, words):
    figure = charts.line_by_year_figure(YEARS, y="share", title="Share", lang=lang, kind="share")
    assert min(figure.layout.yaxis.tickvals) > 0 and words in figure.layout.title.text


def test_a_trend_axis_reaching_zero_says_nothing_of_it():
    frame = YEARS.assign(share=[0.0, 0.2, 0.4, 0.2])
    figure = charts.line_by_year_figure(frame, y="share", title="Share", lang="en", kind="share")
    assert min(figure.layout.yaxis.tickvals) <= 0 and figure.layout.title.text == "Share"


def test_starts_at_zero():
    assert charts.starts_at_zero([0, 1, 2]) and charts.starts_at_zero([-2, -1, 0]) and charts.starts_at_zero([])
    assert not charts.starts_at_zero([0.3, 0.4]) and not charts.starts_at_zero([-5, -3])
