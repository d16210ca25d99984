"""Page helpers shared by every page: language, URL state, errors, tables with CSV download."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

import pandas as pd
import streamlit as st

from dashboard import charts, data, years
from dashboard.client import ApiError
from dashboard.formats import local_time, month_text, number, share, spreadsheet_safe, too_few
from dashboard.i18n import LANGUAGES, MONEY_FIELDS, SHARE_FIELDS, field_text, option_text, text
from dashboard.prices import in_prices_of, uncovered_years

T = TypeVar("T")
SAFE_IN_URL = ":/?#@!$&'*+,;=%~-._"  # everything but spaces, brackets, quotes and angle brackets is kept
# Every ASCII punctuation mark that Markdown or Streamlit's extensions (colour directives, emoji
# shortcodes, LaTeX) give a meaning to; CommonMark lets a backslash make any of them literal.
MARKDOWN_MARKS = frozenset("\\`*_{}[]()#+-.!|<>~$:=^&\"'")
SMALL_COUNT = 30  # below this many cases a share is flagged as fragile
# A statistic that can be mapped by province: its endpoint, the count it rests on, how it is written
# and the unit of its colour bar.
MEASURES: dict[str, tuple[str, str, str, str]] = {
    "singleBidShare": ("competition-indices", "lotsWithBids", "share", "unit_share"),
    "averageDiscount": ("competition-indices", "lotsWithBids", "share", "unit_share"),
    "hhi": ("concentration-indices", "contracts", "number", "unit_hhi"),
    "localShareCount": ("localization-indices", "contracts", "share", "unit_share"),
    "localShareValue": ("localization-indices", "contracts", "share", "unit_share"),
    "total": ("direct-procurement-indices", "purchases", "money", "unit_money"),
    "median": ("direct-procurement-indices", "purchases", "money", "unit_money"),
}
SUMS = frozenset({"total"})  # measures that add cases up rather than describe them
PLOTLY_CONFIG = {"displaylogo": False}


# GitHub-flavoured Markdown turns bare addresses into links (`https://…`, `www.…`, `name@host`),
# escapes or not; a word joiner (U+2060, invisible) inside the pattern leaves the text as it reads.
AUTOLINK_STARTS = re.compile(r"(?i)(https?|ftp|www|mailto)(?=[:.])")
WORD_JOINER = "\u2060"


def literal(value: str) -> str:
    """Text from the API or a release (headlines, summaries, company names, dataset names and
    citations) shown as written, never as Markdown or HTML: a document that carries a link, an
    address, an image or a tag cannot make the page render it."""
    value = AUTOLINK_STARTS.sub(lambda m: m.group(1) + WORD_JOINER, value).replace("@", WORD_JOINER + "@")
    return "".join("\\" + c if c in MARKDOWN_MARKS else c for c in value).replace("\n", "  \n")


def safe_url(url: str) -> str | None:
    """Only web addresses become links; a `javascript:` or `data:` address in the data is dropped."""
    return url if url.lower().startswith(("https://", "http://")) else None


def link(text: str, url: str) -> str:
    """A Markdown link showing `text` literally, or the text alone when the address is not a web one."""
    if not safe_url(url):
        return literal(text)
    return f"[{literal(text)}](<{quote(url, safe=SAFE_IN_URL)}>)"


def lang() -> str:
    value = st.query_params.get("lang", "tr")
    return value if value in LANGUAGES else "tr"


def t(key: str) -> str:
    return text(key, lang())


def choose(label_key: str, options: list[str], *, name: str, labels: dict[str, str] | None = None,
           default: str | None = None, sidebar: bool = True, place: Any = None) -> str:
    """A select box whose choice lives in the URL (`?name=value`), so a view can be shared as a link."""
    fallback = default if default in options else options[0]
    current = st.query_params.get(name, fallback)
    index = options.index(current) if current in options else options.index(fallback)
    place = place or (st.sidebar if sidebar else st)
    shown = labels or {}
    value = place.selectbox(t(label_key), options, index=index, key=f"w_{name}", placeholder=t("choose_option"),
                            format_func=lambda o: shown.get(o, option_text(o, lang())))
    if value == "":  # "every one": the address names only the choices made
        st.query_params.pop(name, None)
    else:
        st.query_params[name] = value
    return value


def uploader_texts() -> None:
    """The file uploader's own texts (its button, its size and type line), which Streamlit writes in English
    only, replaced by the catalogue's: the originals are hidden and the page's language is drawn in their place."""
    button = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"]'
    limit = '[data-testid="stFileUploaderDropzoneInstructions"] > div'
    st.markdown(f"""<style>
{button} p, {limit} > span {{ display: none; }}
{button}::after {{ content: "{t('browse_files')}"; }}
{limit}::after {{ content: "{t('file_limit')}"; font-size: 0.875rem; }}
</style>""", unsafe_allow_html=True)


def guarded(read: Callable[[], T]) -> T:
    """The data, or the API's problem shown as a sentence and the page stopped."""
    try:
        return read()
    except ApiError as exc:
        st.error(exc.message)
        st.stop()
        raise


