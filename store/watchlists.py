"""Watchlists: a key's saved awards filters, their confirmation and unsubscribe tokens, and the awards
of a release that are new since an earlier one (an anti-join on tender and lot, paged by keyset like
/awards). docs/decisions.md, "Watchlists and digests", holds the choices."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Numeric, Table, and_, cast, delete, exists, func, select
from sqlalchemy.orm import Session

from store.accounts import TOKEN_BYTES
from store.awards import AwardFilters, award_item, has_details, party_names, release_schema, release_tables
from store.details import tender_table
from store.errors import DetailsMissingError, NotFoundError, StoreError
from store.keys import hash_key
from store.models import ApiKey, Release, Watchlist
from store.pages import Page
from store.reference.flags import flag_mask
from store.server_keys import get_or_create_server_key, get_server_key

MAX_WATCHLISTS = 50  # per key


class WatchlistLimitError(StoreError):
    """The key holds the most watchlists it may."""


class TokenUsedError(StoreError):
    """The link's token was valid and has done its work already."""


@dataclass(frozen=True)
class WatchFilters:
    """A watchlist's filters: the /awards filters (no period: a watchlist follows every year) and a
    least contract value in TRY."""

    awards: AwardFilters
    min_value: Decimal | None = None


# Stored filter name (as the API takes and serves it) -> AwardFilters field.
FILTER_FIELDS = {"province": "province", "supplierProvince": "supplier_province", "sector": "sector",
                 "procedure": "procedure", "authorityType": "authority_type", "authority": "authority",
                 "contractor": "contractor", "flag": "flags"}
# The filters a tender has: the rest name a contractor or an award's flags.
TENDER_FILTERS = frozenset({"province", "sector", "procedure", "authorityType", "authority", "minValue"})


def watch_filters(stored: dict[str, Any]) -> WatchFilters:
    """The filters of a watchlist's stored (normalised) JSON object."""
    values: dict[str, Any] = {FILTER_FIELDS[name]: (tuple(value) if name == "flag" else value)
                              for name, value in stored.items() if name in FILTER_FIELDS}
    minimum = stored.get("minValue")
    return WatchFilters(AwardFilters(**values), None if minimum is None else Decimal(str(minimum)))


@dataclass(frozen=True)
class NewWatchlist:
    row: Watchlist
    confirm_token: str | None


def create_watchlist(session: Session, *, key_id: int, name: str, filters: dict[str, Any], notify: str | None,
                     now: datetime, baseline_release_id: int, cap: int = MAX_WATCHLISTS) -> NewWatchlist:
    """Add a watchlist to a key, or WatchlistLimitError when it holds `cap` already. The key's row is
    locked first (PostgreSQL), so two creations at once cannot both pass the count; SQLite runs one
    writer at a time."""
    session.execute(select(ApiKey.id).where(ApiKey.id == key_id).with_for_update())
    held = session.scalar(select(func.count()).select_from(Watchlist).where(Watchlist.key_id == key_id)) or 0
    if held >= cap:
        raise WatchlistLimitError(f"a key holds at most {cap} watchlists; delete one to add another")
    confirm = secrets.token_urlsafe(TOKEN_BYTES) if notify else None
    row = Watchlist(id=secrets.token_urlsafe(16), key_id=key_id, name=name, filters=json.dumps(filters),
                    created_at=now, baseline_release_id=baseline_release_id, notify=notify, confirmed=False,
                    unsubscribed=False, confirm_token_hash=hash_key(confirm) if confirm else None,
                    unsubscribe_token_hash=None)
    row.unsubscribe_token_hash = hash_key(unsubscribe_token(session, row.id)) if notify else None
    session.add(row)
    session.flush()
    return NewWatchlist(row, confirm)


def remove_watchlist(session: Session, watchlist_id: str) -> None:
    """Remove a watchlist whose confirmation mail could not be sent."""
    session.execute(delete(Watchlist).where(Watchlist.id == watchlist_id))


