"""Awards: one item per awarded lot of a release, filtered and paged by keyset, newest first or by
contract value (docs/awards-and-flags.md, "Awards")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from store.db import unindexed
from store.details import DETAILS_VERSION, DetailTables, detail_tables
from store.errors import DetailsMissingError
from store.models import Release
from store.pages import Page
from store.reference.flags import flag_ids, flag_mask
from store.release_db import FILE_LAYOUT, is_attached, schema_name

SORTS = ("date", "value")
# The filters whose match counts, one or two at a time, the loader keeps (loaders/procurement/awards.py).
COUNTED = ("year", "province", "supplier_province", "sector", "procedure", "authority_type")
# Under several filters, by value: when at least one award in DENSE_RATIO of the narrowest filter's
# meets them all, walking a value index finds a page sooner than sorting every match's position.
DENSE_RATIO = 50


@dataclass(frozen=True)
class AwardFilters:
    """What an awards page is filtered by; None (or no flags) matches every award. `period` is a year
    (None for every year); an award matches `flags` when it carries any of them."""

    province: int | None = None  # the authority's
    supplier_province: int | None = None  # the contractor's head office
    sector: int | None = None
    procedure: str | None = None
    authority_type: str | None = None
    authority: str | None = None  # an authority id
    contractor: str | None = None  # a contractor id
    period: int | None = None
    flags: tuple[str, ...] = ()

    def count(self) -> int:
        """How many filters are given."""
        return sum(getattr(self, f.name) not in (None, ()) for f in fields(self))

    def counted(self) -> tuple[str, str] | None:
        """The (dim, value) of the match count kept at load time for these filters, if one is: for
        none, and for one or two of the flag set and the filters of few values (and the year)."""
        given = {("year" if f.name == "period" else f.name): getattr(self, f.name) for f in fields(self)
                 if getattr(self, f.name) not in (None, ())}
        if not given:
            return "", ""
        if "flags" in given:
            given["flags"] = flag_mask(given["flags"])
        if len(given) > 2 or not set(given) <= {"flags", *COUNTED}:
            return None
        names = [c for c in ("flags", *COUNTED) if c in given]
        return "|".join(names), "|".join(str(given[c]) for c in names)


def has_details(release: Release) -> bool:
    """Whether the release was loaded with tables of its own (in the main database or a file)."""
    return release.details in (DETAILS_VERSION, FILE_LAYOUT)


def release_schema(session: Session, release: Release) -> str | None:
    """Where the release's own tables are read: the schema its file is attached as (SQLite), or None
    for the database itself; DetailsMissingError for a release loaded before they were kept, and for
    one whose file the session's connection could not attach (store/release_db.py)."""
    if release.details == FILE_LAYOUT:
        if not is_attached(session, release.id):
            raise DetailsMissingError(
                f"release {release.name} is not among the releases this store can open at once (the one served "
                "and the most recently loaded ones); serve it, or load its file again, to read it")
        return schema_name(release.id)
    if release.details != DETAILS_VERSION:
        raise DetailsMissingError(f"release {release.name} was loaded before awards, parties and benchmarks were "
                                  "kept; load it again to serve them")
    return None


def release_tables(session: Session, release: Release) -> DetailTables:
    """The release's own tables (see `release_schema` for where, and when there are none)."""
    return detail_tables(release.id, release_schema(session, release))


