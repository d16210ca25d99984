"""/v1/public-procurement reference lists, free of charge: provinces and their boundaries, sectors,
authority types, procedures and the consumer price index."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint

from api.areas import Area
from api.operations import Reply, json_body
from api.transport.paging import page_envelope
from store.reference.flags import red_flags
from store.reference.lists import (
    BOUNDARIES_CREDIT,
    authority_types,
    procedures,
    province_boundaries,
    provinces,
    sectors,
)
from store.reference.prices import covers_through, december_cpi, published_changes
from store.reference.prices import source as price_source

# The lists ship with the package: a new version of it is the only thing that changes them.
REFERENCE_VERSION = "reference-3"
area = Area(Blueprint("procurement_reference", __name__, url_prefix="/v1/public-procurement"), "Reference lists",
            api="public-procurement")


def _collection(items: list[dict[str, Any]], **extra: Any) -> Reply:
    body = page_envelope([json_body(item) for item in items], len(items), None)
    if extra:
        body = body[:-1] + "," + json_body(extra)[1:]
    return Reply(body, REFERENCE_VERSION)


@area.get("/provinces", cost=0, response_schema="ProvincePage")
def list_provinces(values: dict[str, Any]) -> Reply:
    """The 81 provinces: plate code, official name, ASCII form and a representative point
    The point lies inside the province (a map label or the end of a supply-flow line); province
    parameters accept the plate code or the name in any case, with or without Turkish letters."""
    return _collection([{"plate": p.plate, "name": p.name, "asciiName": p.ascii_name, "capital": p.capital,
                         "latitude": p.latitude, "longitude": p.longitude} for p in provinces().values()])


@area.get("/provinces/boundaries", cost=0, response_schema="ProvinceBoundaries", media_type="application/geo+json")
def get_province_boundaries(values: dict[str, Any]) -> Reply:
    """The provinces' boundaries as GeoJSON, one feature per province with `plate` and `name`
    Natural Earth 1:10m, public domain, simplified with shared borders (about 0.5 km). Exterior rings
    run clockwise, the order Plotly's and d3's geo projections expect; reverse them for a strict
    RFC 7946 reader. `attribution` holds the credit to show with a map."""
    collection = json.loads(province_boundaries())
    collection["attribution"] = BOUNDARIES_CREDIT
    return Reply(json_body(collection), REFERENCE_VERSION)


@area.get("/sectors", cost=0, response_schema="SectorPage")
def list_sectors(values: dict[str, Any]) -> Reply:
    """The 43 sectors with ids, Turkish and English names and the CPV divisions each covers"""
    return _collection([{"id": s.id, "nameTr": s.name_tr, "nameEn": s.name_en, "cpvDivisions": s.extra.split(";")}
                        for s in sectors().values()])


@area.get("/authority-types", cost=0, response_schema="AuthorityTypePage")
def list_authority_types(values: dict[str, Any]) -> Reply:
    """The kinds of buying authority, with ids and Turkish and English names"""
    return _collection([{"id": t.id, "nameTr": t.name_tr, "nameEn": t.name_en} for t in authority_types().values()])


@area.get("/procedures", cost=0, response_schema="ProcedurePage")
def list_procedures(values: dict[str, Any]) -> Reply:
    """Tender procedures (and awards under Law 4734 exceptions), with ids, names and legal basis
    The ids are the `subject` values of `dimension=procedure` in competition-indices."""
    return _collection([{"id": p.id, "nameTr": p.name_tr, "nameEn": p.name_en, "legalBasis": p.extra}
                        for p in procedures().values()])


@area.get("/price-index", cost=0, response_schema="PriceIndexPage")
def list_price_index(values: dict[str, Any]) -> Reply:
    """Türkiye's consumer price index, December of each year (2003=100)
    For amounts in real terms: an amount of year Y in the prices of December of year B is
    amount × index(B) / index(Y). `source` names the publisher's series; `coversThrough` is the last
    month the index covers (December of its last year): amounts of later years have no real-terms value."""
    changes = published_changes()
    return _collection([{"year": year, "decemberIndex": level, "decemberChangePercent": changes[year]}
                        for year, level in sorted(december_cpi().items())], source=price_source(),
                       coversThrough=covers_through())


@area.get("/red-flags", cost=0, response_schema="RedFlagPage")
def list_red_flags(values: dict[str, Any]) -> Reply:
    """The red flags an award can carry: ids, names, rules, anchors and thresholds
    Each is computed when a release is loaded, from the release alone (docs/awards-and-flags.md): an
    award's `flags` and the `flag` filter of /awards use these ids."""
    return _collection(red_flags())