def _cell_format(column: str, values: pd.Series) -> Callable[[Any], str]:
    """How a numeric column is written in the reader's language."""
    if column in SHARE_FIELDS:
        return lambda v: share(v, lang())
    digits = 2 if column in MONEY_FIELDS or (values.dropna() % 1 != 0).any() and column != "hhi" else 0
    return lambda v: number(v, lang(), digits=digits)


def table(frame: pd.DataFrame, *, name: str, columns: dict[str, str] | None = None,
          headings: dict[str, str] | None = None, display: dict[str, Callable[[Any], str]] | None = None,
          links: dict[str, str] | None = None, select: str | None = None, selected: int | None = None,
          hidden: tuple[str, ...] = ()) -> list[int]:
    """The items on screen, headed and written in the reader's language (1.234,56 / 1,234.56; shares
    as percentages), and as a CSV that keeps plain numbers and, where no heading was given, the API's
    field names for spreadsheets.

    `headings` head columns on screen only (the CSV keeps the API's names); `display` writes a column's
    values for the reader (an id as its name, a date as the language writes it) while the grid sorts by
    the values underneath; `links` maps a column of addresses to the words its links show (on screen
    only); with `select` (its widget key) one row can be selected, `selected` first: the rows selected
    are returned. Columns whose names begin with one of `hidden` are left off the screen, not the CSV."""
    exported = (frame.rename(columns=columns) if columns else frame).drop(columns=list(links or {}))
    headings = {c: (headings or {}).get(c) or (columns or {}).get(c) or field_text(c, lang()) for c in frame.columns}
    shown = frame.copy()
    for column in shown.select_dtypes("object").columns:
        # A figure the API gives as null makes an object column of numbers: keep it a number column, so
        # that it is written as one (Streamlit's grid still shows a null cell as its own "None").
        values = shown[column].dropna()
        if len(values) and values.map(lambda v: isinstance(v, int | float) and not isinstance(v, bool)).all():
            shown[column] = pd.to_numeric(shown[column])
        elif column.endswith("At"):  # an RFC 3339 time of the API (loadedAt, publishedAt) in Türkiye's time
            shown[column] = shown[column].map(lambda v: local_time(v, lang()) if isinstance(v, str) else v)
    if "dimension" in shown:
        shown["dimension"] = shown["dimension"].map(lambda v: option_text(v, lang()))
    if "period" in shown:
        shown["period"] = shown["period"].map(lambda v: t("all_years") if v == "all" else v)
    # A column with nothing in it (the subject code of Türkiye as a whole) says nothing on screen.
    shown = shown.drop(columns=[c for c in shown.columns if shown[c].isna().all() and len(shown)])
    shown = shown.drop(columns=[c for c in shown.columns if hidden and c.startswith(hidden)])
    shown = shown.rename(columns=headings)
    frame_dtypes = dict(shown.dtypes)
    # A Styler's text is what the grid shows, while sorting still uses the numbers underneath; the grid's
    # own number formats would follow the browser's locale instead of the language chosen.
    formats = {headings[c]: _cell_format(c, shown[headings[c]]) for c in frame.columns if headings[c] in shown
               and pd.api.types.is_numeric_dtype(shown[headings[c]]) and not pd.api.types.is_bool_dtype(shown[headings[c]])}
    formats |= {headings[c]: write for c, write in (display or {}).items() if c in headings and headings[c] in shown}
    # The grid writes a null cell as its own "None", whatever the Styler says: a column holding one is written
    # out here, every empty cell as a dash (it then sorts as text; the CSV keeps the numbers).
    written = _write_out_nulls(shown, formats)
    shown = shown.assign(**{column: values for column, values in written.items()})
    styled = shown.style.format(na_rep="–").format({c: w for c, w in formats.items() if c not in written}, na_rep="–")
    # A column of ids written as names reads as text: aligned left, though the ids underneath are numbers.
    config = {headings[c]: st.column_config.Column(headings[c], alignment="left") for c in display or {}
              if c in headings and headings[c] in shown}
    config |= {column: st.column_config.Column(column, alignment="right") for column in written
               if column not in config and pd.api.types.is_numeric_dtype(frame_dtypes.get(column))}
    config |= {headings[c]: st.column_config.LinkColumn(headings[c], display_text=words)
               for c, words in (links or {}).items()}
    choice = {"key": select, "on_select": "rerun", "selection_mode": "single-row",
              "selection_default": {"selection": {"rows": [] if selected is None else [selected]}}} if select else {}
    event = st.dataframe(styled, hide_index=True, width="stretch", column_config=config or None, **choice)
    # Text from the API (a contractor's name, a problem's message) must not run as a formula in a spreadsheet.
    csv = spreadsheet_safe(exported).to_csv(index=False).encode("utf-8")
    st.download_button(t("download_csv"), csv, file_name=f"{name}.csv", mime="text/csv", key=f"csv_{name}")
    return list(event.selection.rows) if select else []