def get_watchlist(session: Session, *, key_id: int, watchlist_id: str) -> Watchlist:
    """The key's own watchlist; NotFoundError for an unknown id or another key's."""
    row = session.scalars(select(Watchlist).where(Watchlist.id == watchlist_id, Watchlist.key_id == key_id)).first()
    if row is None:
        raise NotFoundError(f"no watchlist {watchlist_id!r}")
    return row


def list_watchlists(session: Session, *, key_id: int, after: int | None, limit: int) -> tuple[list[Watchlist], int]:
    """A page of the key's watchlists, newest first (by `seq`), and how many it holds."""
    where = [Watchlist.key_id == key_id]
    total = int(session.scalar(select(func.count()).select_from(Watchlist).where(*where)) or 0)
    if after is not None:
        where.append(Watchlist.seq < after)
    rows = list(session.scalars(select(Watchlist).where(*where).order_by(Watchlist.seq.desc()).limit(limit)))
    return rows, total


def delete_watchlist(session: Session, *, key_id: int, watchlist_id: str) -> None:
    """Delete the key's own watchlist and its digests (ON DELETE CASCADE); NotFoundError otherwise."""
    found = session.execute(delete(Watchlist).where(Watchlist.id == watchlist_id, Watchlist.key_id == key_id)
                            .execution_options(synchronize_session=False))
    if not found.rowcount:  # type: ignore[attr-defined]
        raise NotFoundError(f"no watchlist {watchlist_id!r}")


LINK_KEY = "watchlist-links"  # a server key (store/server_keys.py)


