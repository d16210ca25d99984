"""Complete and partial years, from the spans the API serves in `/datasets` (`completeYears`): which
year a headline figure stands for, which year it may be compared with, how a year is labelled.

A year outside its statistic's complete span is partial in the source (public-procurement-api.md,
"General facts" 3 and 4): it is shown, marked, but never compared with a complete year.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

# index endpoint -> the statistic kind of `completeYears`
KINDS = {"competition-indices": "competition", "concentration-indices": "concentration",
         "direct-procurement-indices": "direct", "localization-indices": "localization"}

Span = tuple[int, int]


def complete_span(release: dict[str, Any], endpoint: str) -> Span | None:
    """The first and last complete year of an index endpoint's statistics, as the API reports them."""
    span = (release.get("completeYears") or {}).get(KINDS.get(endpoint, endpoint))
    return (int(span["from"]), int(span["to"])) if span else None


def is_complete(period: str | int, span: Span | None) -> bool:
    """A year inside the span; `all` (every year pooled, partial ones too) and anything unknown is not."""
    try:
        year = int(period)
    except (TypeError, ValueError):
        return False
    return span is not None and span[0] <= year <= span[1]


def partial_years(periods: list[str], span: Span | None) -> list[str]:
    return sorted(p for p in periods if p != "all" and not is_complete(p, span))


@dataclass(frozen=True)
class Headline:
    """A headline figure: the latest complete year's value, and its change on the year before when
    that year is complete too (otherwise no change is shown)."""

    year: str | None
    value: float | None
    delta: float | None
    before: str | None


def _value(frame: pd.DataFrame, field: str, period: str) -> float | None:
    values = frame.loc[frame["period"] == period, field]
    if not len(values) or values.iloc[0] is None:
        return None
    value = float(values.iloc[0])
    return None if math.isnan(value) else value


def headline(frame: pd.DataFrame, field: str, span: Span | None) -> Headline:
    """The figure of the latest complete year present in `frame` (columns `period` and `field`)."""
    years = sorted((p for p in frame["period"] if is_complete(p, span) and _value(frame, field, p) is not None),
                   key=int)
    if not years:
        return Headline(None, None, None, None)
    year = years[-1]
    value = _value(frame, field, year)
    before = str(int(year) - 1)
    previous = _value(frame, field, before) if is_complete(before, span) else None
    delta = value - previous if value is not None and previous is not None else None
    return Headline(year, value, delta, before if delta is not None else None)


def default_year(periods: list[str], span: Span | None) -> str:
    """The year a map opens on: the latest complete one, else the latest, else every year pooled."""
    years = sorted((p for p in periods if p != "all"), key=int)
    complete = [p for p in years if is_complete(p, span)]
    return (complete or years or ["all"])[-1]