def _write_out_nulls(shown: pd.DataFrame, formats: dict[str, Callable[[Any], str]]) -> dict[str, pd.Series]:
    """Each column holding an empty cell, written as the reader sees it (its format, or as it is), with a dash
    for every empty cell."""
    written = {}
    for column in shown.columns:
        values = shown[column]
        if not values.isna().any():
            continue
        write = formats.get(column, str)
        written[column] = values.map(lambda v, write=write: "–" if _empty(v) else write(v))
    return written


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value) or value is pd.NA or value is pd.NaT


def few_cases_note(counts: pd.Series) -> None:
    """Warn when a figure shown rests on few cases (a count of 0 has no figure to warn about)."""
    counts = pd.to_numeric(counts, errors="coerce")
    counts = counts[counts > 0]
    if len(counts) and counts.min() < SMALL_COUNT:
        st.caption(f"⚠ {t('few_cases')} ({t('count_behind')}: {int(counts.min())})")


def enough_cases(frame: pd.DataFrame, count: str, label: str) -> pd.DataFrame:
    """The rows of a ranking whose figure rests on at least FEW_CASES cases (or none: no figure); those left
    out are named under the chart with their count, so that one contract at 100 % does not top a ranking."""
    counts = pd.to_numeric(frame[count], errors="coerce")
    few = counts.map(too_few)
    if few.any():
        names = ", ".join(f"{name} ({number(n, lang())})" for name, n in zip(frame.loc[few, label], counts[few],
                                                                             strict=True))
        st.caption(f"⚠ {t('left_out_few').format(unit=field_text(count, lang()).lower(), names=literal(names))}")
    return frame[~few]


def name_column(frame: pd.DataFrame) -> str:
    """The subjects' names in the reader's language, where the API gives both."""
    return "subjectNameEn" if lang() == "en" and "subjectNameEn" in frame else "subjectName"


def price_basis() -> int | None:
    """The sidebar's nominal / real-terms choice (`?prices=2024`); the base year, or None for nominal."""
    index, _ = guarded(data.price_index)
    years = [str(y) for y in sorted(index, reverse=True)]
    labels = {"nominal": t("nominal"), **{y: t("real_in").format(year=y) for y in years}}
    choice = choose("prices", ["nominal", *years], name="prices", labels=labels)
    return None if choice == "nominal" else int(choice)


def real_terms(frame: pd.DataFrame, columns: list[str], base_year: int | None) -> pd.DataFrame:
    """`frame` with `columns` in `base_year`'s prices (unchanged when nominal), and the note saying so."""
    if base_year is None:
        return frame
    index, through = guarded(data.price_index)
    shown = in_prices_of(frame, columns, index, base_year)
    st.caption(t("real_note").format(year=base_year, source=t("cpi_source"), through=month_text(through, lang())))
    uncovered = uncovered_years(frame["period"], index, base_year)
    st.caption(t("real_missing").format(years=", ".join(uncovered) or "–"))
    return shown


def keep(name: str, value: Any) -> None:
    st.query_params[name] = str(value)


def index_view(endpoint: str, dimensions: list[str]) -> tuple[str, str | None, pd.DataFrame]:
    """The dimension and subject pickers of an index endpoint, and its items for the choice (stops when empty)."""
    dimension = choose("dimension", dimensions, name="dimension")
    options = data.subject_options(dimension)
    subject = choose("subject", list(options), name="subject", labels=options) if options else None
    frame = guarded(lambda: data.index(endpoint, dimension, subject))
    empty = years.emptiness(guarded(data.datasets), endpoint)
    if frame.empty or empty is not None:
        st.info(said(empty) if empty is not None else t("no_items"))
        st.stop()
    return dimension, subject, frame


