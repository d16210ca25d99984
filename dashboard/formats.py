"""Numbers, money, shares and times as a reader of each language writes them; no Streamlit here.

Turkish groups thousands with a dot and writes the decimal comma (1.234.567,89 ₺, %23,4); English
the other way round (TRY 1,234,567.89, 23.4%). Large amounts are shortened in words (1,2 milyar ₺,
TRY 1.2 billion). Times are shown in Türkiye's time, whatever the server's or the API's zone.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pandas as pd

from dashboard.i18n import text, unit_text

TURKIYE = ZoneInfo("Europe/Istanbul")
# (threshold, word) from the largest; amounts below the smallest are written in full.
SCALES: dict[str, tuple[tuple[float, str], ...]] = {
    "tr": ((1e12, "trilyon"), (1e9, "milyar"), (1e6, "milyon")),
    "en": ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")),
}
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = {"tr": ("Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim",
                      "Kasım", "Aralık"),
               "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December")}
# A cell starting with one of these is run as a formula by Excel, LibreOffice and Google Sheets
# (OWASP, "CSV Injection"); tab and carriage return start one too in some of them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Below this many cases a share, a mean or a distribution is not to be read on its own (the
# API gives no quantiles of a benchmark group of fewer tenders).
FEW_CASES = 5


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def number(value: float | None, lang: str, *, digits: int = 0) -> str:
    """Thousands grouped as people read them: 1.234.567,8 in Turkish, 1,234,567.8 in English."""
    if _missing(value):
        return "–"
    formatted = f"{value:,.{digits}f}"
    return formatted.translate(str.maketrans(",.", ".,")) if lang == "tr" else formatted


def _trimmed(value: float, lang: str, digits: int) -> str:
    """`value` with at most `digits` decimals and no trailing zeros (1,5 not 1,50; 2 not 2,0)."""
    text = f"{value:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.translate(str.maketrans(",.", ".,")) if lang == "tr" else text


def short_number(value: float | None, lang: str) -> str:
    """A large amount in words with three significant digits: 1,23 milyar / 1.23 billion; 845.000."""
    if _missing(value):
        return "–"
    for threshold, word in SCALES[lang]:
        if abs(value) >= threshold:
            scaled = value / threshold
            digits = 2 if abs(scaled) < 10 else 1 if abs(scaled) < 100 else 0
            return f"{_trimmed(scaled, lang, digits)} {word}"
    return number(value, lang)


def money(value: float | None, lang: str, *, digits: int = 2) -> str:
    """Turkish lira in full: 1.234.567,89 ₺ / TRY 1,234,567.89."""
    if _missing(value):
        return "–"
    amount = number(value, lang, digits=digits)
    return f"{amount} ₺" if lang == "tr" else f"TRY {amount}"


def short_money(value: float | None, lang: str) -> str:
    """Turkish lira shortened for cards and axes: 1,23 milyar ₺ / TRY 1.23 billion."""
    if _missing(value):
        return "–"
    amount = short_number(value, lang)
    return f"{amount} ₺" if lang == "tr" else f"TRY {amount}"


def share(value: float | None, lang: str, *, digits: int = 1) -> str:
    """A share as a percentage: %23,4 in Turkish (the sign first), 23.4% in English."""
    if _missing(value):
        return "–"
    percent = number(100 * value, lang, digits=digits)
    if lang == "tr":  # the sign before the percent sign: -%7,7 (a discount of an award above its estimate)
        return f"-%{percent[1:]}" if percent.startswith("-") else f"%{percent}"
    return f"{percent}%"


def points(value: float | None, lang: str) -> str:
    """A signed change of a share, in percentage points: +1,2 puan / +1.2 pp."""
    if _missing(value):
        return "–"
    # An ASCII minus: Streamlit's metric reads the sign of a change from its first character.
    sign = "+" if value > 0 else "-" if value < 0 else "±"
    amount = number(abs(100 * value), lang, digits=1)
    return f"{sign}{amount} puan" if lang == "tr" else f"{sign}{amount} pp"


def local_time(stamp: str | None, lang: str, *, with_time: bool = True) -> str:
    """An RFC 3339 time from the API in Türkiye's time: 16.09.2026 00:00 / 16 Sep 2026, 00:00."""
    if not stamp:
        return "–"
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if moment.tzinfo is None:  # the API writes UTC; a date-time without a zone is read as UTC
        moment = moment.replace(tzinfo=ZoneInfo("UTC"))
    moment = moment.astimezone(TURKIYE)
    if lang == "tr":
        day = moment.strftime("%d.%m.%Y")
    else:
        day = f"{moment.day} {MONTHS_EN[moment.month - 1]} {moment.year}"
    if not with_time:
        return day
    return f"{day} {moment:%H:%M}" if lang == "tr" else f"{day}, {moment:%H:%M}"


