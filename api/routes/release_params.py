"""Parameters bound to the release served, shared by the statistics and the awards and parties
endpoints: provinces and sectors in any spelling, years up to the release's latest, and cursors that
belong to the release they were issued for."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from api.context import request_state
from api.db import db_session, forget_failed_read
from api.operations import Reply
from api.params import Param, list_param, paging, string_param
from api.transport.paging import page_envelope
from store.errors import StoreError
from store.models import Release
from store.reference.lists import provinces, resolve_province, resolve_sector, sectors
from store.releases import get_active_release

NO_RELEASE = "none"
FIRST_YEAR = 2019  # the source's first year (public-procurement-api.md, "General facts" 3)


def no_release_page() -> Reply:
    """The answer of a paged endpoint before the first release is loaded: an empty page."""
    return Reply(page_envelope([], 0, None), NO_RELEASE)


def release_version(caller: Any) -> str:
    """The data version of a key's answers: the release served when its key was read."""
    return f"release-{caller.release_id}" if caller.release_id else NO_RELEASE


PROVINCE_HELP = ("Plate code (`6` or `06`) or name, in any case, with or without Turkish letters (`İstanbul`, "
                 "`istanbul`); the list gives the plate codes, the official names and their ASCII forms.")
SECTOR_HELP = ("Sector id from /sectors, or its Turkish or English name, in any case, with or without Turkish "
               "letters.")


def _listed(param: Param, values: list[str], *, many: bool = False) -> Param:
    """The parameter with its canonical values as the alternatives of a pattern (the resolver also takes
    other cases and spellings), or with `many`, a comma-separated list of them. Not an enum: `Adana` and
    `adana` would be one member name in a generated client, which refuses to build."""
    alternatives = "|".join(re.sub(r"([\\^$.|?*+()\[\]{}/])", r"\\\1", v) for v in dict.fromkeys(values))
    pattern = f"^({alternatives})(,({alternatives}))*$" if many else f"^({alternatives})$"
    return replace(param, schema={**param.schema, "pattern": pattern})


# Plate codes with and without the leading zero, the official names and their ASCII forms.
PROVINCE_VALUES = ([str(plate) for plate in provinces()] + [f"{plate:02d}" for plate in provinces() if plate < 10]
                   + [p.name for p in provinces().values()] + [p.ascii_name for p in provinces().values()])
SECTOR_VALUES = ([str(s.id) for s in sectors().values()] + [s.name_tr for s in sectors().values()]
                 + [s.name_en for s in sectors().values()])


def province_param(name: str, what: str) -> Param:
    return _listed(string_param(name, f"{what} {PROVINCE_HELP}", resolve_province), PROVINCE_VALUES)


def province_list_param(name: str, description: str) -> Param:
    """Comma-separated provinces, each as `province_param` takes it."""
    return _listed(list_param(name, description, resolve_province), PROVINCE_VALUES, many=True)


def sector_list_param(name: str, description: str) -> Param:
    """Comma-separated sector ids (names can hold commas, so a list takes the ids only)."""
    return _listed(list_param(name, description, resolve_sector), [str(s.id) for s in sectors().values()], many=True)


def sector_param(description: str) -> Param:
    return _listed(string_param("sector", description, resolve_sector), SECTOR_VALUES)


def served_release() -> Release | None:
    """The release served, read once per request."""
    state = request_state()
    if "active_release" not in state:
        state.active_release = get_active_release(db_session())
    return state.active_release


def _period_schema() -> dict[str, Any]:
    """The years the release served covers, and `all`: the exact set `check_subject_and_period` accepts."""
    try:
        release = served_release()
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


def check_period(values: dict[str, Any]) -> list[dict[str, str]]:
    """`period` is a year from 2019 to the latest year of the release served, or `all`."""
    period = values.get("period")
    if period is not None and period != "all":
        release = served_release()
        latest = release.latest_year if release else FIRST_YEAR
        if not (period.isdigit() and FIRST_YEAR <= int(period) <= latest):
            return [{"parameter": "period", "message": f"must be a year from 2019 to {latest}, or all"}]
    return []


def check_cursor_release(values: dict[str, Any]) -> list[dict[str, str]]:
    """A cursor's positions belong to the release it was issued for."""
    cursor = values.get("cursor")
    if cursor is None:
        return []
    release = served_release()
    if release is None or cursor.position[0] != release.id:
        return [{"parameter": "cursor", "message": "a new release is served since this cursor was issued; "
                 "start again without cursor"}]
    return []


MAX_POSITION = 2**31 - 1  # release ids and item positions are 32-bit integer columns


def release_paging(width: int = 2) -> tuple[Param, Param]:
    """`limit` and a cursor whose position is the release id and `width - 1` more whole numbers."""

    def valid(position: Any) -> bool:
        return (isinstance(position, list) and len(position) == width
                and all(type(x) is int and 0 <= x <= MAX_POSITION for x in position))

    return paging(valid)


PAGING = release_paging()
