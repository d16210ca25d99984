"""/v1/public-procurement awards, parties and discount benchmarks: the single contract, who buys and
who wins, and what discount is usual (docs/awards-and-flags.md holds every definition)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from api.areas import Area
from api.db import db_session
from api.operations import Reply
from api.params import Values, enum_param, list_param, path_param, string_param
from api.problems import NotFound, NotReady
from api.routes.release_params import (
    PAGING,
    PERIOD,
    SECTOR_HELP,
    check_cursor_release,
    check_period,
    no_release_page,
    province_list_param,
    province_param,
    release_paging,
    release_version,
    sector_list_param,
    sector_param,
    served_release,
)
from api.transport.paging import finish_page
from store.awards import AwardFilters, list_awards
from store.benchmarks import list_discount_benchmarks
from store.errors import DetailsMissingError, NotFoundError
from store.jsontext import item_json
from store.models import Release
from store.pages import Page
from store.parties import get_party_profile, search_parties
from store.reference.flags import FLAG_BITS
from store.reference.lists import (
    authority_types,
    procedures,
    resolve_procedure,
)

area = Area(Blueprint("parties", __name__, url_prefix="/v1/public-procurement"), "Awards and parties",
            api="public-procurement", data_version=release_version)

# Ids are the release's own: any text of at most 100 characters that starts with no space and holds no
# control character (PostgreSQL refuses NUL; no id has one).
PARTY_ID = r"^[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]{0,99}$"
PROCEDURE = enum_param("procedure", list(procedures()), "Procedure id from /procedures.")
AUTHORITY_TYPE = enum_param("authorityType", list(authority_types()), "Authority-type id from /authority-types.")
FLAGS = list_param("flag", "Comma-separated red-flag ids from /red-flags; an award matches when it carries any of "
                   "them.", enum=list(FLAG_BITS))
AWARD_PARAMS = (
    province_param("province", "Province of the buying authority."),
    province_param("supplierProvince", "Head-office province of the contractor."),
    sector_param(SECTOR_HELP),
    PROCEDURE,
    AUTHORITY_TYPE,
    string_param("authority", "An authority id (from /authorities?q=…).", pattern=PARTY_ID),
    string_param("contractor", "A contractor id (from /contractors?q=…).", pattern=PARTY_ID),
    PERIOD,
    FLAGS,
    enum_param("sort", ["date", "value"], "`date`: newest tender first, then İKN and lot; `value`: largest "
               "contract value first, then İKN and lot.", "date"),
    *PAGING,
)


def paged(page: Page, release: Release, values: Values, *, position: Any = None) -> Reply:
    """The envelope of a store page, its cursor bound to the release and the filters."""
    rows = page.rows()
    body = finish_page(rows, page.total, values, position=position or (lambda p: [release.id, p]))
    return Reply(body, f"release-{release.id}")


def read_details(read: Any) -> Any:
    """What the release's own tables answer; 503 for a release loaded before they were kept."""
    try:
        return read()
    except DetailsMissingError as error:
        raise NotReady(f"The release served cannot answer this yet: {error}.") from None


@area.get("/awards", cost=1, params=AWARD_PARAMS, checks=[check_period, check_cursor_release],
          response_schema="AwardPage")
def list_award_items(values: Values) -> Reply:
    """Awarded lots, newest first or by value, filtered by place, sector, procedure, party, year and flag
    One item per awarded lot (contract) with its tender, authority, contractor, estimate, value, bids,
    discount and red flags. `estimatedCost` and `discount` are null where the tender's estimate cannot
    be given to one lot (tenders of several lots) or is 0."""
    release = served_release()
    if release is None:
        return no_release_page()
    period = values["period"]
    filters = AwardFilters(
        province=values["province"], supplier_province=values["supplierProvince"], sector=values["sector"],
        procedure=values["procedure"], authority_type=values["authorityType"], authority=values["authority"],
        contractor=values["contractor"], period=None if period in (None, "all") else int(period),
        flags=tuple(values["flag"] or ()))
    after = values["cursor"].position[1] if values["cursor"] is not None else None
    page = read_details(lambda: list_awards(db_session(), release=release, filters=filters, sort=values["sort"],
                                        after=after, limit=values["limit"] + 1))
    return paged(page, release, values)


SEARCH_PAGING = release_paging(3)


SEARCH_CHECKS = (check_cursor_release,)
SEARCH_PARAMS = (string_param("q", "Required. Words of the name, in any case, with or without Turkish letters (`istanbul`, "
                              "`İSTANBUL` and `Istanbul` find the same; ı/i, ş/s, ğ/g, ç/c, ö/o, ü/u match).",
                              pattern="^[^\\x00-\\x1f\\x7f]+$", pattern_message="must not contain control characters"),
                 *SEARCH_PAGING)


def search(kind: str, values: Values) -> Reply:
    release = served_release()
    if release is None:
        return no_release_page()
    cursor = values["cursor"]
    after = (cursor.position[1], cursor.position[2]) if cursor is not None else None
    page = read_details(lambda: search_parties(db_session(), release=release, kind=kind, q=values["q"], after=after,
                                           limit=values["limit"] + 1))
    return paged(page, release, values, position=lambda p: [release.id, *p])


