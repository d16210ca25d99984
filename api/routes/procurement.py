"""/v1/public-procurement: reference lists, the served release, and the statistics endpoints."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from flask import Blueprint, g

from api.areas import Area
from api.db import db_session, forget_failed_read
from api.operations import Reply, json_body
from api.params import Param, Values, enum_param, paging, string_param
from api.transport.paging import finish_page, page_envelope
from store.errors import StoreError
from store.items import COVERAGE, INDEX_KINDS, KINDS, PROVINCE_SECTORS, SUPPLY_FLOWS, ItemKind
from store.reference.coverage import COMPLETE_YEARS
from store.reference.dimensions import INDEX_DIMENSIONS
from store.reference.lists import (
    provinces,
    resolve_authority_type,
    resolve_procedure,
    resolve_province,
    resolve_sector,
    sectors,
)
from store.releases import get_active_release, list_items
from store.times import format_utc

NO_RELEASE = "none"
FIRST_YEAR = 2019  # the source's first year (public-procurement-api.md, "General facts" 3)
area = Area(Blueprint("procurement", __name__, url_prefix="/v1/public-procurement"), "Public procurement",
            api="public-procurement",
            data_version=lambda caller: f"release-{caller.release_id}" if caller.release_id else NO_RELEASE)

PROVINCE_HELP = ("Plate code (`6` or `06`) or name, in any case, with or without Turkish letters (`İstanbul`, "
                 "`istanbul`); the list gives the plate codes, the official names and their ASCII forms.")
SECTOR_HELP = ("Sector id from /sectors, or its Turkish or English name, in any case, with or without Turkish "
               "letters.")


def _listed(param: Param, values: list[str]) -> Param:
    """The parameter with its canonical values as the alternatives of a pattern (the resolver also takes
    other cases and spellings). Not an enum: `Adana` and `adana` would be one member name in a generated
    client, which refuses to build."""
    alternatives = "|".join(re.sub(r"([\\^$.|?*+()\[\]{}/])", r"\\\1", v) for v in dict.fromkeys(values))
    return replace(param, schema={**param.schema, "pattern": f"^({alternatives})$"})


# Plate codes with and without the leading zero, the official names and their ASCII forms.
PROVINCE_VALUES = ([str(plate) for plate in provinces()] + [f"{plate:02d}" for plate in provinces() if plate < 10]
                   + [p.name for p in provinces().values()] + [p.ascii_name for p in provinces().values()])
SECTOR_VALUES = ([str(s.id) for s in sectors().values()] + [s.name_tr for s in sectors().values()]
                 + [s.name_en for s in sectors().values()])


def _province(name: str, what: str) -> Param:
    return _listed(string_param(name, f"{what} {PROVINCE_HELP}", resolve_province), PROVINCE_VALUES)


def _sector(description: str) -> Param:
    return _listed(string_param("sector", description, resolve_sector), SECTOR_VALUES)


SUBJECT_RESOLVERS = {"province": resolve_province, "sector": resolve_sector,
                     "authority-type": resolve_authority_type, "procedure": resolve_procedure}


def _period_schema() -> dict[str, Any]:
    """The years the release served covers, and `all`: the exact set `check_subject_and_period` accepts."""
    try:
        release = _release()
    except StoreError:
        # The document is served while the store is away; the pattern then describes the years.
        forget_failed_read()
        return PERIOD.schema
    latest = release.latest_year if release else FIRST_YEAR
    return {"type": "string", "enum": [str(year) for year in range(FIRST_YEAR, latest + 1)] + ["all"]}


PERIOD = replace(string_param("period", "A year from 2019 to the latest year of the release served, or `all` "
                              "(every year pooled); the list follows the release served. Default: every year and "
                              "`all`.", pattern="^([0-9]{4}|all)$", pattern_message="must be a four-digit year or all"),
                 current_schema=_period_schema)
SUBJECT = string_param("subject", "One subject of the dimension: a province (plate code or name), a sector (id or "
                       "name), an authority-type id or a procedure id. Not allowed with `dimension=overall`. "
                       "Default: every subject.")


def _release():
    """The release served, read once per request."""
    if "active_release" not in g:
        g.active_release = get_active_release(db_session())
    return g.active_release


def check_subject_and_period(values: dict[str, Any]) -> list[dict[str, str]]:
    """Resolve `subject` for its dimension and bound `period` by the release served (decisions.md)."""
    errors = []
    dimension = values["dimension"]
    if values.get("subject") is not None:
        if dimension == "overall":
            errors.append({"parameter": "subject", "message": "not allowed with dimension=overall"})
        else:
            try:
                values["subject"] = str(SUBJECT_RESOLVERS[dimension](values["subject"]))
            except ValueError as exc:
                errors.append({"parameter": "subject", "message": str(exc)})
    period = values.get("period")
    if period is not None and period != "all":
        release = _release()
        latest = release.latest_year if release else FIRST_YEAR
        if not (period.isdigit() and FIRST_YEAR <= int(period) <= latest):
            errors.append({"parameter": "period", "message": f"must be a year from 2019 to {latest}, or all"})
    return errors


def check_cursor_release(values: dict[str, Any]) -> list[dict[str, str]]:
    """A cursor's positions belong to the release it was issued for."""
    cursor = values.get("cursor")
    if cursor is not None and (_release() is None or cursor.position[0] != _release().id):
        return [{"parameter": "cursor", "message": "a new release is served since this cursor was issued; "
                 "start again without cursor"}]
    return []


