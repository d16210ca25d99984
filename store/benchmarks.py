"""Discount benchmarks: the distribution of the tender discount per sector, procedure, province and
period, each dimension one of the values asked for or pooled (docs/awards-and-flags.md,
"Discount benchmarks")."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from store.awards import release_tables
from store.models import Release
from store.pages import Page

FIGURES = ("n", "p10", "p25", "median", "p75", "p90", "mean")
POOLED = ""  # the stored key of a pooled dimension


def _values(values: Sequence[Any] | None) -> list[Any]:
    """The values asked for, in order without repeats, or [None] (pooled) when none are."""
    return sorted(set(values)) if values else [None]


def list_discount_benchmarks(session: Session, *, release: Release, sectors: Sequence[int] | None = None,
                             procedures: Sequence[str] | None = None, provinces: Sequence[int] | None = None,
                             period: str = "all", after: int | None = None, limit: int = 50) -> Page:
    """A page of benchmark groups: one per combination of the sectors, procedures and provinces
    asked for (a dimension not asked for is pooled, null in the item), for one period (a year as
    text, or "all"); by sector, then procedure, then province. A group without tenders has n 0; a
    group of fewer than 5 its n and null figures. A position is the group's place in that order."""
    tables = release_tables(session, release)
    groups = list(product(_values(sectors), _values(procedures), _values(provinces)))
    start = 0 if after is None else max(int(after), 0)
    shown = groups[start:start + limit]
    if not shown:
        return Page([], [], len(groups))
    b = tables.benchmarks.c

    def keys(index: int) -> list[str]:
        return sorted({POOLED if g[index] is None else str(g[index]) for g in shown})

    rows = session.execute(select(b).where(b.period == period, b.sector.in_(keys(0)), b.procedure.in_(keys(1)),
                                           b.province.in_(keys(2)))).mappings().all()
    found = {(r["sector"], r["procedure"], r["province"]): r for r in rows}
    items = []
    for sector, procedure, province in shown:
        key = tuple(POOLED if v is None else str(v) for v in (sector, procedure, province))
        row = found.get(key)
        item: dict[str, Any] = {"sector": sector, "procedure": procedure, "province": province, "period": period}
        item.update({name: (0 if name == "n" else None) if row is None else row[name] for name in FIGURES})
        items.append(item)
    return Page(items, list(range(start + 1, start + len(shown) + 1)), len(groups))
