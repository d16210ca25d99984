"""The pure parts of the profiles and the awards explorer: counts written with the figures they carry,
dates, the label catalogue, award rows and the two new figures (no Streamlit run, no server)."""

from __future__ import annotations

import pytest

from dashboard import i18n, party_charts
from dashboard.data import AWARD_COLUMNS, award_rows
from dashboard.formats import FEW_CASES, counted, date_text, too_few
from dashboard.i18n_parties import PARTY_FIELDS, PARTY_LABELS

AWARD = {"tenderId": "2024/000064", "tenderDate": "2024-10-23", "lot": 1, "lots": 1, "procedure": "open",
         "sector": 24, "authority": {"id": "A000034", "name": "Kurum 34", "type": "ministry", "province": 26},
         "contractor": {"id": "F0000262", "name": "=Firma 262", "province": None}, "estimatedCost": 100.0,
         "contractValue": 59.5, "bids": 3, "discount": 0.405, "flags": ["single-bid", "winner-share"]}


@pytest.mark.parametrize(("value", "count", "unit", "how", "kind", "tr", "en"), [
    (0.25, 74, "lots", "of", "share", "%25,0 (74 kısım üzerinden)", "25.0% of 74 lots"),
    (0.5, 1, "lots", "of", "share", "%50,0 (1 kısım üzerinden)", "50.0% of 1 lot"),
    (0.195, 1234, "tenders", "over", "share", "%19,5 (1.234 ihale üzerinden)", "19.5% over 1,234 tenders"),
    (1723.4, 106, "contracts", "on", "number", "106 sözleşme üzerinden", "rests on 106 contracts"),
    (None, 0, "lots", "of", "share", "Dayanak yok (0 kısım)", "Nothing to rest on (0 lots)"),
])
def test_counted_writes_a_figure_with_the_count_it_rests_on(value, count, unit, how, kind, tr, en):
    assert counted(value, count, unit, "tr", how=how, kind=kind) == tr
    assert counted(value, count, unit, "en", how=how, kind=kind) == en


def test_too_few_is_one_to_four_cases():
    assert [too_few(n) for n in (0, 1, FEW_CASES - 1, FEW_CASES, 74, None)] == [False, True, True, False, False,
                                                                              False]


def test_date_text_in_each_language():
    assert date_text("2024-10-23", "tr") == "23.10.2024" and date_text("2024-10-23", "en") == "23 Oct 2024"
    assert date_text(None, "en") == "–"


def test_party_labels_join_the_one_catalogue_without_replacing_a_label():
    assert not set(PARTY_LABELS) & set(i18n.LABELS.keys() - PARTY_LABELS.keys())
    assert i18n.text("awards", "tr") == "Sözleşmeler" and i18n.field_text("tenderId", "en") == "İKN"
    assert {"estimatedCost", "contractValue"} <= i18n.MONEY_FIELDS and "discount" in i18n.SHARE_FIELDS
    # A field of the new pages never renames one the other pages head already.
    before = {k for k in i18n.FIELDS if k not in PARTY_FIELDS}
    assert before.isdisjoint(PARTY_FIELDS)


def test_every_new_label_has_two_different_sides_or_a_name_both_share():
    same = {k for k, (tr, en) in PARTY_LABELS.items() if tr == en}
    assert same == {"benchmark_title"}  # a pattern of names only
    assert all(tr and en for tr, en in PARTY_LABELS.values())


def test_award_rows_flatten_the_parties_and_join_the_flags():
    frame = award_rows([AWARD, {**AWARD, "lot": 2, "flags": []}])
    assert list(frame.columns) == AWARD_COLUMNS
    first = frame.iloc[0]
    assert first["authority.name"] == "Kurum 34" and first["contractor.id"] == "F0000262"
    assert first["flags"] == "single-bid,winner-share" and frame.iloc[1]["flags"] == ""
    assert frame["tenderName"].isna().all()  # a release without names still has the column
    assert award_rows([]).empty and list(award_rows([]).columns) == AWARD_COLUMNS


def test_value_by_year_shades_and_hatches_partial_years_and_hovers_the_count():
    import pandas as pd

    frame = pd.DataFrame({"period": ["2023", "2024", "2025"], "contracts": [5, 16, 3],
                          "value": [19_575_994.75, 41_039_537.87, None]})
    figure = party_charts.value_by_year_figure(frame, title="x", lang="tr", complete=(2019, 2024))
    bars = figure.data[0]
    assert list(bars.x) == [2023, 2024, 2025]
    assert list(bars.marker.pattern.shape) == ["", "", "/"]
    assert "Sözleşme: 16" in bars.text[1] and "41.039.537,87 ₺" in bars.text[1] and "kısmi yıl" in bars.text[2]
    assert [t.name for t in figure.data[1:]] == ["Kısmi yıl: kaynakta eksik, tam yıllarla karşılaştırılamaz"]
    assert len(figure.layout.shapes) == 1 and figure.layout.separators == ",."
    whole = party_charts.value_by_year_figure(frame, title="x", lang="en", complete=(2019, 2025))
    assert len(whole.data) == 1 and not whole.layout.shapes


GROUP = {"n": 6, "p10": 0.13, "p25": 0.18, "median": 0.27, "p75": 0.37, "p90": 0.39, "mean": 0.27}


def test_benchmark_figure_draws_the_spread_and_marks_the_award():
    figure = party_charts.benchmark_figure(GROUP, discount=0.405, title="t", lang="en")
    names = [t.name for t in figure.data]
    assert names == ["10th–90th percentile", "25th–75th percentile", "Median", "Mean", "This award"]
    assert list(figure.data[0].x) == [0.13, 0.39] and list(figure.data[1].x) == [0.18, 0.37]
    assert figure.data[-1].x == (0.405,) and figure.data[-1].text == ("This award: 40.5%",)
    low, high = figure.layout.xaxis.range
    assert low < 0 < 0.405 < high  # zero and the award both in view
    turkish = party_charts.benchmark_figure(GROUP, discount=-0.05, title="t", lang="tr")
    assert turkish.data[-1].text == ("Bu sözleşme: -%5,0",) and turkish.layout.xaxis.range[0] < -0.05


def test_benchmark_figure_without_figures_draws_the_award_alone_or_nothing():
    few = {"n": 3, "p10": None, "p25": None, "median": None, "p75": None, "p90": None, "mean": None}
    assert [t.name for t in party_charts.benchmark_figure(few, discount=0.1, title="t", lang="en").data] == [
        "This award"]
    assert party_charts.benchmark_figure(GROUP, discount=None, title="t", lang="en").data[-1].name == "Mean"
    assert not party_charts.benchmark_figure(None, discount=None, title="t", lang="en").data
