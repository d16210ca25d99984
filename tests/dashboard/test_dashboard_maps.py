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


def test_choropleth_quantiles_spread_skewed_amounts_over_every_colour():
    paths = charts.province_paths(_boundaries())
    # One province far above the rest, as Ankara is for direct purchases.
    plates = list(range(1, 82))
    totals = [1e6 * (1 + p % 17) for p in plates]
    totals[5] = 1e9
    frame = pd.DataFrame({"subject": plates, "total": totals, "purchases": [100] * 81})
    linear = charts.choropleth_figure(frame, paths, value="total", denominator="purchases", title="t", lang="en",
                                      kind="money", unit="TRY", scale="linear")
    quantile = charts.choropleth_figure(frame, paths, value="total", denominator="purchases", title="t", lang="en",
                                        kind="money", unit="TRY", scale="quantile")

    def fills(figure) -> dict[str, int]:  # noqa: ANN001
        counted: dict[str, int] = {}
        for trace in figure.data:
            if trace.fill == "toself":
                counted[trace.fillcolor] = counted.get(trace.fillcolor, 0) + 1
        return counted

    assert max(fills(linear).values()) < 81 and len(fills(quantile)) == 5
    assert max(fills(quantile).values()) <= 81 // 5 + 5  # each colour holds about a fifth of the provinces
    bar = next(t for t in linear.data if t.marker.showscale).marker.colorbar
    assert bar.ticktext[0] == "TRY 0"  # a linear bar starts at 0
    assert "quintile" in quantile.layout.title.text and "linear" in linear.layout.title.text
    log = charts.choropleth_figure(frame, paths, value="total", denominator="purchases", title="t", lang="tr",
                                   kind="money", unit="₺", scale="log")
    assert "logaritmik" in log.layout.title.text
    assert list(next(t for t in log.data if t.marker.showscale).marker.colorbar.ticktext) == [
        "1 milyon ₺", "10 milyon ₺", "100 milyon ₺", "1 milyar ₺"]


def test_map_scale_is_a_choice_in_the_address():
    from dashboard import charts as figures

    assert figures.SCALES == ("quantile", "log", "linear")


def test_flow_map_names_provinces_shows_arrows_and_keeps_the_selected_outline_on_top():
    paths = charts.province_paths(_boundaries())
    points = pd.DataFrame({"province": [6, 35], "provinceName": ["Ankara", "İzmir"], "lat": [39.9, 38.4],
                           "lon": [32.8, 27.1]})
    flows = pd.DataFrame({"buyerProvince": [6, 6], "buyerProvinceName": ["Ankara", "Ankara"],
                          "supplierProvince": [35, 6], "supplierProvinceName": ["İzmir", "Ankara"],
                          "contracts": [1378, 871], "amount": [2.68e9, 2.15e9]})
    figure = charts.flow_map_figure(flows, points, paths, title="t", lang="tr", selected=("6", ""))
    labels = next(t for t in figure.data if t.mode == "text")
    assert sorted(labels.text) == ["Ankara", "İzmir"]
    arc = next(t for t in figure.data if t.mode == "lines+markers")
    assert list(arc.marker.size)[-1] >= 20  # an arrowhead a reader can see
    order = list(figure.data)
    circle = next(i for i, t in enumerate(order) if t.legendgroup == "within")
    outline = [i for i, t in enumerate(order) if t.mode == "lines" and t.fill is None and t.line.color == charts.HIGHLIGHT_LINE]
    assert outline and min(outline) > circle  # the selected province's outline is drawn over its own circle


def test_heatmap_keeps_the_largest_provinces_and_sectors_sorted_with_readable_labels():
    provinces = [f"İl {i}" for i in range(81)]
    sectors = [f"Sektör {j} " + "uzun ad " * 8 for j in range(43)]
    frame = pd.DataFrame([{"provinceName": p, "sectorName": s, "sectorNameEn": s, "amount": (81 - i) * (43 - j) * 1e5}
                          for i, p in enumerate(provinces) for j, s in enumerate(sectors)])
    table, share = charts.top_cells(frame, value="amount", sector="sectorName")
    assert list(table.columns) == provinces[:20] and list(table.index) == sectors[:15]
    assert 0 < share < 1
    figure = charts.heatmap_figure(frame, value="amount", title="t", lang="tr")
    heat = figure.data[0]
    assert len(heat.x) == 20 and len(heat.y) == 15
    assert all(len(label) <= charts.LABEL_CHARS for label in heat.y)
    assert "logaritmik" in figure.layout.title.text


def test_a_province_whose_figure_rests_on_fewer_than_five_cases_is_dotted_and_said():
    """A share on 1 to 4 cases keeps its colour, dotted, with the warning in its hover and once in the legend;
    a sum (mark_few=False) is not marked."""
    paths = charts.province_paths(_boundaries())
    frame = pd.DataFrame({"subject": [34, 6, 69, 38], "localShareCount": [0.4, 0.5, 1.0, 0.8],
                          "contracts": [120, 5, 1, 4]})
    figure = charts.choropleth_figure(frame, paths, value="localShareCount", denominator="contracts", title="t",
                                      lang="en", kind="share", unit="%")
    by_name = {t.text.split("<br>")[0]: t for t in figure.data if t.fill == "toself"}
    few = [by_name["<b>Bayburt</b>"], by_name["<b>Kayseri</b>"]]
    assert all(t.fillpattern.shape == "." and "fewer than 5 cases" in t.text for t in few)
    assert [t.name for t in few if t.showlegend] == ["Rests on fewer than 5 cases (dotted)"]
    for enough in (by_name["<b>İstanbul</b>"], by_name["<b>Ankara</b>"]):  # 5 cases are enough
        assert enough.fillpattern.shape is None and "fewer than" not in enough.text
    sums = charts.choropleth_figure(frame, paths, value="localShareCount", denominator="contracts", title="t",
                                    lang="en", kind="share", unit="%", mark_few=False)
    assert not any("fewer than" in (t.text or "") for t in sums.data if t.fill == "toself")
