"""Page helpers shared by every page: language, URL state, errors, tables with CSV download."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

import pandas as pd
import streamlit as st

from dashboard import data
from dashboard.client import ApiError
from dashboard.i18n import LANGUAGES, option_text, text
from dashboard.prices import in_prices_of, uncovered_years

T = TypeVar("T")
SAFE_IN_URL = ":/?#@!$&'*+,;=%~-._"  # everything but spaces, brackets, quotes and angle brackets is kept
# Every ASCII punctuation mark that Markdown or Streamlit's extensions (colour directives, emoji
# shortcodes, LaTeX) give a meaning to; CommonMark lets a backslash make any of them literal.
MARKDOWN_MARKS = frozenset("\\`*_{}[]()#+-.!|<>~$:=^&\"'")
SMALL_COUNT = 30  # below this many cases a share is flagged as fragile


def literal(value: str) -> str:
    """Text from the API (headlines, summaries, company names) shown as written, never as Markdown or
    HTML: a document that carries a link, an image or a tag cannot make the page render it."""
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
           default: str | None = None, sidebar: bool = True) -> str:
    """A select box whose choice lives in the URL (`?name=value`), so a view can be shared as a link."""
    current = st.query_params.get(name, default if default is not None else options[0])
    index = options.index(current) if current in options else 0
    place = st.sidebar if sidebar else st
    shown = labels or {}
    value = place.selectbox(t(label_key), options, index=index, key=f"w_{name}",
                            format_func=lambda o: shown.get(o, option_text(o, lang())))
    st.query_params[name] = value
    return value


def guarded(read: Callable[[], T]) -> T:
    """The data, or the API's problem shown as a sentence and the page stopped."""
    try:
        return read()
    except ApiError as exc:
        st.error(exc.message)
        st.stop()
        raise


def table(frame: pd.DataFrame, *, name: str, columns: dict[str, str] | None = None) -> None:
    shown = frame.rename(columns=columns) if columns else frame
    # Grouped digits for people on screen; the CSV keeps plain numbers for spreadsheets.
    numbers = {c: st.column_config.NumberColumn(format="localized") for c in shown.select_dtypes("number").columns}
    st.dataframe(shown, hide_index=True, use_container_width=True, column_config=numbers)
    st.download_button(t("download_csv"), shown.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv",
                       mime="text/csv", key=f"csv_{name}")


def few_cases_note(counts: pd.Series) -> None:
    if len(counts) and counts.min() < SMALL_COUNT:
        st.caption(f"⚠ {t('few_cases')} ({t('count_behind')}: {int(counts.min())})")


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
    index, source = guarded(data.price_index)
    shown = in_prices_of(frame, columns, index, base_year)
    st.caption(t("real_note").format(year=base_year, source=source))
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
    if frame.empty:
        st.info(t("no_items"))
        st.stop()
    return dimension, subject, frame