MAX_POSITION = 2**31 - 1  # release ids and item positions are 32-bit integer columns


def _is_release_position(position: Any) -> bool:
    return (isinstance(position, list) and len(position) == 2
            and all(type(x) is int and 0 <= x <= MAX_POSITION for x in position))


PAGING = paging(_is_release_position)


def check_scope(kind: str):
    """top-authorities / top-contractors: exactly one of province or sector, and a method that fits it."""
    province_methods = {"top-authorities": ["tender", "direct"], "top-contractors": ["tender", "direct", "headquartered"]}[kind]

    def check(values: dict[str, Any]) -> list[dict[str, str]]:
        has_province, has_sector = values.get("province") is not None, values.get("sector") is not None
        if has_province == has_sector:
            message = "give exactly one of province or sector"
            return [{"parameter": "province", "message": message}, {"parameter": "sector", "message": message}]
        allowed = province_methods if has_province else ["tender"]
        if values["method"] not in allowed:
            scope = "a province" if has_province else "a sector"
            return [{"parameter": "method", "message": f"with {scope} the method must be one of: {', '.join(allowed)}"}]
        return []

    return check


def page(kind: ItemKind, keys: dict[str, Any], values: Values, *,
         alternative_order: bool = False) -> Reply:
    """One page of a statistics endpoint from the release served, with a cursor bound to release and filters."""
    release = _release()
    if release is None:
        return Reply(page_envelope([], 0, None), NO_RELEASE)
    after = values["cursor"].position[1] if values.get("cursor") is not None else None
    rows, total = list_items(db_session(), release_id=release.id, kind=kind, keys=keys, after=after,
                             limit=values["limit"] + 1, alternative_order=alternative_order)
    body = finish_page(rows, total, values, position=lambda seq: [release.id, seq])
    return Reply(body, f"release-{release.id}")


def index_params(kind: str) -> tuple[Param, ...]:
    dimension = enum_param("dimension", INDEX_DIMENSIONS[kind], "What to break the statistics down by.", "overall")
    return (dimension, SUBJECT, PERIOD, *PAGING)


INDEX_CHECKS = (check_subject_and_period, check_cursor_release)


def index_page(kind: ItemKind, values: Values) -> Reply:
    keys = {name: values[name] for name in ("dimension", "subject", "period")}
    return page(kind, keys, values)


@area.get("/competition-indices", cost=1, params=index_params("competition"), checks=INDEX_CHECKS,
          response_schema="CompetitionIndexPage")
def list_competition_indices(values: dict[str, Any]) -> Reply:
    """Competition indices per dimension, subject and period
    Number of tenders, single-bid shares (with their denominator `lotsWithBids`), average lots and
    average discount against the estimated cost."""
    return index_page(INDEX_KINDS["competition"], values)


@area.get("/concentration-indices", cost=1, params=index_params("concentration"), checks=INDEX_CHECKS,
          response_schema="ConcentrationIndexPage")
def list_concentration_indices(values: dict[str, Any]) -> Reply:
    """Concentration of contract winners
    Contracts, firms, CR1/CR4/CR10 value shares and the Herfindahl-Hirschman index (0 to 10,000)."""
    return index_page(INDEX_KINDS["concentration"], values)


@area.get("/direct-procurement-indices", cost=1, params=index_params("direct"), checks=INDEX_CHECKS,
          response_schema="DirectProcurementIndexPage")
def list_direct_indices(values: dict[str, Any]) -> Reply:
    """Direct procurement (doğrudan temin) amount distribution
    Purchases, median, mean, total, p95, p99, largest and the largest purchase's share, in nominal TRY.
    2025 is the reference year."""
    return index_page(INDEX_KINDS["direct"], values)


@area.get("/localization-indices", cost=1, params=index_params("localization"), checks=INDEX_CHECKS,
          response_schema="LocalizationIndexPage")
def list_localization_indices(values: dict[str, Any]) -> Reply:
    """Share of contracts won by suppliers from the authority's own province
    By count and by value, over awarded lots whose contractor has a known province."""
    return index_page(INDEX_KINDS["localization"], values)


PROVINCE_SECTOR_PARAMS = (
    _province("province", "Province of the buying authorities."),
    _sector(SECTOR_HELP),
    enum_param("sort", ["amount", "tenders"], "Order, descending; ties by province then sector.", "amount"),
    *PAGING,
)


