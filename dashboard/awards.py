"""The awards table of the explorer and the profiles: pages of awards for a set of filters, written in the
reader's language with the İKN by which each notice is found on EKAP, and the selected award's discount
placed in the distribution of its sector, procedure and year (the API's discount benchmarks)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import data, party_charts
from dashboard.formats import date_text, number, too_few, value_text
from dashboard.i18n import field_text, unit_text
from dashboard.search import ICONS, profile_query
from dashboard.ui import PLOTLY_CONFIG, guarded, lang, literal, span_of, t, table, year_label

PAGE_SIZE = 100  # awards asked for at a time: one credit each
REFERENCES = {"sectors": data.sectors, "procedures": data.procedures, "types": data.authority_types,
              "flags": data.red_flags}


def names(reference: str) -> dict[Any, str]:
    """The ids of a reference list (sectors, procedures, types, flags) and their names in the reader's language."""
    frame = guarded(REFERENCES[reference])
    return dict(zip(frame["id"], frame["nameTr" if lang() == "tr" else "nameEn"], strict=True))


def _as_id(value: Any) -> Any:
    """An id as the reference lists key it, a plain Python value: a sector or a plate read back from a
    DataFrame (a NumPy integer, or a float in a column holding nulls) is an int."""
    if pd.api.types.is_number(value) and not pd.isna(value) and float(value).is_integer():
        return int(value)
    return value


def named(table: dict[Any, str]) -> Callable[[Any], str]:
    """An id of `table` written as its name (an unknown one as it is), for `ui.table`'s `display`."""
    return lambda value: table.get(_as_id(value), str(value))


def award_display() -> dict[str, Callable[[Any], str]]:
    """How the award columns holding ids and dates are written for the reader (the CSV keeps the ids)."""
    language = lang()
    sectors, procedures, types, flags = (names(r) for r in ("sectors", "procedures", "types", "flags"))
    provinces = data.province_names()
    return {"tenderDate": lambda day: date_text(day, language), "sector": named(sectors),
            "procedure": named(procedures), "authority.type": named(types),
            "authority.province": named(provinces), "contractor.province": named(provinces),
            "flags": lambda ids: ", ".join(flags.get(i, i) for i in ids.split(",")) if ids else "–"}


def _grid_key(params: tuple[tuple[str, Any], ...]) -> str:
    """A selection belongs to one list: other filters or another order start a grid of their own."""
    return "w_awards_" + hashlib.sha256(repr(params).encode()).hexdigest()[:12]


def _selected_row(frame: pd.DataFrame) -> int | None:
    """The row of the award the address names (`?ikn=2026/000072&lot=1`), when it is on the pages loaded."""
    ikn, lot = st.query_params.get("ikn"), st.query_params.get("lot")
    if not ikn or not lot:
        return None
    match = frame.index[(frame["tenderId"] == ikn) & (frame["lot"].astype(str) == lot)]
    return int(match[0]) if len(match) else None


def _keep_selection(award: pd.Series | None) -> None:
    if award is None:
        st.query_params.pop("ikn", None)
        st.query_params.pop("lot", None)
    else:
        st.query_params["ikn"], st.query_params["lot"] = str(award["tenderId"]), str(int(award["lot"]))


AwardPages = Callable[[tuple[tuple[str, Any], ...], str | None], tuple[pd.DataFrame, int, str | None]]