def unsubscribe_token(session: Session, watchlist_id: str) -> str:
    """The watchlist's unsubscribe token: derived from a server secret and its id, so that every digest
    carries the same working link while only its digest is stored, like every other token."""
    # Made with the first watchlist and by every planning of digests (writes); a digest, built while
    # only reading, finds it.
    key = get_server_key(session, LINK_KEY) or get_or_create_server_key(session, LINK_KEY)
    mac = hmac.new(key, f"unsubscribe:{watchlist_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def _by_token(session: Session, column: Any, token: str) -> Watchlist:
    digest = hash_key(token)
    row = session.scalars(select(Watchlist).where(column == digest)).first()
    # The lookup is by an index of digests; the comparison again in constant time is for form only.
    if row is None or not hmac.compare_digest(digest, getattr(row, column.key)):
        raise NotFoundError("no watchlist with that token")
    return row


def check_confirm_token(session: Session, token: str) -> Watchlist:
    """The watchlist a confirmation link is for; NotFoundError, or TokenUsedError once confirmed."""
    row = _by_token(session, Watchlist.confirm_token_hash, token)
    if row.confirmed:
        raise TokenUsedError("the address was confirmed already")
    return row


def confirm(session: Session, token: str) -> Watchlist:
    row = check_confirm_token(session, token)
    row.confirmed = True
    return row


def check_unsubscribe_token(session: Session, token: str) -> Watchlist:
    """The watchlist an unsubscribe link is for; NotFoundError, or TokenUsedError once unsubscribed."""
    row = _by_token(session, Watchlist.unsubscribe_token_hash, token)
    if row.unsubscribed:
        raise TokenUsedError("the address was unsubscribed already")
    return row


def unsubscribe(session: Session, token: str) -> Watchlist:
    row = check_unsubscribe_token(session, token)
    row.unsubscribed = True
    return row


def previous_release(session: Session, release: Release) -> Release | None:
    """The complete release loaded before `release` (releases are ordered by id, the order they were
    loaded in), pruned or not; None for the first."""
    return session.scalars(select(Release).where(Release.complete.is_(True), Release.id < release.id)
                           .order_by(Release.id.desc()).limit(1)).first()


def award_conditions(tables: Any, filters: WatchFilters) -> list[Any]:
    """The SQL conditions of a watchlist's filters on a release's awards table (`matches` is the
    same rule applied to awards already read)."""
    a = tables.awards.c
    f = filters.awards
    where = [a[column] == getattr(f, name) for name, column in (
        ("province", "province"), ("supplier_province", "supplier_province"), ("sector", "sector"),
        ("procedure", "procedure"), ("authority_type", "authority_type"), ("authority", "authority_id"),
        ("contractor", "contractor_id")) if getattr(f, name) is not None]
    if f.flags:
        where.append(a.flags.op("&")(flag_mask(f.flags)) != 0)
    if filters.min_value is not None:
        where.append(cast(a.contract_value, Numeric) >= filters.min_value)
    return where


def _not_in(session: Session, tables: Any, since: Release | None) -> list[Any]:
    """Awards whose (tender, lot) the `since` release's awards do not hold (every award without one)."""
    if since is None:
        return []
    a, old = tables.awards.c, release_tables(session, since).awards.c
    return [~exists().where(and_(old.tender_id == a.tender_id, old.lot == a.lot))]


def list_new_awards(session: Session, *, release: Release, since: Release | None, filters: WatchFilters,
                    sort: str = "date", after: int | None = None, limit: int = 50) -> Page:
    """A page of the awards of `release` matching `filters` whose (tender, lot) `since` does not
    hold, newest first (`date`) or largest first (`value`), by the positions /awards pages by."""
    tables = release_tables(session, release)
    a = tables.awards.c
    where = award_conditions(tables, filters) + _not_in(session, tables, since)
    total = int(session.scalar(select(func.count()).select_from(tables.awards).where(*where)) or 0)
    if total == 0:
        return Page([], [], 0)
    key = a.seq if sort == "date" else a.seq_value
    if after is not None:
        where.append(key > after)
    rows = session.execute(select(tables.awards).where(*where).order_by(key).limit(limit)).mappings().all()
    names = party_names(session, tables, list(rows))
    return Page([award_item(r, names, tender_names=release.tender_names) for r in rows],
                [r["seq" if sort == "date" else "seq_value"] for r in rows], total)


def release_tenders(session: Session, release: Release) -> Table:
    """The release's tenders table, or DetailsMissingError for a release loaded before it was kept."""
    if not release.tenders or not has_details(release):
        raise DetailsMissingError(f"release {release.name} was loaded before its tenders were kept; load it again "
                                  "to serve them")
    return tender_table(release.id, release_schema(session, release)).table


def list_new_tenders(session: Session, *, release: Release, since: Release | None, filters: WatchFilters,
                     after: int | None = None, limit: int = 50) -> Page:
    """A page of the tenders of `release` (announced ones included) matching the filters a tender has
    whose id `since` does not hold, newest first. Filters that name a contractor, its province or an
    award's flags match no tender: their page is empty."""
    table = release_tenders(session, release)
    old = release_tenders(session, since) if since is not None else None
    f = filters.awards
    if f.contractor is not None or f.supplier_province is not None or f.flags:
        return Page([], [], 0)
    t = table.c
    where = [t[column] == getattr(f, name) for name, column in (
        ("province", "province"), ("sector", "sector"), ("procedure", "procedure"),
        ("authority_type", "authority_type"), ("authority", "authority_id")) if getattr(f, name) is not None]
    if filters.min_value is not None:
        where.append(cast(t.estimated_cost, Numeric) >= filters.min_value)
    if old is not None:
        where.append(~exists().where(old.c.tender_id == t.tender_id))
    total = int(session.scalar(select(func.count()).select_from(table).where(*where)) or 0)
    if total == 0:
        return Page([], [], 0)
    if after is not None:
        where.append(t.seq > after)
    rows = session.execute(select(table).where(*where).order_by(t.seq).limit(limit)).mappings().all()
    return Page([tender_item(r, tender_names=release.tender_names) for r in rows], [r["seq"] for r in rows], total)


def tender_item(row: Any, *, tender_names: bool) -> dict[str, Any]:
    item: dict[str, Any] = {"tenderId": row["tender_id"], "tenderDate": row["tender_date"]}
    if tender_names:
        item["tenderName"] = row["tender_name"]
    item.update(
        procedure=row["procedure"], sector=row["sector"],
        authority={"id": row["authority_id"], "name": row["authority_name"], "type": row["authority_type"],
                   "province": row["province"]},
        estimatedCost=None if row["estimated_cost"] is None else Decimal(row["estimated_cost"]),
        lots=row["lots"], awardedLots=row["awarded_lots"])
    return item


@dataclass(frozen=True)
class NewAward:
    """One new award of a release, as much as matching and a digest need."""

    tender_id: str
    lot: int
    province: int
    supplier_province: int | None
    sector: int
    procedure: str
    authority_type: str
    authority_id: str
    contractor_id: str
    flags: int
    contract_value: Decimal
    estimated_cost: Decimal | None
    discount: float | None
    tender_date: str


def new_awards(session: Session, *, release: Release, since: Release | None) -> list[NewAward]:
    """Every award of `release` new since `since`, largest contract value first: the one anti-join
    the digests of a release share (each watchlist is then matched against it in memory)."""
    tables = release_tables(session, release)
    a = tables.awards.c
    query = (select(a.tender_id, a.lot, a.province, a.supplier_province, a.sector, a.procedure, a.authority_type,
                    a.authority_id, a.contractor_id, a.flags, a.contract_value, a.estimated_cost, a.discount,
                    a.tender_date).where(*_not_in(session, tables, since)).order_by(a.seq_value))
    return [NewAward(*row[:10], Decimal(row[10]), None if row[11] is None else Decimal(row[11]), *row[12:])
            for row in session.execute(query)]


def matches(filters: WatchFilters, award: NewAward) -> bool:
    """Whether an award read already meets a watchlist's filters: `award_conditions` in Python."""
    f = filters.awards
    pairs = ((f.province, award.province), (f.supplier_province, award.supplier_province), (f.sector, award.sector),
             (f.procedure, award.procedure), (f.authority_type, award.authority_type),
             (f.authority, award.authority_id), (f.contractor, award.contractor_id))
    if any(wanted is not None and wanted != value for wanted, value in pairs):
        return False
    if f.flags and not award.flags & flag_mask(f.flags):
        return False
    return filters.min_value is None or award.contract_value >= filters.min_value


# AwardFilters field -> NewAward attribute, for the filters NewAwardSet keeps an index of.
INDEXED = {"authority": "authority_id", "contractor": "contractor_id", "province": "province",
           "supplier_province": "supplier_province", "sector": "sector", "procedure": "procedure",
           "authority_type": "authority_type"}


class NewAwardSet:
    """A release's new awards, largest first, with an index per filter: a watchlist is matched against
    the awards of its most selective filter only, so that 10,000 watchlists cost about as many look-ups
    as they have matches, not 10,000 passes over every new award."""

    def __init__(self, awards: list[NewAward]):
        self.awards = awards
        self.index: dict[str, dict[Any, list[NewAward]]] = {name: {} for name in INDEXED}
        for award in awards:  # in value order, so every list is largest first too
            for name, attribute in INDEXED.items():
                self.index[name].setdefault(getattr(award, attribute), []).append(award)

    def __len__(self) -> int:
        return len(self.awards)

    def matching(self, filters: WatchFilters) -> list[NewAward]:
        """The awards meeting `filters`, largest contract value first."""
        candidates = self.awards
        for name in INDEXED:
            wanted = getattr(filters.awards, name)
            if wanted is not None:
                found = self.index[name].get(wanted, [])
                if len(found) < len(candidates):
                    candidates = found
        chosen = []
        for award in candidates:
            if filters.min_value is not None and award.contract_value < filters.min_value:
                break  # largest first: every later one is smaller still
            if matches(filters, award):
                chosen.append(award)
        return chosen


def names_of(session: Session, release: Release, awards: list[NewAward]) -> dict[tuple[str, str], str]:
    """The names of the authorities and contractors of some awards of `release`."""
    rows = [{"authority_id": x.authority_id, "contractor_id": x.contractor_id} for x in awards]
    return party_names(session, release_tables(session, release), rows)