@area.get("/province-sectors", cost=1, params=PROVINCE_SECTOR_PARAMS, checks=[check_cursor_release],
          response_schema="ProvinceSectorPage")
def list_province_sectors(values: dict[str, Any]) -> Reply:
    """Tender volume per province and sector, every year pooled
    Tenders, value of awarded lots, and the parts won by local and by other suppliers. Cells whose tenders
    have no awarded lot have null amounts and sort after every amount."""
    keys = {name: values[name] for name in PROVINCE_SECTORS.keys}
    return page(PROVINCE_SECTORS, keys, values, alternative_order=values["sort"] == "tenders")


FLOW_PARAMS = (_province("buyerProvince", "Province of the buying authorities."),
               _province("supplierProvince", "Province of the suppliers' head offices."), *PAGING)


@area.get("/supply-flows", cost=1, params=FLOW_PARAMS, checks=[check_cursor_release],
          response_schema="SupplyFlowPage")
def list_supply_flows(values: dict[str, Any]) -> Reply:
    """Contracts from authorities of one province to suppliers of another or the same province
    Every year pooled, largest amount first; ties by buyer then supplier province."""
    keys = {name: values[name] for name in SUPPLY_FLOWS.keys}
    return page(SUPPLY_FLOWS, keys, values)


def ranking_params(methods: list[str]) -> tuple[Param, ...]:
    return (_province("province", "Give this or `sector`."), _sector(f"{SECTOR_HELP} Give this or `province`."),
            enum_param("method", methods, "How the amount was awarded; only `tender` goes with a sector.", "tender"),
            *PAGING)


def ranking_page(kind: ItemKind, values: Values) -> Reply:
    scope = "province" if values["province"] is not None else "sector"
    return page(kind, {"scope": scope, "scopeId": values[scope], "method": values["method"]}, values)


@area.get("/top-authorities", cost=1, params=ranking_params(["tender", "direct"]),
          checks=[check_scope("top-authorities"), check_cursor_release], response_schema="TopAuthorityPage")
def list_top_authorities(values: dict[str, Any]) -> Reply:
    """The ten authorities that awarded the most by value
    In a province (tenders, or `direct` purchases) or in a sector (tenders); ties by id. `limit` pages
    within the ten."""
    return ranking_page(KINDS["top-authorities"], values)


@area.get("/top-contractors", cost=1, params=ranking_params(["tender", "direct", "headquartered"]),
          checks=[check_scope("top-contractors"), check_cursor_release], response_schema="TopContractorPage")
def list_top_contractors(values: dict[str, Any]) -> Reply:
    """The ten contractors with the most value
    Won from authorities of a province or in a sector (tenders), by direct purchase in a province, or
    (`headquartered`) firms based in a province by everything they won anywhere."""
    return ranking_page(KINDS["top-contractors"], values)


def complete_years() -> dict[str, dict[str, int]]:
    """Per index endpoint, the first and last year the source covers completely (store/reference/coverage.py)."""
    return {kind: {"from": first, "to": last} for kind, (first, last) in COMPLETE_YEARS.items()}


@area.get("/datasets", cost=0, response_schema="Datasets")
def get_datasets(values: dict[str, Any]) -> Reply:
    """The release served: its week, when it was loaded, whether it is synthetic, and its source datasets
    Each dataset with its row count and the citation its publisher asks for. `completeYears` gives, per
    index endpoint, the years the source covers completely; other years are partial and should not be
    compared with complete ones. `coverage` says what the release itself holds: the years it has
    records of, with their counts, and how many awarded lots carry the fields the statistics rest on.
    Before the first release is loaded the release fields are null and `datasets` is empty."""
    release = _release()
    if release is None:
        empty = {"release": None, "releaseId": None, "publishedAt": None, "loadedAt": None, "synthetic": None,
                 "latestYear": None, "completeYears": complete_years(), "coverage": None, "datasets": []}
        return Reply(json_body(empty), NO_RELEASE)
    body = {
        "release": release.name, "releaseId": release.id, "publishedAt": format_utc(release.published_at),
        "loadedAt": format_utc(release.loaded_at), "synthetic": release.synthetic, "latestYear": release.latest_year,
        "completeYears": complete_years(),
        "coverage": _coverage(release.id),
        "datasets": [{"name": d.name, "file": d.file, "rows": d.rows, "citation": d.citation, "url": d.url}
                     for d in release.datasets],
    }
    return Reply(json_body(body), f"release-{release.id}")


def _coverage(release_id: int) -> dict[str, Any] | None:
    """What the release holds, computed at load time; null for a release loaded before it was."""
    rows, _ = list_items(db_session(), release_id=release_id, kind=COVERAGE, keys={}, after=None, limit=1)
    return json.loads(rows[0][1]) if rows else None

