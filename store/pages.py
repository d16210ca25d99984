"""Keyset pages with their total in one round trip."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, literal, select
from sqlalchemy.orm import Session

from store.jsontext import item_json


@dataclass(frozen=True)
class Page:
    """One keyset page of items as served: `items` are JSON-ready dicts (amounts as Decimals: write
    them with store.jsontext.item_json), `positions` the keyset position of each (a cursor after an
    item carries its position), `total` how many match in all."""

    items: list[dict[str, Any]]
    positions: list[Any]
    total: int

    def rows(self) -> list[tuple[Any, str]]:
        """(position, item JSON) pairs, as `list_items` returns them and the API's paging takes them."""
        return [(p, item_json(i)) for p, i in zip(self.positions, self.items, strict=True)]


def fetch_page(
    session: Session,
    *,
    key: Any,
    body: Any,
    where: list[ColumnElement[bool]],
    after: Any | None,
    descending: bool,
    limit: int,
    known_total: int | None = None,
) -> tuple[list[tuple[Any, str]], int]:
    """Rows of (key, body) matching `where` that follow `after` in key order, and how many match in all.

    The total rides along as an uncorrelated scalar subquery, which both SQLite and PostgreSQL
    evaluate once; only a page past the end needs a second query to learn it. A `known_total`
    (cached by the caller for the same data) saves the count altogether.
    """
    if known_total is not None:
        total = literal(known_total)
    else:
        total = select(func.count()).select_from(key.table).where(*where).scalar_subquery()
    query = select(key, body, total).where(*where)
    if after is not None:
        query = query.where(key < after if descending else key > after)
    rows = session.execute(query.order_by(key.desc() if descending else key).limit(limit)).all()
    if rows:
        return [(r[0], r[1]) for r in rows], int(rows[0][2])
    if known_total is not None:
        return [], known_total
    return [], int(session.scalar(select(func.count()).select_from(key.table).where(*where)) or 0)
