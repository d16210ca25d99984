"""The reference lists and the one set of rules for matching a province, sector, authority-type or
procedure reference."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from store.reference.folding import fold

DATA_DIR = Path(__file__).parent / "data"
BOUNDARIES_FILE = "tr-provinces.geojson"
BOUNDARIES_CREDIT = "Province boundaries: Natural Earth (public domain). Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com."


@dataclass(frozen=True)
class Province:
    plate: int
    name: str
    ascii_name: str
    capital: str
    latitude: float  # a representative point inside the province (data/README.md)
    longitude: float


@dataclass(frozen=True)
class Named:
    """A sector, authority type or procedure: an id with a Turkish and an English name."""

    id: int | str
    name_tr: str
    name_en: str
    extra: str = ""


def _read(name: str) -> list[dict[str, str]]:
    with open(DATA_DIR / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@cache
def provinces() -> dict[int, Province]:
    return {
        int(r["plate"]): Province(int(r["plate"]), r["name"], r["ascii_name"], r["capital"], float(r["latitude"]),
                                  float(r["longitude"]))
        for r in _read("provinces.csv")
    }


@cache
def province_boundaries() -> bytes:
    """The 81 provinces' boundaries as GeoJSON (Natural Earth, public domain; data/README.md)."""
    return (DATA_DIR / BOUNDARIES_FILE).read_bytes()


@cache
def sectors() -> dict[int, Named]:
    return {int(r["id"]): Named(int(r["id"]), r["name_tr"], r["name_en"], r["cpv_divisions"]) for r in _read("sectors.csv")}


@cache
def authority_types() -> dict[str, Named]:
    return {r["id"]: Named(r["id"], r["name_tr"], r["name_en"]) for r in _read("authority_types.csv")}


@cache
def procedures() -> dict[str, Named]:
    return {r["id"]: Named(r["id"], r["name_tr"], r["name_en"], r["legal_basis"]) for r in _read("procedures.csv")}


@cache
def _province_names() -> dict[str, int]:
    return {fold(p.name): p.plate for p in provinces().values()}


@cache
def _sector_names() -> dict[str, int]:
    names = {}
    for s in sectors().values():
        names[fold(s.name_tr)] = s.id
        names[fold(s.name_en)] = s.id
    return names


def resolve_province(ref: str) -> int:
    """Plate code (`6`, `06`) or name in any case and with or without Turkish letters; ValueError if unknown."""
    text = ref.strip()
    if text.isdigit() and len(text) <= 3:
        if int(text) in provinces():
            return int(text)
        raise ValueError(f"no province with plate code {text!r}; plate codes run from 1 to 81")
    plate = _province_names().get(fold(text))
    if plate is None:
        raise ValueError(f"no province named {ref!r}")
    return plate


def resolve_sector(ref: str) -> int:
    """Sector id or its Turkish or English name, matched like province names; ValueError if unknown."""
    text = ref.strip()
    if text.isdigit() and len(text) <= 3:
        if int(text) in sectors():
            return int(text)
        raise ValueError(f"no sector with id {text!r}; ids run from 1 to {len(sectors())}")
    sector = _sector_names().get(fold(text))
    if sector is None:
        raise ValueError(f"no sector named {ref!r}")
    return sector


def resolve_authority_type(ref: str) -> str:
    if ref in authority_types():
        return ref
    raise ValueError(f"no authority type {ref!r}; known: {', '.join(authority_types())}")


def resolve_procedure(ref: str) -> str:
    if ref in procedures():
        return ref
    raise ValueError(f"no procedure {ref!r}; known: {', '.join(procedures())}")
