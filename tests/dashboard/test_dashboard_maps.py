"""The dashboard's figures: partial years marked on the charts, the provinces drawn as a map from the
boundaries on plain axes (no geo subplot, nothing fetched), flows between provinces."""

from __future__ import annotations

import json

import pandas as pd

from dashboard import charts
from tests.helpers import ROOT

BOUNDARIES = ROOT / "store" / "reference" / "data" / "tr-provinces.geojson"


def test_line_chart_marks_partial_years_in_the_legend_and_dashed():
    frame = pd.DataFrame({"period": ["2023", "2024", "2025", "all"], "share": [0.2, 0.3, 0.25, 0.26]})
    figure = charts.line_by_year_figure(frame, y="share", title="x", lang="en", kind="share", complete=(2019, 2024))
    legend = [t for t in figure.data if t.showlegend is not False and t.name]
    assert [t.name for t in legend] == ["Partial year: incomplete in the source, not comparable with full years"]
    dashed = [t for t in figure.data if t.line.dash == "dash" and t.x is not None and None not in t.x]
    assert list(dashed[0].x) == [2023, 2024, 2025] and list(dashed[0].marker.symbol)[-1] == "circle-open"
    solid = [t for t in figure.data if t.line.dash is None and t.x is not None and None not in t.x]
    assert list(solid[0].x) == [2023, 2024]  # the solid line stops at the last complete year
    assert len(figure.layout.shapes) == 1 and figure.layout.shapes[0].x0 == 2024.5  # 2025 shaded
    complete = charts.line_by_year_figure(frame, y="share", title="x", lang="en", kind="share", complete=(2019, 2025))
    assert not complete.layout.shapes and not complete.layout.showlegend


def _boundaries() -> dict:
    return json.loads(BOUNDARIES.read_text(encoding="utf-8"))


def test_choropleth_draws_81_provinces_and_no_data_as_no_data():
    paths = charts.province_paths(_boundaries())
    frame = pd.DataFrame({"subject": [34, 6, 35], "singleBidShare": [0.4, 0.1, None], "lotsWithBids": [120, 80, 3]})
    figure = charts.choropleth_figure(frame, paths, value="singleBidShare", denominator="lotsWithBids", title="t",
                                      lang="tr", kind="share", unit="%")
    provinces = [t for t in figure.data if t.fill == "toself"]
    assert len(provinces) == 81
    by_name = {t.text.split("<br>")[0]: t for t in provinces}
    istanbul, izmir = by_name["<b>İstanbul</b>"], by_name["<b>İzmir</b>"]
    assert "Tek teklifli pay: %40,0" in istanbul.text and "Teklif alan kısım: 120" in istanbul.text
    assert izmir.text.endswith("Veri yok") and izmir.fillpattern.shape == "/"  # a null value is not 0
    missing = [t for t in provinces if t.text.endswith("Veri yok")]
    assert len(missing) == 79 and sum(bool(t.showlegend) for t in missing) == 1
    bar = next(t for t in figure.data if t.marker.showscale)
    assert bar.marker.colorbar.title.text == "%" and "%40" in bar.marker.colorbar.ticktext
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.separators == ",."
    assert "geo" not in figure.layout.to_plotly_json()  # no geo subplot: it would fetch a base map from a CDN


def test_flow_map_draws_outlines_arcs_within_province_flows_and_the_selected_province():
    paths = charts.province_paths(_boundaries())
    points = pd.DataFrame({"province": [6, 35], "provinceName": ["Ankara", "İzmir"], "lat": [39.9, 38.4],
                           "lon": [32.8, 27.1]})
    flows = pd.DataFrame({"buyerProvince": [6, 6], "buyerProvinceName": ["Ankara", "Ankara"],
                          "supplierProvince": [35, 6], "supplierProvinceName": ["İzmir", "Ankara"],
                          "contracts": [1378, 871], "amount": [2.68e9, 2.15e9]})
    figure = charts.flow_map_figure(flows, points, paths, title="t", lang="en", selected=("6", ""))
    assert len([t for t in figure.data if t.fill == "toself"]) == 81
    selected = [t for t in figure.data if t.fill == "toself" and t.fillcolor == charts.HIGHLIGHT]
    assert len(selected) == 1 and selected[0].name == "Selected province"
    arc = next(t for t in figure.data if t.mode == "lines+markers")
    assert len(arc.x) > 2 and arc.line.width == 10  # a curve, the widest for the largest amount
    assert "TRY 2,680,000,000.00" in arc.text[0]
    within = next(t for t in figure.data if t.mode == "markers" and t.legendgroup == "within")
    assert within.name.startswith("Flow within a province")
