"""Procurement releases and their served items: store a release whole, switch the active one, read items."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import islice
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from store.details import drop_next_detail_table
from store.errors import NotFoundError, ReleasePrunedError
from store.items import ItemKind
from store.models import DataVersion, Release, ReleaseDataset, StatItem
from store.pages import fetch_page
from store.release_db import FILE_LAYOUT, GENERATION

INSERT_BATCH_ROWS = 5000


def create_release(
    session: Session,
    *,
    name: str,
    published_at: datetime,
    loaded_at: datetime,
    synthetic: bool,
    latest_year: int,
    datasets: list[dict[str, Any]],
    uploaded_by: str,
) -> Release:
    """Insert a release with its datasets, incomplete and inactive: its items follow in batches
    (`insert_items`), then `complete_release` makes it one that can be listed and served."""
    release = Release(
        name=name, published_at=published_at, loaded_at=loaded_at, synthetic=synthetic, latest_year=latest_year,
        uploaded_by=uploaded_by, total_rows=sum(int(d["rows"]) for d in datasets), is_active=False, complete=False,
    )
    release.datasets = [
        ReleaseDataset(position=i, name=d["name"], file=d["file"], rows=int(d["rows"]), citation=d.get("citation", ""),
                       url=d.get("url", ""))
        for i, d in enumerate(datasets)
    ]
    session.add(release)
    session.flush()
    return release


def item_batches(items: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The items in batches of INSERT_BATCH_ROWS, each short enough to write in a transaction of its own."""
    rows = iter(items)
    while batch := list(islice(rows, INSERT_BATCH_ROWS)):
        yield batch


def insert_items(session: Session, release_id: int, batch: list[dict[str, Any]]) -> None:
    session.execute(insert(StatItem), [{**item, "release_id": release_id} for item in batch])


def complete_release(session: Session, release_id: int, *, details: int = 0, tender_names: bool = False,
                     tenders: bool = False) -> None:
    """Make a loaded release one that can be served; `details` is the layout of the tables it was
    given (store/details.py), `tender_names` whether its tenders have names, `tenders` whether they
    have a table of their own."""
    session.execute(update(Release).where(Release.id == release_id).values(
        complete=True, details=details, tender_names=tender_names, tenders=tenders))


def purge_release(session: Session, release_id: int, *, batch_rows: int = INSERT_BATCH_ROWS) -> bool:
    """Take an incomplete release's file out of what connections attach, else drop one of its own
    tables or remove that file (store/details.py), else delete one batch of its items, or the release
    itself once it has none; True while there is more to delete. One step per call, so that no
    transaction holds the write lock long."""
    if withdraw_release_file(session, release_id) or drop_next_detail_table(session, release_id):
        return True
    ids = select(StatItem.id).where(StatItem.release_id == release_id).limit(batch_rows).scalar_subquery()
    if session.execute(delete(StatItem).where(StatItem.id.in_(ids))).rowcount:
        return True
    session.execute(delete(Release).where(Release.id == release_id, Release.complete.is_(False)))
    return False


def bump_generation(session: Session) -> None:
    """Tell every connection that the set of release files changed (in the caller's transaction)."""
    if not session.execute(update(DataVersion).where(DataVersion.name == GENERATION)
                           .values(version=DataVersion.version + 1)).rowcount:
        session.add(DataVersion(name=GENERATION, version=1))


def publish_release_file(session: Session, release_id: int) -> None:
    """Record that a release's file is complete: connections attach it from their next checkout on,
    before the release itself is complete (and served), so that none serves it without its file."""
    session.execute(update(Release).where(Release.id == release_id).values(details=FILE_LAYOUT))
    bump_generation(session)


def withdraw_release_file(session: Session, release_id: int) -> bool:
    """Take an incomplete release's file out of what connections attach; False when it was not in."""
    withdrawn = session.execute(update(Release).where(Release.id == release_id, Release.details == FILE_LAYOUT,
                                                      Release.complete.is_(False)).values(details=0))
    if not withdrawn.rowcount:
        return False
    bump_generation(session)
    return True


def list_incomplete_releases(session: Session, *, loaded_before: datetime) -> list[int]:
    """Releases whose load stopped before it completed them (a killed process), oldest first."""
    return list(session.scalars(select(Release.id).where(Release.complete.is_(False),
                                                         Release.loaded_at < loaded_before).order_by(Release.id)))


def activate_release(session: Session, release_id: int) -> Release:
    """Serve `release_id` from now on; one UPDATE pair inside the caller's transaction. Raises
    NotFoundError for no such release, ReleasePrunedError for one that was pruned."""
    release = session.get(Release, release_id)
    if release is None or not release.complete:
        raise NotFoundError(f"no release with id {release_id}")
    if release.pruned_at is not None:
        raise ReleasePrunedError(f"release {release_id} ({release.name}) was pruned: its tables were removed, "
                                 "so it cannot be served again; load its file again to serve it")
    session.execute(update(Release).where(Release.is_active.is_(True), Release.id != release_id).values(is_active=False))
    # Only while it is not pruned: a prune that committed since the release was read has won.
    if not session.execute(update(Release).where(Release.id == release_id, Release.pruned_at.is_(None))
                           .values(is_active=True).execution_options(synchronize_session=False)).rowcount:
        raise ReleasePrunedError(f"release {release_id} was pruned meanwhile; it cannot be served again")
    if release.details == FILE_LAYOUT:
        bump_generation(session)  # the served release's file is attached first, past SQLite's limit too
    session.refresh(release)
    return release


def get_active_release(session: Session) -> Release | None:
    return session.scalars(select(Release).where(Release.is_active.is_(True))).first()


def get_served_release_name(session: Session) -> str | None:
    """The name of the release served, or None; a store that does not answer raises a StoreError."""
    return session.scalar(select(Release.name).where(Release.is_active.is_(True)).limit(1))


def list_releases(session: Session) -> list[Release]:
    return list(session.scalars(select(Release).where(Release.complete.is_(True)).order_by(Release.id.desc())))


def list_items(
    session: Session,
    *,
    release_id: int,
    kind: ItemKind,
    keys: dict[str, Any],
    after: int | None,
    limit: int,
    alternative_order: bool = False,
) -> tuple[list[tuple[int, str]], int]:
    """A page of (position, body) of one kind's items matching `keys` (by the kind's key names; None
    matches every item), and the total that match."""
    order = StatItem.seq_alt if alternative_order else StatItem.seq
    where = [StatItem.release_id == release_id, StatItem.kind == kind.name]
    where += [getattr(StatItem, column) == value for column, value in kind.filters(**keys).items()]
    return fetch_page(session, key=order, body=StatItem.body, where=where, after=after, descending=False, limit=limit)


def find_release(session: Session, name: str | None) -> Release | None:
    """The complete release of that name loaded last (a week may be loaded again), or the served one for None."""
    if name is None:
        return get_active_release(session)
    return session.scalars(select(Release).where(Release.complete.is_(True), Release.name == name)
                           .order_by(Release.id.desc()).limit(1)).first()
