"""Plotly figures from DataFrames; no Streamlit here.

Maps are the provinces' polygons (GeoJSON from the API) drawn as filled shapes on plain x/y axes with
a fixed aspect ratio, not on a Plotly `geo` subplot: a geo subplot makes the browser download a base
map (world_110m.json) from cdn.plot.ly, and the dashboard must work with no network at all.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from dashboard.formats import nice_ticks, tick_label, too_few, value_text
from dashboard.i18n import text

# Türkiye's extent, for an undistorted map on plain axes.
LON_RANGE, LAT_RANGE = (25.5, 45.0), (35.7, 42.2)
# One degree of longitude is cos(39°) ≈ 0.78 of a degree of latitude at Türkiye's middle latitude.
LAT_STRETCH = 1 / math.cos(math.radians(39))
ACCENT = "#c0392b"
FLOW_WITHIN = "#1f6f8b"
HIGHLIGHT, HIGHLIGHT_LINE = "#f5b041", "#7e5109"
ARROW, ARROW_SIZE = "#922b21", 14
OUTLINE, LAND, NO_DATA = "#ffffff", "#e9ecef", "#f4f4f4"
# OrRd without its palest tenth, so that the lowest value still reads as coloured beside "no data".
COLORSCALE = [[i / 8, c] for i, c in enumerate(sample_colorscale("OrRd", [0.12 + 0.88 * i / 8 for i in range(9)]))]
PARTIAL_SHADE = "rgba(127, 127, 127, 0.12)"
MAP_HEIGHT = 480


def _layout(figure: go.Figure, title: str, lang: str) -> go.Figure:
    # Plotly's own separators (decimal, then thousands) for anything it formats itself.
    figure.update_layout(title=title, margin={"l": 10, "r": 10, "t": 60, "b": 10}, template="plotly_white",
                         legend={"orientation": "h", "y": -0.08}, separators=",." if lang == "tr" else ".,")
    return figure


def _ticks(values: pd.Series | list[float], lang: str, kind: str, *, zero: bool = True) -> dict[str, Any]:
    series = pd.to_numeric(pd.Series(values), errors="coerce").dropna()
    if series.empty:
        return {}
    ticks = nice_ticks(float(series.min()), float(series.max()), zero=zero)
    return {"tickvals": ticks, "ticktext": [tick_label(v, lang, kind) for v in ticks]}


def _log_ticks(values: pd.Series | list[float], lang: str, kind: str) -> dict[str, Any]:
    series = pd.to_numeric(pd.Series(values), errors="coerce")
    series = series[series > 0]
    if series.empty:
        return {}
    low, high = math.floor(math.log10(series.min())), math.ceil(math.log10(series.max()))
    ticks = [10.0 ** p for p in range(low, high + 1)]
    return {"tickvals": ticks, "ticktext": [tick_label(v, lang, kind) for v in ticks]}


def _years(frame: pd.DataFrame) -> pd.DataFrame:
    years = frame[frame["period"] != "all"].copy()
    years["year"] = years["period"].astype(int)
    return years.sort_values("year")


def _shade_partial(figure: go.Figure, years: list[int], complete: tuple[int, int] | None) -> list[int]:
    """Grey bands behind the partial years; returns them."""
    partial = [y for y in years if complete is None or not complete[0] <= y <= complete[1]]
    for year in partial:
        figure.add_vrect(x0=year - 0.5, x1=year + 0.5, fillcolor=PARTIAL_SHADE, line_width=0, layer="below")
    return partial


def _partial_legend(figure: go.Figure, lang: str) -> None:
    figure.add_trace(go.Scatter(x=[None], y=[None], mode="lines+markers", name=text("partial_year_legend", lang),
                                line={"color": "#7f7f7f", "dash": "dash"},
                                marker={"symbol": "circle-open", "color": "#7f7f7f"}, hoverinfo="skip"))


def _year_series(figure: go.Figure, years: pd.DataFrame, y: str, *, name: str, color: str, lang: str, kind: str,
                 complete: tuple[int, int] | None, show_name: bool) -> None:
    """One statistic by year: a dashed line through every year, solid over the complete years."""
    inside = years["year"].between(*complete) if complete else pd.Series(False, index=years.index)
    hover = [f"{year}: {value_text(v, lang, kind)}" + ("" if ok else f" ({text('partial', lang)})")
             for year, v, ok in zip(years["year"], years[y], inside, strict=True)]
    figure.add_trace(go.Scatter(x=years["year"], y=years[y], mode="lines+markers", name=name, legendgroup=name,
                                showlegend=False, line={"color": color, "dash": "dash", "width": 1.5},
                                marker={"symbol": ["circle" if ok else "circle-open" for ok in inside], "size": 8,
                                        "color": color},
                                text=hover, hoverinfo="text"))
    solid = years[inside]
    figure.add_trace(go.Scatter(x=solid["year"], y=solid[y], mode="lines+markers", name=name, legendgroup=name,
                                showlegend=show_name, line={"color": color, "width": 3},
                                marker={"size": 8, "color": color}, hoverinfo="skip"))


def line_by_year_figure(frame: pd.DataFrame, *, y: str, title: str, lang: str, kind: str = "number",
                        complete: tuple[int, int] | None = None) -> go.Figure:
    """A statistic by year; partial years shaded, drawn dashed with open markers, and named in the legend."""
    years = _years(frame)
    figure = go.Figure()
    partial = _shade_partial(figure, years["year"].tolist(), complete)
    _year_series(figure, years, y, name=title, color=ACCENT, lang=lang, kind=kind, complete=complete,
                 show_name=False)
    if partial:
        _partial_legend(figure, lang)
    figure.update_xaxes(dtick=1, tickformat="d")
    ticks = _ticks(years[y], lang, kind, zero=False)
    figure.update_yaxes(**ticks)
    figure.update_layout(showlegend=bool(partial))
    # The axis is fitted to the values so that a trend shows; a reader is told when it does not start at zero.
    if starts_at_zero(ticks.get("tickvals", [])):
        return _layout(figure, title, lang)
    _layout(figure, f"{title}<br><sup>{text('axis_not_from_zero', lang)}</sup>", lang)
    return figure.update_layout(margin={"t": 80})


def starts_at_zero(ticks: list[float]) -> bool:
    """Whether an axis with these ticks reaches zero (an empty axis says nothing, so it is taken as doing so)."""
    return not ticks or min(ticks) <= 0 <= max(ticks)


def distribution_figure(frame: pd.DataFrame, *, names: dict[str, str], title: str, lang: str,
                        complete: tuple[int, int] | None = None) -> go.Figure:
    """Several amounts by year on a log scale, partial years marked as in `line_by_year_figure`."""
    years = _years(frame)
    figure = go.Figure()
    partial = _shade_partial(figure, years["year"].tolist(), complete)
    palette = ["#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#5d6d7e"]
    for (column, label), color in zip(names.items(), palette, strict=False):
        _year_series(figure, years, column, name=label, color=color, lang=lang, kind="money", complete=complete,
                     show_name=True)
    if partial:
        _partial_legend(figure, lang)
    values = pd.concat([years[c] for c in names]) if names else pd.Series(dtype=float)
    figure.update_yaxes(type="log", title={"text": text("log_axis", lang)}, **_log_ticks(values, lang, "money"))
    figure.update_xaxes(dtick=1, tickformat="d")
    _layout(figure, f"{title}<br><sup>{text('log_axis_note', lang)}</sup>", lang)
    return figure.update_layout(margin={"t": 80})


def ranked_bar_figure(frame: pd.DataFrame, *, value: str, label: str, title: str, lang: str,
                      kind: str = "number") -> go.Figure:
    ordered = frame.dropna(subset=[value]).sort_values(value)
    hover = [f"{name}: {value_text(v, lang, kind)}" for name, v in zip(ordered[label], ordered[value], strict=True)]
    figure = go.Figure(go.Bar(x=ordered[value], y=ordered[label], orientation="h", marker_color=ACCENT,
                              text=hover, hoverinfo="text", textposition="none"))
    figure.update_layout(height=max(300, 18 * len(ordered) + 80))
    figure.update_xaxes(**_ticks(ordered[value], lang, kind))
    return _layout(figure, title, lang)


def province_paths(boundaries: dict[str, Any]) -> pd.DataFrame:
    """GeoJSON provinces as x/y paths (`plate`, `name`, `x`, `y`), each ring closed and rings separated
    by None, the form a filled Plotly scatter draws; ring order does not matter on plain axes."""
    rows = []
    for feature in boundaries["features"]:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        xs: list[float | None] = []
        ys: list[float | None] = []
        for polygon in polygons:
            for ring in polygon:
                if xs:
                    xs.append(None)
                    ys.append(None)
                xs += [point[0] for point in ring]
                ys += [point[1] for point in ring]
        rows.append({"plate": int(feature["properties"]["plate"]), "name": feature["properties"]["name"],
                     "x": xs, "y": ys})
    return pd.DataFrame(rows)


def _map_axes(figure: go.Figure) -> None:
    figure.update_xaxes(range=LON_RANGE, visible=False, showgrid=False, zeroline=False)
    figure.update_yaxes(range=LAT_RANGE, visible=False, showgrid=False, zeroline=False, scaleanchor="x",
                        scaleratio=LAT_STRETCH)
    figure.update_layout(height=MAP_HEIGHT, plot_bgcolor="#ffffff", hoverlabel={"align": "left"})


def _province(path: Any, *, fill: str, hover: str, line: str = OUTLINE, width: float = 0.6,
              **extra: Any) -> go.Scatter:
    """One province as a filled shape; its hover is its text (Plotly shows a fill's text, not a template)."""
    extra.setdefault("showlegend", False)
    extra.setdefault("name", path.name)
    return go.Scatter(x=path.x, y=path.y, mode="lines", fill="toself", fillcolor=fill,
                      line={"color": line, "width": width}, hoveron="fills", text=hover, hoverinfo="text", **extra)


SCALES = ("quantile", "log", "linear")
QUANTILE_CLASSES = 5


def colour_classes(values: pd.Series, scale: str) -> tuple[list[float], list[float], list[str]]:
    """Where each value sits on the colour bar (0 to 1), and the bar's tick positions and values, for a
    `scale`: "linear" from 0 (or the lowest value below 0) to the highest; "log" by powers of ten (values at
    or below 0 take the lowest colour); "quantile" in five classes holding as many values each."""
    values = pd.to_numeric(values, errors="coerce").astype(float)
    if values.empty:
        return [], [], []
    if scale == "quantile":
        edges = sorted(set(values.quantile([i / QUANTILE_CLASSES for i in range(QUANTILE_CLASSES + 1)]).tolist()))
        if len(edges) < 2:
            return [0.5] * len(values), [0.0, 1.0], [edges[0], edges[0]]
        classes = len(edges) - 1
        # A value's class is the last edge at or below it; the largest value closes the last class.
        positions = [(min(max(sum(v >= e for e in edges[:-1]) - 1, 0), classes - 1) + 0.5) / classes for v in values]
        return positions, [i / classes for i in range(classes + 1)], edges
    if scale == "log":
        positive = values[values > 0]
        if positive.empty:
            return [0.0] * len(values), [0.0], [0.0]
        low, high = math.floor(math.log10(positive.min())), math.ceil(math.log10(positive.max()))
        high = max(high, low + 1)
        logs = [(math.log10(v) - low) / (high - low) if v > 0 else 0.0 for v in values]
        return logs, [(p - low) / (high - low) for p in range(low, high + 1)], [10.0 ** p for p in range(low, high + 1)]
    low, high = min(float(values.min()), 0.0), float(values.max())
    span = high - low or 1.0
    ticks = [t for t in nice_ticks(low, high) if low <= t <= high] or [low, high]
    return [(v - low) / span for v in values], [(t - low) / span for t in ticks], ticks


def _class_colours(classes: int) -> list[str]:
    return sample_colorscale(COLORSCALE, [(i + 0.5) / classes for i in range(classes)])


def _quantile_colourscale(classes: int) -> list[list[Any]]:
    """Steps of one colour each, so that a class reads as one colour on the bar as on the map."""
    colours = _class_colours(classes)
    return [step for i, c in enumerate(colours) for step in ([i / classes, c], [(i + 1) / classes, c])]


def choropleth_figure(frame: pd.DataFrame, paths: pd.DataFrame, *, value: str, denominator: str, title: str,
                      lang: str, kind: str, unit: str, scale: str = "linear", mark_few: bool = True) -> go.Figure:
    """Provinces coloured by `value` (frame: `subject` = plate) on a `scale` of SCALES, which the title
    names; provinces without a value are drawn hatched as "no data", never as 0, and with `mark_few` (a share,
    a mean, a median or an index, not a sum) those whose value rests on fewer than five cases are dotted.
    Hover: province, value and the count behind it."""
    data = paths.merge(frame[["subject", value, denominator]].rename(columns={"subject": "plate"}), on="plate",
                       how="left")
    data[value] = pd.to_numeric(data[value], errors="coerce")
    shown = data.dropna(subset=[value])
    positions, tick_positions, tick_values = colour_classes(shown[value], scale)
    classes = len(tick_values) - 1
    if scale == "quantile" and classes >= 1:
        colourscale, steps = _quantile_colourscale(classes), _class_colours(classes)
        colors = [steps[min(int(p * classes), classes - 1)] for p in positions]
    else:
        colourscale = COLORSCALE
        colors = sample_colorscale(colourscale, positions) if len(shown) else []
    color_of = dict(zip(shown["plate"], colors, strict=True))
    # Traces are collected and handed to the figure at once: adding them one by one costs 4 times more.
    traces = []
    label, counted, first_missing = text(f"map_{value}", lang), text(f"count_{denominator}", lang), True
    first_few = True
    for path in data.itertuples():
        if path.plate in color_of:
            count = getattr(path, denominator)
            hover = (f"<b>{path.name}</b><br>{label}: {value_text(getattr(path, value), lang, kind)}"
                     f"<br>{counted}: {value_text(count, lang, 'number')}")
            if not (mark_few and too_few(count)):
                traces.append(_province(path, fill=color_of[path.plate], hover=hover))
                continue
            # A figure on fewer than five cases keeps its colour under dots, named once in the legend.
            traces.append(_province(path, fill=color_of[path.plate], hover=f"{hover}<br>⚠ {text('under_five', lang)}",
                                    fillpattern={"shape": ".", "fgcolor": "#1b2631", "size": 5, "solidity": 0.25},
                                    showlegend=first_few, legendgroup="few-cases",
                                    name=text("few_cases_legend", lang) if first_few else path.name))
            first_few = False
        else:
            traces.append(_province(path, fill=NO_DATA, hover=f"<b>{path.name}</b><br>{text('no_data', lang)}",
                                    line="#b0b0b0", fillpattern={"shape": "/", "fgcolor": "#b8b8b8", "size": 6},
                                    showlegend=first_missing, legendgroup="no-data",
                                    name=text("no_data", lang) if first_missing else path.name))
            first_missing = False
    # An invisible marker per province carries the colour bar: a filled shape has no colour scale.
    traces.append(go.Scatter(
        x=[LON_RANGE[0]] * len(shown), y=[LAT_RANGE[0]] * len(shown), mode="markers", hoverinfo="skip",
        showlegend=False, marker={"color": positions, "colorscale": colourscale, "cmin": 0, "cmax": 1,
                                  "opacity": 0, "size": 1, "showscale": True,
                                  "colorbar": {"title": {"text": unit}, "tickvals": tick_positions, "thickness": 14,
                                               "ticktext": [tick_label(t, lang, kind) for t in tick_values]}}))
    figure = go.Figure(traces)
    _map_axes(figure)
    _layout(figure, f"{title}<br><sup>{text(f'scale_note_{scale}', lang)}</sup>", lang)
    figure.update_layout(margin={"t": 80})
    return figure


def _arc(a: tuple[float, float], b: tuple[float, float], steps: int = 16) -> tuple[list[float], list[float]]:
    """A gentle curve from a to b, bending to the right of the direction of travel, so that the flows
    A→B and B→A are two separate arcs."""
    (x0, y0), (x1, y1) = a, b
    cx, cy = (x0 + x1) / 2 + 0.18 * (y1 - y0), (y0 + y1) / 2 - 0.18 * (x1 - x0)
    ts = [i / steps for i in range(steps + 1)]
    xs = [(1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1 for t in ts]
    ys = [(1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1 for t in ts]
    return xs, ys


def flow_map_figure(flows: pd.DataFrame, points: pd.DataFrame, paths: pd.DataFrame, *, title: str, lang: str,
                    selected: tuple[str | None, ...] = ()) -> go.Figure:
    """Flows as arcs between provinces' representative points over their outlines, width following the
    amount, an arrow at the supplier's end; flows within one province as circles; the selected provinces
    highlighted."""
    traces = []
    chosen = {int(p) for p in selected if p}
    first_chosen = True
    for path in paths.itertuples():
        if path.plate in chosen:
            traces.append(_province(path, fill=HIGHLIGHT, hover=f"<b>{path.name}</b>", line=HIGHLIGHT_LINE, width=1.2,
                                    showlegend=first_chosen, legendgroup="selected",
                                    name=text("selected_province", lang) if first_chosen else path.name))
            first_chosen = False
        else:
            traces.append(_province(path, fill=LAND, hover=path.name))
    where = points.set_index("province")
    top = float(flows["amount"].max()) if len(flows) else 1.0
    legend = {"between": True, "within": True}
    # Arcs first, circles of flows within a province last, so that no arc hides a circle.
    ordered = flows.assign(_within=flows["buyerProvince"] == flows["supplierProvince"]).sort_values("_within",
                                                                                                     kind="stable")
    for flow in ordered.itertuples():
        a, b = where.loc[flow.buyerProvince], where.loc[flow.supplierProvince]
        share = flow.amount / top if top else 0
        label = (f"<b>{flow.buyerProvinceName} → {flow.supplierProvinceName}</b><br>"
                 f"{text('amount', lang)}: {value_text(flow.amount, lang, 'money')}<br>"
                 f"{text('contracts', lang)}: {value_text(flow.contracts, lang, 'number')}")
        if flow.buyerProvince == flow.supplierProvince:
            traces.append(go.Scatter(
                x=[a.lon], y=[a.lat], mode="markers", hoverinfo="text", text=[label], legendgroup="within",
                name=text("flow_within", lang), showlegend=legend.pop("within", False),
                marker={"size": 8 + 30 * math.sqrt(share), "color": FLOW_WITHIN, "opacity": 0.85,
                        "line": {"color": "#ffffff", "width": 1}}))
        else:
            xs, ys = _arc((a.lon, a.lat), (b.lon, b.lat))
            width = 1 + 9 * share
            traces.append(go.Scatter(
                x=xs, y=ys, mode="lines+markers", hoverinfo="text", text=[label] * len(xs), opacity=0.8,
                line={"width": width, "color": ACCENT}, legendgroup="between",
                name=text("flow_between", lang), showlegend=legend.pop("between", False),
                marker={"size": [0] * (len(xs) - 1) + [ARROW_SIZE + 1.5 * width], "symbol": "arrow",
                        "angleref": "previous", "color": ARROW, "line": {"color": "#ffffff", "width": 1}}))
    # Over the circles: the selected provinces' outlines, then the names of the provinces the flows join.
    traces += [go.Scatter(x=path.x, y=path.y, mode="lines", line={"color": HIGHLIGHT_LINE, "width": 2.5},
                          hoverinfo="skip", showlegend=False) for path in paths.itertuples() if path.plate in chosen]
    ends = sorted(set(flows["buyerProvince"]) | set(flows["supplierProvince"]))
    named = where.loc[[p for p in ends if p in where.index]]
    traces.append(go.Scatter(x=named["lon"], y=named["lat"], mode="text", text=named["provinceName"],
                             textposition="top center", hoverinfo="skip", showlegend=False,
                             textfont={"size": 11, "color": "#1b2631"}))
    figure = go.Figure(traces)
    _map_axes(figure)
    return _layout(figure, title, lang)


HEATMAP_PROVINCES, HEATMAP_SECTORS = 20, 15
LABEL_CHARS = 34  # a sector's name past this is cut with "…" (the hover has it whole)


def _short(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1].rstrip(" ,;") + "…"


def top_cells(frame: pd.DataFrame, *, value: str, sector: str, provinces: int = HEATMAP_PROVINCES,
              sectors: int = HEATMAP_SECTORS) -> tuple[pd.DataFrame, float]:
    """The sector × province table of the provinces and sectors with the largest totals of `value`, each
    sorted from the largest, and the share of the whole volume its cells hold."""
    totals = pd.to_numeric(frame[value], errors="coerce").fillna(0.0)
    numbers = frame.assign(**{value: totals})
    by_province = numbers.groupby("provinceName")[value].sum().nlargest(provinces)
    by_sector = numbers.groupby(sector)[value].sum().nlargest(sectors)
    kept = numbers[numbers["provinceName"].isin(by_province.index) & numbers[sector].isin(by_sector.index)]
    table = kept.pivot_table(index=sector, columns="provinceName", values=value, aggfunc="sum")
    table = table.reindex(index=by_sector.index, columns=by_province.index)
    whole = float(totals.sum())
    return table, (float(kept[value].sum()) / whole if whole else 1.0)


def heatmap_figure(frame: pd.DataFrame, *, value: str, title: str, lang: str) -> go.Figure:
    """Amounts of the largest sectors (rows, largest first) by the largest provinces (columns, largest
    first) on a logarithmic colour scale, so that cells a hundred times smaller than the largest still show;
    an empty cell stays blank."""
    sector = "sectorName" if lang == "tr" or "sectorNameEn" not in frame else "sectorNameEn"
    table, _ = top_cells(frame, value=value, sector=sector)
    cells = table.where(table > 0)
    hover = [[f"{p} · {s}: {value_text(v, lang, 'money')}" if pd.notna(v) else f"{p} · {s}: –"
              for p, v in zip(cells.columns, row, strict=True)] for s, row in zip(cells.index, cells.values, strict=True)]
    logs = cells.apply(lambda column: column.map(lambda v: math.log10(v) if pd.notna(v) else None))
    ticks = _log_ticks(cells.stack(), lang, "money")
    figure = go.Figure(go.Heatmap(
        z=logs.values, x=list(cells.columns), y=[_short(name) for name in cells.index], colorscale=COLORSCALE,
        text=hover, hoverinfo="text", xgap=2, ygap=2, hoverongaps=False,
        colorbar={"title": {"text": text("amount", lang)}, "thickness": 14,
                  **({"tickvals": [math.log10(v) for v in ticks["tickvals"]], "ticktext": ticks["ticktext"]}
                     if ticks else {})}))
    figure.update_layout(height=160 + 30 * len(cells), plot_bgcolor="#ffffff")
    figure.update_xaxes(side="top", tickangle=-45, showgrid=False)
    figure.update_yaxes(autorange="reversed", showgrid=False)  # the largest sector on top
    _layout(figure, f"{title}<br><sup>{text('scale_note_log', lang)}</sup>", lang)
    figure.update_layout(margin={"l": 10, "r": 10, "t": 150, "b": 10})
    return figure
