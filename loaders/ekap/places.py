"""Provinces as EKAP gives them: an upper-case name (`İSTANBUL`), EKAP's own province id (245–325),
the last `İLÇE/İL` of a contractor's address, or a provincial unit's name."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from loaders.ekap.names import turkish_lower
from store.reference.lists import fold, provinces

EKAP_FIRST_PROVINCE_ID = 245
# Names in use before the official ones (Mersin was İçel until 2002); matched like official names.
ALIASES = {"icel": 33, "afyon": 3}
_TURKISH_ORDER = "abcçdefgğhıijklmnoöprsştuüvyz"
_PAIR = re.compile(r"([^\s/]+)\s*/\s*([^\s/,.;()]+)")
# A provincial unit names its province first: `MERSİN İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ`, `HATAY ORMAN
# BÖLGE MÜDÜRLÜĞÜ`, `ANKARA VALİLİĞİ`, `KONYA BÜYÜKŞEHİR BELEDİYESİ`, `BURSA İL ÖZEL İDARESİ`.
_UNIT_WORDS = ("il", "valiligi", "buyuksehir belediyesi", "belediyesi", "orman bolge mudurlugu")


def _turkish_sort_key(name: str) -> list[int]:
    return [_TURKISH_ORDER.find(c) if c in _TURKISH_ORDER else 100 + ord(c) for c in turkish_lower(name)]


@cache
def ekap_province_ids() -> dict[int, int]:
    """EKAP's province id -> plate code: EKAP numbers the 81 provinces 245–325 in Turkish
    alphabetical order (ADANA 245, HATAY 281, İSTANBUL 284, MERSİN 302, ZONGULDAK 325)."""
    ordered = sorted(provinces().values(), key=lambda p: _turkish_sort_key(p.name))
    return {EKAP_FIRST_PROVINCE_ID + i: p.plate for i, p in enumerate(ordered)}


@cache
def _names() -> dict[str, int]:
    names = {fold(p.name): p.plate for p in provinces().values()}
    return {**names, **ALIASES}


@lru_cache(maxsize=4096)
def province_from_name(name: str) -> int | None:
    """A province written out, in any case, with or without Turkish letters; None when unknown."""
    return _names().get(fold(name)) if name else None


def province_from_id(value: object) -> int | None:
    """EKAP's own province id (245–325); None for anything else (a plate code is not EKAP's)."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return None
    return ekap_province_ids().get(number)


@lru_cache(maxsize=262_144)  # a firm prints the same address in every notice
def province_from_address(address: str) -> int | None:
    """The province of the last `İLÇE/İL` pair of an address whose second part is a province."""
    for _district, province in reversed(_PAIR.findall(address or "")):
        plate = province_from_name(province)
        if plate is not None:
            return plate
    return None


@cache
def _unit_pattern() -> re.Pattern[str]:
    names = sorted(_names(), key=len, reverse=True)
    return re.compile(r"(?:^|\s)(" + "|".join(map(re.escape, names)) + r")\s+(?:" +
                      "|".join(map(re.escape, _UNIT_WORDS)) + r")(?:\s|$)")


@cache
def _region_pattern() -> re.Pattern[str]:
    # A numbered regional directorate prints its seat after the number: `14.BÖLGE İSTANBUL`.
    names = sorted(_names(), key=len, reverse=True)
    return re.compile(r"\d+\s*\.?\s*bolge\s+(" + "|".join(map(re.escape, names)) + r")(?:\s|$)")


@lru_cache(maxsize=65_536)
def province_from_unit_name(name: str) -> int | None:
    """The province a provincial unit or a numbered regional directorate names; None when none or
    more than one is named."""
    folded = fold(name or "")
    found = {_names()[m.group(1)] for pattern in (_unit_pattern(), _region_pattern())
             for m in pattern.finditer(folded)}
    return found.pop() if len(found) == 1 else None
