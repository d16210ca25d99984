"""The mapping rules of the tender itself: the procedure from its text, the sector from the OKAS
codes (or the tender type when none is published), the tender type from its text or code."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from store.reference.lists import fold, procedures, sectors

# EKAP's tender types: `ihaleTip` codes and the text a notice prints ("1- İhalenin b) Türü").
TENDER_TYPES = {"1": "goods", "2": "works", "3": "services", "4": "consultancy"}
_TYPE_WORDS = (("mal", "goods"), ("yapim", "works"), ("hizmet", "services"), ("danismanlik", "consultancy"))
# Sector when no OKAS code is published: works are CPV division 45 (Yapım işleri) by definition;
# services go to CPV 98, the division of other services; consultancy under Law 4734 art. 4 is
# engineering, architecture and supervision, CPV 71. Goods have no such division: their name is
# read instead (loaders/ekap/goods.py).
FALLBACK_SECTOR_DIVISION = {"works": "45", "services": "98", "consultancy": "71"}
_EXCEPTION = re.compile(r"4734\s*/\s*3\s*[-/]?\s*\(?([a-zçğıöşü])\)?")
_NEGOTIATED = re.compile(r"pazarlik.*?(?:md|madde)?\.?\s*21\s*[-/]?\s*\(?([a-f])\)?")
_CODE = re.compile(r"(?<!\d)(\d{8,9})(?!\d)")
# EKAP's search answers the method as an untranslated key of its web front end
# (`TENDER_SEARCH.ENUMERATIONS.SEARCH_METHOD.OPEN`). The keys that name one procedure; BARGAIN
# (pazarlık) names no article of Law 4734 art. 21, DIRECT_PROCUREMENT and DIGER no tender
# procedure, so they stay unmapped.
_METHOD_KEY = re.compile(r"search_method\.([a-z_]+)")
METHOD_KEYS = {"open": "open", "among_certain_bidders": "restricted", "design_competition": "design-contest",
               "framework_agreement": "framework"}


@lru_cache(maxsize=1024)
def tender_type(text: str | None, code: object = None) -> str | None:
    """goods, works, services or consultancy, from EKAP's code or the printed text; None if neither reads."""
    if code is not None and str(code).strip() in TENDER_TYPES:
        return TENDER_TYPES[str(code).strip()]
    folded = fold(text or "")
    for word, kind in _TYPE_WORDS:
        if folded.startswith(word):
            return kind
    return None


@lru_cache(maxsize=1024)
def procedure_id(text: str | None) -> str | None:
    """The procedure id of a procedure text (`Açık`, `Pazarlık (MD 21 B)`, `4734 / 3-g`…); None if unknown."""
    folded = fold(text or "")
    if not folded:
        return None
    if match := _EXCEPTION.search(folded):
        candidate = f"exception-3{match.group(1)}"
        return candidate if candidate in procedures() else None
    if match := _NEGOTIATED.search(folded):
        return f"negotiated-21{match.group(1)}"
    if match := _METHOD_KEY.search(folded):
        return METHOD_KEYS.get(match.group(1))
    if folded.startswith("acik"):
        return "open"
    if folded.startswith("belli istekliler"):
        return "restricted"
    if folded.startswith("tasarim yarismasi"):
        return "design-contest"
    if folded.startswith("cerceve anlasma"):
        return "framework"
    return None


@cache
def _division_sector() -> dict[str, int]:
    return {division: s.id for s in sectors().values() for division in s.extra.split(";")}


def okas_codes(values: Sequence[object]) -> list[str]:
    """The OKAS codes among EKAP's values (`45233140`, `452132501 - …`, a comma-separated list)."""
    return [code for value in values for code in _CODE.findall(str(value))]


def sector_from_codes(codes: list[str]) -> int | None:
    """The sector of the CPV division (first two digits) most of the codes share; ties go to the
    division listed first. None when no code names a known division."""
    divisions = [_division_sector()[c[:2]] for c in codes if c[:2] in _division_sector()]
    if not divisions:
        return None
    return max(dict.fromkeys(divisions), key=divisions.count)


def sector_of_division(division: str) -> int | None:
    """The sector of a CPV division (`45`), or None when no sector covers it."""
    return _division_sector().get(division)


def fallback_sector(kind: str | None) -> int | None:
    division = FALLBACK_SECTOR_DIVISION.get(kind or "")
    return sector_of_division(division) if division else None