def said(empty: years.Emptiness) -> str:
    """Why a chart is empty, in the reader's words."""
    return t(empty.key).format(year=empty.year)


def span_of(endpoint: str) -> years.Span | None:
    """The complete years of an index endpoint, as the API's `/datasets` reports them."""
    return years.complete_span(guarded(data.datasets), endpoint)


def year_choice(endpoint: str, *, place: Any = None, name: str = "year", label: str = "map_year",
                default: str | None = None) -> str:
    """The year picker (`?year=`, or `name`): the release's years, newest first, partial ones marked, then
    every year pooled; it opens on `default`, or the latest complete year of the statistic."""
    release = guarded(data.datasets)
    span = years.complete_span(release, endpoint)
    periods = [str(y) for y in range(2019, int(release.get("latestYear") or 2019) + 1)]
    labels = {"all": t("all_years"),
              **{p: t("year_partial_option").format(year=p) for p in years.partial_years(periods, span)}}
    opening = default or years.default_year(periods, span, years.years_with_data(release, endpoint))
    return choose(label, [*reversed(periods), "all"], name=name, labels=labels, default=opening, place=place)


def year_notes(year: str, endpoint: str) -> None:
    """Under a chart of one year: whether that year is partial, or which partial years a pooled figure holds."""
    release = guarded(data.datasets)
    span = years.complete_span(release, endpoint)
    periods = [str(y) for y in range(2019, int(release.get("latestYear") or 2019) + 1)]
    empty = years.emptiness(release, endpoint, year)
    if empty is not None:
        st.info(said(empty))
    if year == "all":
        st.caption(t("map_all_note").format(years=", ".join(years.partial_years(periods, span)) or "–"))
    elif not years.is_complete(year, span):
        st.warning(t("map_partial_note").format(year=year), icon="⚠️")


def year_label(period: str, span: years.Span | None = None) -> str:
    """A year as a title names it: every year pooled in words, a partial year marked as such."""
    if period == "all":
        return t("all_years")
    return period if span is None or years.is_complete(period, span) else t("year_partial_option").format(year=period)


def subject_label(dimension: str, subject: str | None) -> str:
    """What the by-year charts are about: the subject picked, or Türkiye as a whole."""
    if not subject:
        return option_text("overall", lang())
    return data.subject_options(dimension).get(subject, subject)


def province_map(measures: list[str], *, base_year: int | None = None) -> str:
    """The choropleth of an index page broken down by province, with its measure and year pickers,
    the partial-year note and the boundaries' credit; returns the year chosen."""
    left, middle, right = st.columns(3)
    measure = measures[0] if len(measures) == 1 else choose(
        "map_measure", measures, name="measure", labels={m: t(f"map_{m}") for m in measures}, place=left)
    endpoint, denominator, kind, unit = MEASURES[measure]
    year = year_choice(endpoint, place=middle)
    # Amounts are skewed (one province can hold more than the rest together): classes show their spread.
    scale = choose("map_scale", list(charts.SCALES), name="scale", labels={s: t(f"scale_{s}") for s in charts.SCALES},
                   default="quantile" if kind == "money" else "linear", place=right)
    frame = guarded(lambda: data.index(endpoint, "province", period=year))
    if frame.empty:
        frame = pd.DataFrame(columns=["subject", measure, denominator])
    elif base_year is not None and kind == "money":
        index, _ = guarded(data.price_index)
        frame = in_prices_of(frame, [measure], index, base_year)
    title = t("map_title").format(measure=t(f"map_{measure}"), year=year_label(year, span_of(endpoint)))
    if base_year is not None and kind == "money":
        title += f" · {t('real_in').format(year=base_year)}"
    # A sum (the direct-procurement total) is not fragile on few cases the way a share or a median is.
    figure = charts.choropleth_figure(frame, data.province_paths(), value=measure, denominator=denominator,
                                      title=title, lang=lang(), kind=kind, unit=t(unit), scale=scale,
                                      mark_few=measure not in SUMS)
    st.plotly_chart(figure, width="stretch", config=PLOTLY_CONFIG)
    year_notes(year, endpoint)
    st.caption(t("boundaries_credit"))
    return year