def list_awards(session: Session, *, release: Release, filters: AwardFilters = AwardFilters(), sort: str = "date",
                after: int | None = None, limit: int = 50) -> Page:
    """A page of awards matching `filters` after position `after`, newest first (`date`: tender
    date descending, then tender id and lot) or largest first (`value`: contract value descending,
    then tender id and lot); a position is the award's place in that order."""
    if sort not in SORTS:
        raise ValueError(f"sort is one of {SORTS}, not {sort!r}")
    tables = release_tables(session, release)
    a = tables.awards.c
    where = [a[column] == getattr(filters, name) for name, column in (
        ("province", "province"), ("supplier_province", "supplier_province"), ("sector", "sector"),
        ("procedure", "procedure"), ("authority_type", "authority_type"), ("authority", "authority_id"),
        ("contractor", "contractor_id")) if getattr(filters, name) is not None]
    if filters.flags:
        where.append(a.flags.op("&")(flag_mask(filters.flags)) != 0)
    period: list[Any] = []
    if filters.period is not None:
        span = _counted(session, tables, "year", str(filters.period))
        if span is None:
            return Page([], [], 0)
        # Newest first, a year is one run of positions: a range of any index ending in seq.
        period = [a.seq.between(span[1], span[2])]
    counted = filters.counted()
    if counted is not None:
        span = _counted(session, tables, *counted)
        total = 0 if span is None else span[0]
    else:
        total = int(session.scalar(select(func.count()).select_from(tables.awards).where(*where, *period)) or 0)
    if total == 0:
        return Page([], [], 0)
    key = a.seq if sort == "date" else a.seq_value
    if after is not None:
        where.append(key > after)
    if sort == "date":
        query = select(tables.awards).where(*where, *period).order_by(key).limit(limit)
    elif filters.count() <= 1 or total * DENSE_RATIO >= _narrowest(session, tables, filters):
        # By value under one filter (a year's by its own index), or under several that many awards
        # meet: a value index walked in order, a few rows read for each one shown.
        year = [a.year == filters.period] if period else []
        query = select(tables.awards).where(*where, *year).order_by(key).limit(limit)
    else:
        # By value under several filters that few awards meet: their positions from an index that
        # holds every filter (no row read), the largest first; then only those rows.
        shown = select(a.seq_value).where(*where, *period).order_by(unindexed(a.seq_value)).limit(limit)
        query = select(tables.awards).where(a.seq_value.in_(list(session.scalars(shown)))).order_by(a.seq_value)
    rows = session.execute(query).mappings().all()
    names = party_names(session, tables, rows)
    position = "seq" if sort == "date" else "seq_value"
    return Page([award_item(r, names, tender_names=release.tender_names) for r in rows], [r[position] for r in rows],
                total)


def _narrowest(session: Session, tables: DetailTables, filters: AwardFilters) -> int:
    """How many awards the most selective single filter given matches, by the counts kept at load
    (a party's awards, which no count keeps, count as none: its own index is always narrow)."""
    if filters.authority is not None or filters.contractor is not None:
        return 0
    counts = []
    for f in fields(filters):
        value = getattr(filters, f.name)
        if value not in (None, ()):
            single = AwardFilters(**{f.name: value}).counted()
            span = _counted(session, tables, *single) if single else None
            counts.append(0 if span is None else span[0])
    return min(counts, default=0)


def party_names(session: Session, tables: DetailTables, rows: Sequence[Any]) -> dict[tuple[str, str], str]:
    """The names of a page's authorities and contractors, read after the page (a join would let the
    planner start from the parties)."""
    p = tables.parties.c
    wanted = {("authority", r["authority_id"]) for r in rows} | {("contractor", r["contractor_id"]) for r in rows}
    found: dict[tuple[str, str], str] = {}
    for kind in ("authority", "contractor"):
        ids = sorted(i for k, i in wanted if k == kind)
        if ids:
            query = select(p.party_id, p.name).where(p.kind == kind, p.party_id.in_(ids))
            found.update({(kind, i): name for i, name in session.execute(query)})
    return found


def _counted(session: Session, tables: DetailTables, dim: str, value: str) -> tuple[int, int, int] | None:
    c = tables.counts.c
    row = session.execute(select(c.count, c.first_seq, c.last_seq).where(c.dim == dim, c.value == value)).first()
    return None if row is None or not row[0] else (int(row[0]), int(row[1]), int(row[2]))


def _amount(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def award_item(row: Any, names: dict[tuple[str, str], str], *, tender_names: bool) -> dict[str, Any]:
    """The served item of one stored award, its parties named from `names` ((kind, id) -> name)."""
    item: dict[str, Any] = {"tenderId": row["tender_id"], "tenderDate": row["tender_date"]}
    if tender_names:
        item["tenderName"] = row["tender_name"]
    item.update(
        lot=row["lot"], lots=row["lots"], procedure=row["procedure"], sector=row["sector"],
        authority={"id": row["authority_id"], "name": names[("authority", row["authority_id"])],
                   "type": row["authority_type"], "province": row["province"]},
        contractor={"id": row["contractor_id"], "name": names[("contractor", row["contractor_id"])],
                    "province": row["supplier_province"]},
        estimatedCost=_amount(row["estimated_cost"]), contractValue=_amount(row["contract_value"]), bids=row["bids"],
        discount=row["discount"], flags=flag_ids(row["flags"]),
    )
    return item
