"""Plotly figures from DataFrames; no Streamlit here. Maps are drawn from the shipped province points
on plain axes, so nothing is fetched from the internet."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

# Türkiye's extent, for an undistorted map on plain axes.
LON_RANGE, LAT_RANGE = (25.5, 45.0), (35.6, 42.4)
ACCENT = "#c0392b"
# One decimal where the ticks need it (4.5%), none where they do not (50%): ".0%" printed 4.5% and 5%
# both as "5%".
PERCENT_TICKS = ".1~%"


def _layout(figure: go.Figure, title: str) -> go.Figure:
    figure.update_layout(title=title, margin={"l": 10, "r": 10, "t": 50, "b": 10}, template="plotly_white",
                         legend={"orientation": "h"})
    return figure


def line_by_year_figure(frame: pd.DataFrame, *, y: str, title: str, percent: bool = False) -> go.Figure:
    years = frame[frame["period"] != "all"].sort_values("period")
    figure = go.Figure(go.Scatter(x=years["period"], y=years[y], mode="lines+markers", line={"color": ACCENT}))
    if percent:
        figure.update_yaxes(tickformat=PERCENT_TICKS)
    return _layout(figure, title)


def ranked_bar_figure(frame: pd.DataFrame, *, value: str, label: str, title: str, percent: bool = False) -> go.Figure:
    ordered = frame.dropna(subset=[value]).sort_values(value)
    figure = go.Figure(go.Bar(x=ordered[value], y=ordered[label], orientation="h", marker_color=ACCENT))
    figure.update_layout(height=max(300, 18 * len(ordered) + 80))
    if percent:
        figure.update_xaxes(tickformat=PERCENT_TICKS)
    return _layout(figure, title)


def _base_map(points: pd.DataFrame) -> go.Figure:
    figure = go.Figure(go.Scatter(x=points["lon"], y=points["lat"], mode="markers", hoverinfo="text",
                                  text=points["provinceName"], marker={"size": 4, "color": "#bbbbbb"},
                                  showlegend=False))
    figure.update_xaxes(range=LON_RANGE, visible=False)
    figure.update_yaxes(range=LAT_RANGE, visible=False, scaleanchor="x", scaleratio=1.3)
    return figure


def province_map_figure(frame: pd.DataFrame, points: pd.DataFrame, *, value: str, title: str,
                        percent: bool = False) -> go.Figure:
    """Provinces as points coloured and sized by `value` (frame has `subject` = plate code)."""
    data = points.merge(frame[["subject", value]].rename(columns={"subject": "province"}), on="province", how="left")
    shown = data.dropna(subset=[value])
    figure = _base_map(points)
    top = shown[value].max() if len(shown) else 1
    labels = [f"{n}: {v:.1%}" if percent else f"{n}: {v:,.0f}" for n, v in zip(shown["provinceName"], shown[value], strict=True)]
    figure.add_trace(go.Scatter(x=shown["lon"], y=shown["lat"], mode="markers", text=labels, hoverinfo="text",
                                marker={"size": 8 + 22 * (shown[value] / top if top else 0), "color": shown[value],
                                        "colorscale": "Reds", "showscale": True,
                                        "colorbar": {"tickformat": PERCENT_TICKS if percent else ",.0f"}},
                                showlegend=False))
    return _layout(figure, title)


def flow_map_figure(flows: pd.DataFrame, points: pd.DataFrame, *, title: str) -> go.Figure:
    """Flows as lines between province points, width following the amount."""
    figure = _base_map(points)
    where = points.set_index("province")
    top = flows["amount"].max() if len(flows) else 1
    for flow in flows.itertuples():
        a, b = where.loc[flow.buyerProvince], where.loc[flow.supplierProvince]
        width = 1 + 9 * flow.amount / top
        label = f"{flow.buyerProvinceName} → {flow.supplierProvinceName}: {flow.amount:,.0f} ({flow.contracts})"
        if flow.buyerProvince == flow.supplierProvince:
            figure.add_trace(go.Scatter(x=[a.lon], y=[a.lat], mode="markers", hoverinfo="text", text=[label],
                                        marker={"size": 6 + 2 * width, "color": ACCENT, "opacity": 0.5},
                                        showlegend=False))
        else:
            figure.add_trace(go.Scatter(x=[a.lon, b.lon], y=[a.lat, b.lat], mode="lines", hoverinfo="text",
                                        text=[label, label], line={"width": width, "color": ACCENT},
                                        opacity=0.6, showlegend=False))
    return _layout(figure, title)


def heatmap_figure(frame: pd.DataFrame, *, value: str, title: str) -> go.Figure:
    table = frame.pivot_table(index="provinceName", columns="sectorName", values=value, aggfunc="sum")
    figure = go.Figure(go.Heatmap(z=table.values, x=table.columns, y=table.index, colorscale="Reds"))
    figure.update_layout(height=max(400, 14 * len(table) + 120))
    return _layout(figure, title)


def distribution_figure(frame: pd.DataFrame, *, names: dict[str, str], title: str) -> go.Figure:
    years = frame[frame["period"] != "all"].sort_values("period")
    figure = go.Figure([go.Scatter(x=years["period"], y=years[column], mode="lines+markers", name=label)
                        for column, label in names.items()])
    figure.update_yaxes(type="log")
    return _layout(figure, title)