def awards_section(params: tuple[tuple[str, Any], ...], *, name: str, read: AwardPages = data.award_page,
                   benchmark: bool = True, hidden: tuple[str, ...] = ()) -> None:
    """The awards matching `params` (API filters and sort), loaded a page at a time by `read` (the explorer's
    /awards, or a watchlist's new awards), as a table with its CSV; with `benchmark`, the award selected in it
    (kept in the address) is shown against its benchmark. Columns beginning with one of `hidden` (a profile's
    own party, the same on every row) are left off the screen."""
    cursors = f"award_cursors_{name}"
    if st.session_state.get(f"award_filters_{name}") != params:
        st.session_state[f"award_filters_{name}"], st.session_state[cursors] = params, [None]
    frames, total, next_cursor = [], 0, None
    for cursor in st.session_state[cursors]:
        rows, total, next_cursor = guarded(lambda cursor=cursor: read(params + (("limit", PAGE_SIZE),), cursor))
        frames.append(rows)
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if frame.empty:
        st.info(t("no_items"))
        return
    st.caption(t("awards_shown").format(shown=number(len(frame), lang()), total=number(total, lang())))
    chosen = table(frame, name=name, headings={"sector": t("sector")}, display=award_display(),
                   select=_grid_key(params) if benchmark else None,
                   selected=_selected_row(frame) if benchmark else None, hidden=hidden)
    st.caption(t("ikn_note"))
    if next_cursor and st.button(t("load_more"), key=f"more_{name}"):
        st.session_state[cursors].append(next_cursor)
        st.rerun()
    if not benchmark:
        return
    award = frame.iloc[chosen[0]] if chosen else None
    _keep_selection(award)
    st.subheader(t("benchmark"))
    if award is None:
        st.caption(t("benchmark_pick"))
    else:
        benchmark_view(award)


def _parties(award: pd.Series) -> None:
    """The selected award's tender, and links to the profiles of its authority and its contractor."""
    st.markdown(f"**{literal(str(award['tenderId']))}** · {field_text('lot', lang())} "
                f"{int(award['lot'])}/{int(award['lots'])} · {date_text(award['tenderDate'], lang())}")
    left, right = st.columns(2)
    for column, kind in ((left, "authority"), (right, "contractor")):
        if pd.notna(award[f"{kind}.id"]):
            column.page_link("views/profile.py", label=literal(str(award[f"{kind}.name"])), icon=ICONS[kind],
                             query_params=profile_query(kind, str(award[f"{kind}.id"]), lang()))


def _benchmark_chart(group: dict[str, Any] | None, discount: float | None, *, sector: str, procedure: str,
                     period: str) -> None:
    title = t("benchmark_title").format(sector=sector, procedure=procedure,
                                        period=year_label(period, span_of("competition-indices")))
    figure = party_charts.benchmark_figure(group, discount=discount, title=title, lang=lang())
    st.plotly_chart(figure, width="stretch", config=PLOTLY_CONFIG)


def benchmark_view(award: pd.Series) -> None:
    """The award's discount in the distribution of its sector, procedure and year; a group of fewer than 5
    tenders gets no distribution, which is said, and the same sector and procedure over every year is shown."""
    _parties(award)
    year, sector, procedure = str(award["tenderDate"])[:4], _as_id(award["sector"]), str(award["procedure"])
    labels = {"sector": names("sectors").get(sector, str(sector)),
              "procedure": names("procedures").get(procedure, procedure)}
    discount = None if pd.isna(award["discount"]) else float(award["discount"])
    if discount is None:
        st.info(t("benchmark_no_discount"))
    group = guarded(lambda: data.benchmark(sector, procedure, year))
    n = int(group["n"]) if group else 0
    if n and not too_few(n):
        _benchmark_chart(group, discount, period=year, **labels)
        st.caption(t("benchmark_n").format(n=number(n, lang())))
        return
    st.warning(t("benchmark_few").format(n=number(n, lang()), unit=unit_text("tenders", n, lang())))
    pooled = guarded(lambda: data.benchmark(sector, procedure, "all"))
    if pooled and not too_few(pooled["n"]):
        st.caption(t("benchmark_pooled"))
        _benchmark_chart(pooled, discount, period="all", **labels)
        st.caption(t("benchmark_n").format(n=number(int(pooled["n"]), lang())))
    elif discount is not None:
        st.caption(t("benchmark_award").format(discount=value_text(discount, lang(), "share")))