def month_text(month: str, lang: str) -> str:
    """A month of the API (`2025-12`) in words: Aralık 2025 / December 2025."""
    year, number_of_month = month.split("-")
    return f"{MONTH_NAMES[lang][int(number_of_month) - 1]} {year}"


def date_text(day: str | None, lang: str) -> str:
    """A calendar date of the API (`2026-11-21`, no time, no zone): 21.11.2026 / 21 Nov 2026."""
    if not day:
        return "–"
    value = date.fromisoformat(str(day)[:10])
    return value.strftime("%d.%m.%Y") if lang == "tr" else f"{value.day} {MONTHS_EN[value.month - 1]} {value.year}"


def nice_ticks(low: float, high: float, *, count: int = 5, zero: bool = True) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering [low, high] (and 0 with `zero`)."""
    if _missing(low) or _missing(high):
        return []
    if zero:
        low, high = min(low, 0.0), max(high, 0.0)
    if high == low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks, tick = [], first
    while tick <= high + step * 1e-9:
        ticks.append(round(tick, 12))
        tick += step
    if ticks[-1] < high:
        ticks.append(round(tick, 12))
    return ticks


def tick_label(value: float, lang: str, kind: str) -> str:
    """One axis or colour-bar label: shares as percentages, money and counts shortened in words."""
    if kind == "share":
        percent = _trimmed(100 * value, lang, 1)
        if lang == "tr":
            return f"-%{percent[1:]}" if percent.startswith("-") else f"%{percent}"
        return f"{percent}%"
    if kind == "money":
        return short_money(value, lang) if abs(value) >= 1e6 else money(value, lang, digits=0)
    return short_number(value, lang) if abs(value) >= 1e6 else _trimmed(value, lang, 2)


def value_text(value: float | None, lang: str, kind: str) -> str:
    """One value in a hover or a card: money in full, shares to one decimal, other figures grouped."""
    if kind == "share":
        return share(value, lang)
    if kind == "money":
        return money(value, lang)
    return number(value, lang, digits=0 if _missing(value) or float(value).is_integer() or abs(value) >= 100 else 2)


def counted(value: float | None, count: float | None, unit: str, lang: str, *, kind: str = "share",
            how: str = "of") -> str:
    """A figure with the count it rests on: a share "25.0% of 74 lots" (`how="of"`), a mean "19.5% over 28
    tenders" (`over`), any other figure "rests on 106 contracts" (`on`); in Turkish "%25,0 (74 kısım
    üzerinden)". With no case to rest on, says so instead of a figure."""
    n = 0 if _missing(count) else int(count or 0)
    noun = unit_text(unit, n, lang)
    if n == 0 or _missing(value):
        return text("counted_none", lang).format(unit=noun)
    return text(f"counted_{how}", lang).format(value=value_text(value, lang, kind), n=number(n, lang), unit=noun)


def too_few(count: float | None) -> bool:
    """A figure resting on at least one case but fewer than FEW_CASES."""
    return not _missing(count) and 0 < int(count or 0) < FEW_CASES


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose text cells cannot run as formulas in a spreadsheet: a leading =, +, -, @, tab or
    carriage return gets a quote in front (the cell then shows as text); numbers stay numbers."""
    def guard(value: object) -> object:
        return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value

    out = frame.copy()
    out.columns = [guard(str(c)) for c in out.columns]
    for column in out.columns:
        if out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(guard)
    return out
