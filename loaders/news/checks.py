"""The service's own checks of a model's answer: sentences, enumerations and number grounding."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import cache

import pycountry

# Words that end with a period without ending a sentence (compared in lower case, without the period).
ABBREVIATIONS = frozenset("""
u.s u.k e.u inc corp co ltd llc plc no nos vs v mr mrs ms dr prof sr jr st md mt ft jan feb mar apr jun jul aug
sep sept oct nov dec approx est fig e.g i.e etc al dept gov rep sen gen col lt sgt
a.ş a.s şti sti ltd.şti vb vs yy bkz md sk cad mah no tic san t.c dr doç doc prof av müh yrd
""".split())
UNITS = {
    "thousand": 3, "bin": 3, "k": 3, "million": 6, "milyon": 6, "mn": 6, "m": 6, "billion": 9, "milyar": 9, "bn": 9,
    "trillion": 12, "trilyon": 12, "tn": 12,
}
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "bir": 1, "iki": 2, "üç": 3, "dört": 4, "beş": 5, "altı": 6, "yedi": 7, "sekiz": 8,
    "dokuz": 9, "on": 10, "half": 0.5, "quarter": 0.25, "yarım": 0.5, "çeyrek": 0.25,
}
NUMBER = re.compile(
    r"(?<![\w.,])(?P<whole>\d+)-(?P<fn>\d)/(?P<fd>\d{1,2})(?![\d/])"      # 3-1/2
    r"|(?<![\w/])(?P<n>\d)/(?P<d>\d{1,2})(?![\d/])"                      # 1/4
    r"|(?P<num>\d+(?:[.,]\d+)*)(?:\s*(?P<unit>[A-Za-zçğıöşüÇĞİÖŞÜ]+))?"  # 1.250.000, 4,25, 1.5 billion
)


def split_sentences(text: str) -> list[str]:
    """Sentences of a summary; `4.25`, `U.S.`, `Inc.`, `No. 5`, `vs.`, `Md.`, `A.Ş.` and initials do not end one."""
    sentences, start = [], 0
    for match in re.finditer(r"[.!?…]+[\"”’)]*\s+(?=[\"“(]?[A-ZÇĞİÖŞÜ0-9%])", text):
        before = text[start:match.start() + 1]
        word = re.search(r"([\w.]+)\.?$", before.rstrip(".!?…\"”’) ") + ".")
        token = word.group(1).lower().rstrip(".") if word else ""
        if match.group().startswith(".") and (token in ABBREVIATIONS or re.fullmatch(r"[a-zçğıöşü]", token)
                                               or re.fullmatch(r"(\w\.)+\w", token)):
            continue
        sentences.append(text[start:match.end()].strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _readings(raw: str) -> set[Decimal]:
    """Every value a written number can mean in English or Turkish: `1,250` is 1250 or 1.25."""
    readings: set[Decimal] = set()
    separators = re.findall(r"[.,]", raw)
    if not separators:
        readings.add(Decimal(raw))
        return readings
    groups = re.split(r"[.,]", raw)
    if len(set(separators)) == 1:
        sep = separators[0]
        if all(len(g) == 3 for g in groups[1:]):
            readings.add(Decimal("".join(groups)))  # thousands grouping, either convention
        if len(separators) == 1:
            readings.add(Decimal(raw.replace(sep, ".")))  # one decimal mark, either convention
    else:
        decimal_mark = separators[-1]
        thousands = raw[: raw.rfind(decimal_mark)].replace("." if decimal_mark == "," else ",", "")
        if "." not in thousands and "," not in thousands:
            readings.add(Decimal(thousands + "." + groups[-1]))
    return {r for r in readings if r is not None}


def _key(value: Decimal) -> str:
    return format(value.quantize(Decimal("0.000001")).normalize(), "f")


def number_values(text: str, *, with_words: bool = False) -> list[set[str]]:
    """For each number written in `text`, the set of values it may stand for (normalised strings).

    A unit word multiplies (`1.5 billion`, `2,5 milyar`), basis points also read as percentage points,
    and fractions (`3-1/2`, `1/4`) as decimals. With `with_words`, number words (`nine`, `dokuz`) count.
    """
    found: list[set[str]] = []
    for match in NUMBER.finditer(text):
        values: set[Decimal] = set()
        if match.group("whole"):
            values.add(Decimal(match.group("whole")) + Decimal(match.group("fn")) / Decimal(match.group("fd")))
        elif match.group("n"):
            values.add(Decimal(match.group("n")) / Decimal(match.group("d")))
        else:
            base = _readings(match.group("num"))
            unit = (match.group("unit") or "").lower()
            values |= base
            if unit in UNITS:
                values |= {v * (Decimal(10) ** UNITS[unit]) for v in base}
            if unit in ("bps", "bp", "basis", "baz"):
                values |= {v / 100 for v in base}
        found.append({_key(v) for v in values})
    if with_words:
        for word in re.findall(r"[A-Za-zçğıöşüÇĞİÖŞÜ]+", text):
            value = WORD_NUMBERS.get(word.lower())
            if value is not None:
                found.append({_key(Decimal(str(value)))})
    return found


def ungrounded_numbers(generated: str, document: str) -> list[str]:
    """Numbers of the generated text that cannot be found in the document, as written."""
    known: set[str] = set().union(*number_values(document, with_words=True)) if document else set()
    known |= {_key(v * 100) for v in map(Decimal, list(known))}  # 0.25 in the text, 25% in the summary
    missing = []
    for match, values in zip(NUMBER.finditer(generated), number_values(generated), strict=True):
        if not values & known:
            missing.append(match.group(0).strip())
    return missing


@cache
def country_codes() -> frozenset[str]:
    return frozenset(c.alpha_2 for c in pycountry.countries)
