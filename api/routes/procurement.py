"""/v1/public-procurement: reference lists, the served release, and the statistics endpoints."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint

from api.areas import Area
from api.db import db_session
from api.operations import Reply, json_body
from api.params import Param, Values, enum_param, string_param
from api.routes.release_params import (
    NO_RELEASE,
    PAGING,
    PERIOD,
    SECTOR_HELP,
    check_cursor_release,
    check_period,
    no_release_page,
    province_param,
    release_version,
    sector_param,
    served_release,
)
from api.transport.paging import finish_page
from store.items import COVERAGE, INDEX_KINDS, KINDS, PROVINCE_SECTORS, SUPPLY_FLOWS, ItemKind
from store.reference.coverage import COMPLETE_YEARS
from store.reference.dimensions import INDEX_DIMENSIONS
from store.reference.lists import (
    resolve_authority_type,
    resolve_procedure,
    resolve_province,
    resolve_sector,
)
from store.releases import list_items
from store.times import format_utc

area = Area(Blueprint("procurement", __name__, url_prefix="/v1/public-procurement"), "Public procurement",
            api="public-procurement",
            data_version=release_version)

SUBJECT_RESOLVERS = {"province": resolve_province, "sector": resolve_sector,
                     "authority-type": resolve_authority_type, "procedure": resolve_procedure}


SUBJECT = string_param("subject", "One subject of the dimension: a province (plate code or name), a sector (id or "
                       "name), an authority-type id or a procedure id. Not allowed with `dimension=overall`. "
                       "Default: every subject.")


def check_subject_and_period(values: Values) -> list[dict[str, str]]:
    """Resolve `subject` for its dimension and bound `period` by the release served (decisions.md)."""
    errors = []
    dimension = values["dimension"]
    if values.get("subject") is not None and "dimension" not in values.failed:
        if dimension == "overall":
            errors.append({"parameter": "subject", "message": "not allowed with dimension=overall"})
        else:
            try:
                values["subject"] = str(SUBJECT_RESOLVERS[dimension](values["subject"]))
            except ValueError as exc:
                errors.append({"parameter": "subject", "message": str(exc)})
    errors.extend(check_period(values))
    return errors


NATIONAL_METHODS = ["tender", "direct"]


def check_scope(kind: str):
    """top-authorities / top-contractors: a province, a sector, or neither (the national ranking, beyond
    the interface document), and a method that fits the scope."""
    province_methods = {"top-authorities": ["tender", "direct"], "top-contractors": ["tender", "direct", "headquartered"]}[kind]

    def check(values: Values) -> list[dict[str, str]]:
        if values.failed & {"province", "sector", "method"}:
            return []  # the scope is not known: the bad one is listed already
        has_province, has_sector = values.get("province") is not None, values.get("sector") is not None
        if has_province and has_sector:
            message = "give one of province or sector, or neither for the national ranking"
            return [{"parameter": "province", "message": message}, {"parameter": "sector", "message": message}]
        scope, allowed = (("a province", province_methods) if has_province else ("a sector", ["tender"]) if has_sector
                          else ("the national ranking", NATIONAL_METHODS))
        if values["method"] not in allowed:
            return [{"parameter": "method", "message": f"with {scope} the method must be one of: {', '.join(allowed)}"}]
        return []

    return check


def page(kind: ItemKind, keys: dict[str, Any], values: Values, *,
         alternative_order: bool = False) -> Reply:
    """One page of a statistics endpoint from the release served, with a cursor bound to release and filters."""
    release = served_release()
    if release is None:
        return no_release_page()
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
def list_competition_indices(values: Values) -> Reply:
    """Competition indices per dimension, subject and period
    Number of tenders, single-bid shares (with their denominator `lotsWithBids`), average lots and
    average discount against the estimated cost."""
    return index_page(INDEX_KINDS["competition"], values)


@area.get("/concentration-indices", cost=1, params=index_params("concentration"), checks=INDEX_CHECKS,
          response_schema="ConcentrationIndexPage")
def list_concentration_indices(values: Values) -> Reply:
    """Concentration of contract winners
    Contracts, firms, CR1/CR4/CR10 value shares and the Herfindahl-Hirschman index (0 to 10,000)."""
    return index_page(INDEX_KINDS["concentration"], values)


@area.get("/direct-procurement-indices", cost=1, params=index_params("direct"), checks=INDEX_CHECKS,
          response_schema="DirectProcurementIndexPage")
def list_direct_indices(values: Values) -> Reply:
    """Direct procurement (doğrudan temin) amount distribution
    Purchases, median, mean, total, p95, p99, largest and the largest purchase's share, in nominal TRY.
    2025 is the reference year."""
    return index_page(INDEX_KINDS["direct"], values)


@area.get("/localization-indices", cost=1, params=index_params("localization"), checks=INDEX_CHECKS,
          response_schema="LocalizationIndexPage")
def list_localization_indices(values: Values) -> Reply:
    """Share of contracts won by suppliers from the authority's own province
    By count and by value, over awarded lots whose contractor has a known province."""
    return index_page(INDEX_KINDS["localization"], values)


PROVINCE_SECTOR_PARAMS = (
    province_param("province", "Province of the buying authorities."),
    sector_param(SECTOR_HELP),
    enum_param("sort", ["amount", "tenders"], "Order, descending; ties by province then sector.", "amount"),
    *PAGING,
)


@area.get("/province-sectors", cost=1, params=PROVINCE_SECTOR_PARAMS, checks=[check_cursor_release],
          response_schema="ProvinceSectorPage")
def list_province_sectors(values: Values) -> Reply:
    """Tender volume per province and sector, every year pooled
    Tenders, value of awarded lots, and the parts won by local and by other suppliers. Cells whose tenders
    have no awarded lot have null amounts and sort after every amount."""
    keys = {name: values[name] for name in PROVINCE_SECTORS.keys}
    return page(PROVINCE_SECTORS, keys, values, alternative_order=values["sort"] == "tenders")


FLOW_PARAMS = (province_param("buyerProvince", "Province of the buying authorities."),
               province_param("supplierProvince", "Province of the suppliers' head offices."), *PAGING)


@area.get("/supply-flows", cost=1, params=FLOW_PARAMS, checks=[check_cursor_release],
          response_schema="SupplyFlowPage")
def list_supply_flows(values: Values) -> Reply:
    """Contracts from authorities of one province to suppliers of another or the same province
    Every year pooled, largest amount first; ties by buyer then supplier province."""
    keys = {name: values[name] for name in SUPPLY_FLOWS.keys}
    return page(SUPPLY_FLOWS, keys, values)


def ranking_params(methods: list[str]) -> tuple[Param, ...]:
    return (province_param("province", "Give this, or `sector`, or neither for the national ranking."),
            sector_param(f"{SECTOR_HELP} Give this, or `province`, or neither for the national ranking."),
            enum_param("method", methods, "How the amount was awarded; only `tender` goes with a sector.", "tender"),
            *PAGING)


def ranking_page(kind: ItemKind, values: Values) -> Reply:
    scope = next((name for name in ("province", "sector") if values[name] is not None), "national")
    return page(kind, {"scope": scope, "scopeId": values.get(scope), "method": values["method"]}, values)


@area.get("/top-authorities", cost=1, params=ranking_params(["tender", "direct"]),
          checks=[check_scope("top-authorities"), check_cursor_release], response_schema="TopAuthorityPage")
def list_top_authorities(values: Values) -> Reply:
    """The ten authorities that awarded the most by value
    In a province (tenders, or `direct` purchases), in a sector (tenders), or, with neither, in all of
    Türkiye (tenders or `direct`; the national ranking goes beyond the interface document); ties by id.
    `limit` pages within the ten."""
    return ranking_page(KINDS["top-authorities"], values)


@area.get("/top-contractors", cost=1, params=ranking_params(["tender", "direct", "headquartered"]),
          checks=[check_scope("top-contractors"), check_cursor_release], response_schema="TopContractorPage")
def list_top_contractors(values: Values) -> Reply:
    """The ten contractors with the most value
    Won from authorities of a province or in a sector (tenders), by direct purchase in a province, or
    (`headquartered`) firms based in a province by everything they won anywhere; with neither province
    nor sector, in all of Türkiye (tenders or `direct`; beyond the interface document)."""
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
    release = served_release()
    if release is None:
        empty: dict[str, Any] = {"release": None, "releaseId": None, "publishedAt": None, "loadedAt": None, "synthetic": None,
                 "latestYear": None, "completeYears": complete_years(), "coverage": None, "datasets": []}
        return Reply(json_body(empty), NO_RELEASE)
    body = {
        "release": release.name, "releaseId": release.id, "publishedAt": format_utc(release.published_at),
        "loadedAt": format_utc(release.loaded_at), "synthetic": release.synthetic, "latestYear": release.latest_year,
        "completeYears": complete_years(),
        "coverage": _every_year(_coverage(release.id), release.latest_year),
        "datasets": [{"name": d.name, "file": d.file, "rows": d.rows, "citation": d.citation, "url": d.url}
                     for d in release.datasets],
    }
    return Reply(json_body(body), f"release-{release.id}")


def _every_year(coverage: dict[str, Any] | None, latest_year: int | None) -> dict[str, Any] | None:
    """`coverage` with a row for every year from the first a statistic covers completely to the latest, those
    without records at zero: a release holding no record of a complete year (`completeYears`, the source's)
    says so itself, so that the one is not read for the other."""
    if coverage is None:
        return None
    held = {row["year"]: row for row in coverage["years"]}
    first = min([start for start, _ in COMPLETE_YEARS.values()] + list(held))
    last = max([latest_year or first] + list(held))
    empty = {"tenders": 0, "lots": 0, "awardedLots": 0, "purchases": 0}
    return {**coverage, "years": [held.get(year, {"year": year, **empty}) for year in range(first, last + 1)]}


def _coverage(release_id: int) -> dict[str, Any] | None:
    """What the release holds, computed at load time; null for a release loaded before it was."""
    rows, _ = list_items(db_session(), release_id=release_id, kind=COVERAGE, keys={}, after=None, limit=1)
    return json.loads(rows[0][1]) if rows else None

