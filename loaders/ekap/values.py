"""Values as EKAP prints them: Turkish amounts (`29.163.718,39 TRY`), counts and dates."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

# The Turkish lira as notices and records write it; any other code is a foreign currency.
LIRA = frozenset({"TRY", "TL", "₺", "YTL"})
_AMOUNT = re.compile(r"(?P<number>\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)\s*(?P<currency>[A-Z]{2,3}|₺)?")
_HTML_RESIDUE = re.compile(r"<!--|-->")
_SPACES = re.compile(r"\s+")


def clean_text(value: str | None) -> str:
    """Text as published with its layout noise removed: no-break and repeated spaces, `**` marks,
    the `-->` left over from an HTML comment."""
    if value is None:
        return ""
    text = str(value)
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    if "**" in text:
        text = text.replace("**", "")
    if "--" in text:
        text = _HTML_RESIDUE.sub(" ", text)
    # \s covers the no-break spaces (U+00A0, U+202F) a notice's HTML carries.
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class Amount:
    """A parsed amount: `value` is exact; `currency` is the code printed (TRY when none is)."""

    value: Decimal
    currency: str

    @property
    def in_lira(self) -> bool:
        return self.currency in LIRA


def parse_amount(text: str | None) -> Amount | None:
    """`8.313.805,64 TRY` -> 8313805.64 TRY; None for an empty cell; ValueError for anything else.

    "." separates thousands and "," decimals, as Turkish notation does; a number with "." but not
    in groups of three (`1.5`) is refused rather than guessed at."""
    cleaned = clean_text(text)
    if not cleaned:
        return None
    match = _AMOUNT.fullmatch(cleaned.replace(" ", "") if "₺" in cleaned else cleaned)
    if match is None:
        raise ValueError(f"not an amount in Turkish notation: {cleaned!r}")
    number = match.group("number").replace(".", "").replace(",", ".")
    currency = match.group("currency") or "TRY"
    return Amount(Decimal(number), "TRY" if currency in LIRA else currency)


# The release's amounts (loaders/procurement/validate.py): at most 15 digits before the decimal
# mark and 6 after it.
MAX_AMOUNT = Decimal(10) ** 15


def amount_fits(value: Decimal) -> bool:
    """Whether an amount can be written in a release without the loader refusing it."""
    return 0 <= value < MAX_AMOUNT and -value.as_tuple().exponent <= 6 if value.is_finite() else False


def parse_count(text: str | None) -> int | None:
    """A whole number of bids; None for an empty cell; ValueError for anything else."""
    cleaned = clean_text(text)
    if not cleaned:
        return None
    if not cleaned.isdigit():
        raise ValueError(f"not a whole number: {cleaned!r}")
    return int(cleaned)


_DOTTED = re.compile(r"(\d{1,2})[./](\d{1,2})[./](\d{4})(?:[ T]+\d{1,2}:\d{2}(?::\d{2})?)?")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?")


def parse_date(value: object) -> date | None:
    """`22.07.2026`, `22.07.2026 10:00` or ISO 8601 (`2026-07-22T10:00:00`); None when empty,
    ValueError when it is not a date."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date()
    cleaned = clean_text(str(value))
    if not cleaned:
        return None
    try:
        if match := _DOTTED.fullmatch(cleaned):
            day, month, year = (int(g) for g in match.groups())
            return date(year, month, day)
        if match := _ISO.fullmatch(cleaned):
            year, month, day = (int(g) for g in match.groups())
            return date(year, month, day)
    except ValueError as exc:
        raise ValueError(f"not a calendar date: {cleaned!r}") from exc
    raise ValueError(f"not a date (DD.MM.YYYY or ISO 8601): {cleaned!r}")
