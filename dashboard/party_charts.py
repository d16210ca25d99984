"""Plotly figures of the profiles and the awards explorer: a party's value by year, and one award's
discount placed in its benchmark distribution; no Streamlit here."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.charts import ACCENT, _layout, _shade_partial, _ticks, _years
from dashboard.formats import value_text
from dashboard.i18n import text

PARTIAL_BAR = "#e6b0aa"  # the accent, paler: a partial year's bar
SPREAD_OUTER, SPREAD_INNER, SPREAD_LINE = "#d6eaf8", "#5dade2", "#1b4f72"
BENCHMARK_HEIGHT = 300


def value_by_year_figure(frame: pd.DataFrame, *, title: str, lang: str,
                         complete: tuple[int, int] | None = None) -> go.Figure:
    """Contract value by year as bars (frame: `period`, `value`, `contracts`), partial years shaded, paler and
    hatched, and named in the legend; the hover gives the year, the value and the contracts behind it."""
    years = _years(frame)
    figure = go.Figure()
    partial = set(_shade_partial(figure, years["year"].tolist(), complete))
    counted = text("contracts", lang)
    hover = [f"{year}: {value_text(v, lang, 'money')}<br>{counted}: {value_text(n, lang, 'number')}"
             + (f" ({text('partial', lang)})" if year in partial else "")
             for year, v, n in zip(years["year"], years["value"], years["contracts"], strict=True)]
    figure.add_trace(go.Bar(
        x=years["year"], y=years["value"], text=hover, hoverinfo="text", textposition="none", showlegend=False,
        marker={"color": [PARTIAL_BAR if y in partial else ACCENT for y in years["year"]],
                "pattern": {"shape": ["/" if y in partial else "" for y in years["year"]], "fgcolor": "#ffffff"}}))
    if partial:
        # A legend entry drawn like the partial years' bars, saying why they are set apart.
        figure.add_trace(go.Bar(x=[None], y=[None], name=text("partial_year_legend", lang), hoverinfo="skip",
                                marker={"color": PARTIAL_BAR, "pattern": {"shape": "/", "fgcolor": "#ffffff"}}))
    figure.update_xaxes(dtick=1, tickformat="d")
    figure.update_yaxes(**_ticks(years["value"], lang, "money"))
    figure.update_layout(showlegend=bool(partial), bargap=0.25)
    return _layout(figure, title, lang)


def _spread(low: float, high: float, *, width: float, colour: str, name: str, lang: str) -> go.Scatter:
    hover = f"{name}: {value_text(low, lang, 'share')} – {value_text(high, lang, 'share')}"
    return go.Scatter(x=[low, high], y=[0, 0], mode="lines", name=name, line={"width": width, "color": colour},
                      text=[hover, hover], hoverinfo="text")


def _mark(x: float, *, symbol: str, size: int, colour: str, name: str, lang: str, **extra: Any) -> go.Scatter:
    hover = f"{name}: {value_text(x, lang, 'share')}"
    return go.Scatter(x=[x], y=[0], mode="markers", name=name, text=[hover], hoverinfo="text",
                      marker={"symbol": symbol, "size": size, "color": colour,
                              "line": {"color": colour, "width": 3}}, **extra)


def benchmark_figure(group: dict[str, Any] | None, *, discount: float | None, title: str, lang: str) -> go.Figure:
    """The spread of tender discounts in a benchmark group (10th–90th percentile as a thin band, 25th–75th as a
    thick one, the median and the mean marked) with one award's discount on it; a group without figures (fewer
    than 5 tenders, or none) draws the award's discount alone."""
    figure = go.Figure()
    values: list[float] = [0.0]
    if group and group.get("median") is not None:
        figure.add_trace(_spread(group["p10"], group["p90"], width=10, colour=SPREAD_OUTER,
                                 name=text("bench_p10_p90", lang), lang=lang))
        figure.add_trace(_spread(group["p25"], group["p75"], width=28, colour=SPREAD_INNER,
                                 name=text("bench_p25_p75", lang), lang=lang))
        figure.add_trace(_mark(group["median"], symbol="line-ns", size=34, colour=SPREAD_LINE,
                               name=text("bench_median", lang), lang=lang))
        figure.add_trace(_mark(group["mean"], symbol="diamond-open", size=14, colour=SPREAD_LINE,
                               name=text("bench_mean", lang), lang=lang))
        values += [group["p10"], group["p90"], group["mean"]]
    if discount is not None:
        label = text("benchmark_award", lang).format(discount=value_text(discount, lang, "share"))
        figure.add_trace(_mark(discount, symbol="triangle-down", size=20, colour=ACCENT,
                               name=text("bench_award", lang), lang=lang, textposition="top center",
                               textfont={"color": ACCENT}, cliponaxis=False))
        figure.data[-1].update(mode="markers+text", text=[label], hovertext=[label], hoverinfo="text")
        values.append(discount)
    low, high = min(values), max(values)
    pad = (high - low) * 0.08 or 0.05
    figure.update_xaxes(range=[low - pad, high + pad], title={"text": text("discount_axis", lang)},
                        **_ticks([low, high], lang, "share"))
    figure.update_yaxes(visible=False, range=[-1, 1.2], fixedrange=True)
    _layout(figure, title, lang)
    # The legend under the axis title, not over the tick labels.
    figure.update_layout(height=BENCHMARK_HEIGHT, plot_bgcolor="#ffffff", margin={"b": 70},
                         legend={"orientation": "h", "y": -0.55, "yanchor": "top"})
    return figure