@area.get("/authorities", cost=1, params=SEARCH_PARAMS, checks=SEARCH_CHECKS, required=["q"],
          response_schema="AuthorityMatchPage")
def search_authorities(values: Values) -> Reply:
    """Find authorities by name, best match first
    Matches, best first: the whole name, its beginning, a run of its words, then every word of `q` at
    the start of some word of the name; ties by total contract value, largest first. Each with its
    province, type and totals over every year."""
    return search("authority", values)


@area.get("/contractors", cost=1, params=SEARCH_PARAMS, checks=SEARCH_CHECKS, required=["q"],
          response_schema="ContractorMatchPage")
def search_contractors(values: Values) -> Reply:
    """Find contractors by name, best match first
    Matches, best first: the whole name, its beginning, a run of its words, then every word of `q` at
    the start of some word of the name; ties by total contract value, largest first. Each with its
    head-office province and totals over every year."""
    return search("contractor", values)


PROFILE_PERIOD = (PERIOD,)
AUTHORITY_ID = path_param("authority_id", {"type": "string", "pattern": PARTY_ID},
                          "The authority's id, from /authorities?q=… or an award.", "authority")
CONTRACTOR_ID = path_param("contractor_id", {"type": "string", "pattern": PARTY_ID},
                           "The contractor's id, from /contractors?q=… or an award.", "contractor")


def profile(kind: str, party_id: str, values: Values) -> Reply:
    release = served_release()
    if release is None:
        raise NotFound(f"No {kind} {party_id!r}: no release is served yet.")
    try:
        body = read_details(lambda: get_party_profile(db_session(), release=release, kind=kind, party_id=party_id,
                                                  period=values["period"] or "all"))
    except NotFoundError:
        raise NotFound(f"No {kind} {party_id!r} in the release served.") from None
    return Reply(item_json(body), f"release-{release.id}")


@area.get("/authorities/<authority_id>", cost=1, params=PROFILE_PERIOD, checks=[check_period],
          path_params=[AUTHORITY_ID], response_schema="AuthorityProfile", extra_statuses=[404])
def get_authority_profile(values: Values, authority_id: str) -> Reply:
    """An authority's profile: what it bought, from whom, where, and its red flags
    For `period` (a year, or `all`, the default): contracts, value, tenders, single-bid share and
    average discount with the counts they rest on, local share, the HHI of its suppliers, its top ten
    contractors with their share of its spending, its sectors and the provinces of its suppliers, and
    the count of each red flag; `years` gives contracts, value and tenders year by year."""
    return profile("authority", authority_id, values)


@area.get("/contractors/<contractor_id>", cost=1, params=PROFILE_PERIOD, checks=[check_period],
          path_params=[CONTRACTOR_ID], response_schema="ContractorProfile", extra_statuses=[404])
def get_contractor_profile(values: Values, contractor_id: str) -> Reply:
    """A contractor's profile: what it won, from whom, where, and its red flags
    For `period` (a year, or `all`, the default): contracts, value, single-bid share and average
    discount with the counts they rest on, local share, its top ten authorities with their share of
    its value won, its sectors and the provinces of its buyers, and the count of each red flag;
    `years` gives contracts and value year by year."""
    return profile("contractor", contractor_id, values)


BENCHMARK_PARAMS = (
    sector_list_param("sector", "Comma-separated sector ids from /sectors; one group per sector. Default: every "
                      "sector pooled."),
    list_param("procedure", "Comma-separated procedure ids; one group per procedure. Default: pooled.",
               resolve_procedure, enum=list(procedures())),
    province_list_param("province", "Comma-separated provinces (plate codes or names) of the buying authorities; "
                        "one group per province. Default: pooled."),
    PERIOD,
    *PAGING,
)


@area.get("/discount-benchmarks", cost=1, params=BENCHMARK_PARAMS, checks=[check_period, check_cursor_release],
          response_schema="DiscountBenchmarkPage")
def list_discount_benchmark_items(values: Values) -> Reply:
    """How large a tender discount is usual, by sector, procedure, province and year
    The distribution of the tender discount (1 − sum of contract values / estimated cost, over tenders
    with an estimate above 0 whose every lot was awarded): `n`, `p10`, `p25`, `median`, `p75`, `p90`
    and `mean`. One group per combination of the values asked for; a dimension not asked for is
    pooled (null in the item). A group of fewer than 5 tenders gives its `n` and null figures."""
    release = served_release()
    if release is None:
        return no_release_page()
    after = values["cursor"].position[1] if values["cursor"] is not None else None
    page = read_details(lambda: list_discount_benchmarks(
        db_session(), release=release, sectors=values["sector"], procedures=values["procedure"],
        provinces=values["province"], period=values["period"] or "all", after=after, limit=values["limit"] + 1))
    return paged(page, release, values)
