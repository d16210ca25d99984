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


# index endpoint kind -> the count of `/datasets` `coverage.years` its statistics rest on
RECORDS = {"competition": "tenders", "concentration": "awardedLots", "localization": "awardedLots",
           "direct": "purchases"}


def years_with_data(release: dict[str, Any], endpoint: str) -> set[str] | None:
    """The years the release holds records of for an index endpoint's statistics (`/datasets`
    `coverage`); None when the API does not say (a release loaded before it reported coverage)."""
    coverage = release.get("coverage")
    if not coverage:
        return None
    field = RECORDS[KINDS.get(endpoint, endpoint)]
    return {str(y["year"]) for y in coverage["years"] if y[field] > 0}


@dataclass(frozen=True)
class Emptiness:
    """Why a chart of an index endpoint is empty, in words: `key` of the label catalogue, `year`."""

    key: str
    year: str | None = None


def emptiness(release: dict[str, Any], endpoint: str, year: str | None = None) -> Emptiness | None:
    """Why the release has nothing for the statistic (in any year, or in `year`), or None when it has
    something, or the API does not say."""
    held = years_with_data(release, endpoint)
    if held is None:
        return None
    records = RECORDS[KINDS.get(endpoint, endpoint)]
    if not held:
        return Emptiness(f"empty_release_{records}")
    if year is not None and year != "all" and year not in held:
        return Emptiness(f"empty_year_{records}", year)
    return None


@dataclass(frozen=True)
class Headline:
    """A headline figure: the latest complete year's value, and its change on the year before when
    that year is complete too (otherwise no change is shown). When no complete year has data, the
    latest year that has, `partial`, and no change."""

    year: str | None
    value: float | None
    delta: float | None
    before: str | None
    partial: bool = False


def _value(frame: pd.DataFrame, field: str, period: str) -> float | None:
    values = frame.loc[frame["period"] == period, field]
    if not len(values) or values.iloc[0] is None:
        return None
    value = float(values.iloc[0])
    return None if math.isnan(value) else value


def headline(frame: pd.DataFrame, field: str, span: Span | None, with_data: set[str] | None = None) -> Headline:
    """The figure of the latest complete year present in `frame` (columns `period` and `field`), among
    the years the release holds records of (`with_data`, when known); else the latest such year,
    marked partial."""
    present = sorted((p for p in frame["period"] if p != "all" and _value(frame, field, p) is not None
                      and (with_data is None or p in with_data)), key=int)
    complete = [p for p in present if is_complete(p, span)]
    if not complete:
        if not present:
            return Headline(None, None, None, None)
        return Headline(present[-1], _value(frame, field, present[-1]), None, None, partial=True)
    year = complete[-1]
    value = _value(frame, field, year)
    before = str(int(year) - 1)
    previous = _value(frame, field, before) if is_complete(before, span) else None
    delta = value - previous if value is not None and previous is not None else None
    return Headline(year, value, delta, before if delta is not None else None)


def default_year(periods: list[str], span: Span | None, with_data: set[str] | None = None) -> str:
    """The year a map opens on: the latest complete one the release has records of, else the latest
    it has records of (partial), else the latest complete one, else every year pooled."""
    years = sorted((p for p in periods if p != "all"), key=int)
    held = [p for p in years if with_data is None or p in with_data]
    complete_held = [p for p in held if is_complete(p, span)]
    complete = [p for p in years if is_complete(p, span)]
    return (complete_held or held or complete or years or ["all"])[-1]


def coverage_text(release: dict[str, Any]) -> dict[str, str] | None:
    """The source's complete years (competition's span, which the award statistics share) beside the years
    the release holds records of and those it holds none of, for one sentence; None when the API does
    not report coverage."""
    coverage = release.get("coverage")
    span = complete_span(release, "competition-indices")
    if not coverage or span is None:
        return None
    counts = ("tenders", "purchases")
    held = [str(row["year"]) for row in coverage["years"] if any(row[c] for c in counts)]
    missing = [str(row["year"]) for row in coverage["years"] if not any(row[c] for c in counts)]
    return {"complete": f"{span[0]}–{span[1]}", "held": ", ".join(held) or "–", "missing": ", ".join(missing) or "–"}
