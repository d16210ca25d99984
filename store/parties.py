"""Authorities and contractors: found by name with Turkish folding, best match first, and their
profiles per year and over all years (docs/awards-and-flags.md, "Party search" and "Profiles")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import and_, case, func, literal, or_, select
from sqlalchemy.orm import Session

from store.awards import release_tables
from store.details import WORD_END
from store.errors import NotFoundError
from store.jsontext import parse_item
from store.models import Release
from store.name_index import has_name_index, search_positions
from store.pages import Page
from store.profile_bodies import unpack_body
from store.reference.flags import FLAGS
from store.reference.folding import name_words

KINDS = ("authority", "contractor")
# The list of counterparts in each kind's profile.
COUNTERPARTS = {"authority": "topContractors", "contractor": "topAuthorities"}
# How a name matches a query, best first: the whole folded name; its beginning; a later run of its
# words; every query word at the start of some word of the name, in any order.
MATCHES = ("exact", "prefix", "phrase", "words")


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind is one of {KINDS}, not {kind!r}")
    return kind


def search_parties(session: Session, *, release: Release, kind: str, q: str,
                   after: tuple[int, int] | None = None, limit: int = 50) -> Page:
    """A page of the authorities or contractors whose folded name matches `q`, best match first,
    then by total contract value (largest first), then id; a position is (match rank, search order)."""
    words = name_words(q)
    if not words:
        return Page([], [], 0)
    tables = release_tables(session, release)
    driver, wide = _driver(session, tables, words)
    # A rare word is fastest through the word index (a few rows to rank); a word that thousands of
    # names share, through the name index, one rank and one page at a time.
    if wide and has_name_index(session, release.id, tables.parties.schema):
        return _indexed_search(session, release, _kind(kind), words, after, limit)
    phrase = " ".join(words)
    p, w = tables.parties.c, tables.words.c
    hits = select(w.seq).where(w.word >= driver, w.word < driver + WORD_END).distinct().subquery()
    spaced = literal(" ") + p.words
    rank = case((p.words == phrase, 0), (p.words.like(phrase + "%"), 1), (spaced.like("% " + phrase + "%"), 2),
                else_=3)
    where = [p.kind == _kind(kind), *(spaced.like(f"% {word}%") for word in dict.fromkeys(words) if word != driver)]
    matches = select(p, rank.label("rank")).join(hits, hits.c.seq == p.seq).where(*where).subquery()
    total = int(session.scalar(select(func.count()).select_from(matches)) or 0)
    if total == 0:
        return Page([], [], 0)
    m = matches.c
    query = select(matches)
    if after is not None:
        query = query.where(or_(m.rank > after[0], and_(m.rank == after[0], m.seq > after[1])))
    rows = session.execute(query.order_by(m.rank, m.seq).limit(limit)).mappings().all()
    return Page([_search_item(r) for r in rows], [(int(r["rank"]), int(r["seq"])) for r in rows], total)


def _indexed_search(session: Session, release: Release, kind: str, words: list[str],
                    after: tuple[int, int] | None, limit: int) -> Page:
    """`search_parties` through the release's name index (store/name_index.py): the same page."""
    parties = release_tables(session, release).parties
    p = parties.c
    first = session.scalar(select(func.min(p.seq)).where(p.kind == kind))
    if first is None:
        return Page([], [], 0)
    last = int(session.scalar(select(func.max(p.seq)).where(p.kind == kind)))
    positions, total = search_positions(session, release.id, words, (int(first), last), after=after, limit=limit,
                                        schema=parties.schema, loaded=release.loaded_at)
    if not positions:
        return Page([], [], total)
    found = {r["seq"]: r for r in session.execute(
        select(p).where(p.seq.in_([seq for _, seq in positions]))).mappings()}
    rows = [{**found[seq], "rank": rank} for rank, seq in positions]
    return Page([_search_item(r) for r in rows], positions, total)


# How many index entries a query word's range is counted up to when choosing the driving word.
DRIVER_PROBE = 2000


def _driver(session: Session, tables: Any, words: list[str]) -> tuple[str, bool]:
    """The query word whose range of the word index is the narrowest (each counted up to
    DRIVER_PROBE entries, so that a word of every name costs no more than a rare one), longest first,
    and whether even that range reaches DRIVER_PROBE."""
    w = tables.words.c

    def width(word: str) -> int:
        probe = select(w.seq).where(w.word >= word, w.word < word + WORD_END).limit(DRIVER_PROBE).subquery()
        return int(session.scalar(select(func.count()).select_from(probe)) or 0)

    widths = {word: width(word) for word in sorted(dict.fromkeys(words), key=len, reverse=True)}
    driver = min(widths, key=widths.__getitem__)
    return driver, widths[driver] >= DRIVER_PROBE


def _search_item(row: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"id": row["party_id"], "name": row["name"], "province": row["province"]}
    if row["kind"] == "authority":
        item["type"] = row["type"]
    item.update(contracts=row["contracts"], value=None if row["value"] is None else Decimal(row["value"]))
    if row["kind"] == "authority":
        item["tenders"] = row["tenders"]
    item["match"] = MATCHES[int(row["rank"])]
    return item


def get_party_profile(session: Session, *, release: Release, kind: str, party_id: str,
                      period: str = "all") -> dict[str, Any]:
    """One authority's or contractor's profile for a period (a year as text, or "all"): who it is,
    its figures for the period and its contracts and value year by year; NotFoundError when the
    release has no such party."""
    tables = release_tables(session, release)
    p = tables.parties.c
    party = session.execute(select(p).where(p.kind == _kind(kind), p.party_id == party_id)).mappings().first()
    if party is None:
        raise NotFoundError(f"no {kind} {party_id!r} in release {release.name}")
    f = tables.profiles.c
    body = session.scalar(select(f.body).where(f.seq == party["seq"], f.period == period))
    profile: dict[str, Any] = {"id": party["party_id"], "name": party["name"]}
    if kind == "authority":
        profile["type"] = party["type"]
    profile["province"] = party["province"]
    profile.update(empty_figures(kind, period) if body is None else parse_item(unpack_body(body)))
    profile["years"] = parse_item(party["years"])
    return profile


def empty_figures(kind: str, period: str) -> dict[str, Any]:
    """A period's figures where the party has no record: counts 0, every other statistic null (as
    the loader writes the figures of a period it has records in, key for key)."""
    authority = _kind(kind) == "authority"
    body: dict[str, Any] = {"period": period, "contracts": 0, "value": None}
    if authority:
        body["tenders"] = 0
    body.update(singleBidShare=None, lotsWithBids=0, averageDiscount=None, discountTenders=0, localShare=None,
                localShareContracts=0)
    if authority:
        body["hhi"] = None
    body[COUNTERPARTS[kind]] = []
    body.update(sectors=[], provinces=[], flags=[{"flag": f.id, "contracts": 0} for f in FLAGS])
    return body
