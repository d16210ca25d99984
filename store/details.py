"""The per-release tables behind awards, party search and profiles, and discount benchmarks.

Each release loaded gets tables of its own (`awards_r<release id>`, …), created empty and without
indexes, filled in batches of their own short transactions, then indexed one index per
transaction; on SQLite in a file of the release's own (store/release_db.py). A table shared by
every release would have to keep its sixteen indexes up to date row by row while two million awards
arrive: measured on SQLite, 500,000 rows took 48 s that way against 3 s appended and indexed after
(docs/benchmarks.md). A failed or abandoned load drops its
tables (`drop_next_detail_table`), as it deletes its items. The release row says whether its tables
exist (`Release.details`, 0 for releases loaded before them) and whether its tenders have names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Column, Double, Index, Integer, MetaData, Table, Text, inspect, text
from sqlalchemy.orm import Session
from sqlalchemy.schema import CreateTable

from store.errors import classify_database_error
from store.name_index import build_name_index, name_index
from store.release_db import releases_folder, remove_file

# Words compare byte by byte (code point order) on every database, so that a word-prefix search is a
# range of the index: PostgreSQL's default collation would order them by the locale's rules instead.
WORD = Text().with_variant(Text(collation="C"), "postgresql")
# The highest code point: every word that starts with w lies in [w, w + WORD_END).
WORD_END = "\U0010ffff"
# The layout of the tables below; a release whose `details` differs was loaded without them.
DETAILS_VERSION = 1
# Filters of few values: each has an index newest first that also holds the others and the flags, so
# that a count, or a page filtered by several of them, is read from one index without visiting the
# rows (a year is a range of positions newest first); it holds the value position too, so that a
# page by value under several filters is found there and only its rows are read. By value, each
# filter alone has a plain index.
LOW_CARDINALITY = ("province", "supplier_province", "sector", "procedure", "authority_type")


@dataclass(frozen=True)
class DetailTables:
    """One release's tables, described for SQLAlchemy Core."""

    awards: Table
    counts: Table
    parties: Table
    words: Table
    profiles: Table
    benchmarks: Table
    indexes: tuple[Index, ...] = ()

    @property
    def all(self) -> tuple[Table, ...]:
        return (self.awards, self.counts, self.parties, self.words, self.profiles, self.benchmarks)


@lru_cache(maxsize=64)
def detail_tables(release_id: int, schema: str | None = None) -> DetailTables:
    """The tables of one release (their descriptions; `create_detail_tables` makes them), in the
    database attached as `schema` when given (store/release_db.py)."""
    meta, suffix = MetaData(schema=schema), f"_r{int(release_id)}"
    awards = Table(
        f"awards{suffix}", meta,
        Column("seq", Integer, primary_key=True, autoincrement=False),  # newest first
        Column("seq_value", Integer, nullable=False),  # largest contract value first
        Column("tender_id", Text, nullable=False), Column("lot", Integer, nullable=False),
        Column("lots", Integer, nullable=False), Column("tender_date", Text, nullable=False),
        Column("year", Integer, nullable=False), Column("tender_name", Text),
        Column("procedure", Text, nullable=False), Column("sector", Integer, nullable=False),
        Column("authority_id", Text, nullable=False), Column("authority_type", Text, nullable=False),
        Column("province", Integer, nullable=False), Column("contractor_id", Text, nullable=False),
        Column("supplier_province", Integer), Column("estimated_cost", Text), Column("contract_value", Text, nullable=False),
        Column("bids", Integer), Column("discount", Double), Column("flags", Integer, nullable=False),
    )
    # Match counts known at load time: ("", "") every award, (filter, value) one filter's.
    counts = Table(
        f"award_counts{suffix}", meta,
        Column("dim", Text, primary_key=True), Column("value", Text, primary_key=True),
        Column("count", Integer, nullable=False), Column("first_seq", Integer), Column("last_seq", Integer),
    )
    parties = Table(
        f"parties{suffix}", meta,
        Column("seq", Integer, primary_key=True, autoincrement=False),  # per kind: largest value first, then id
        Column("kind", Text, nullable=False), Column("party_id", Text, nullable=False),
        Column("name", Text, nullable=False), Column("words", WORD, nullable=False),
        Column("province", Integer), Column("type", Text), Column("contracts", Integer, nullable=False),
        Column("value", Text), Column("tenders", Integer), Column("years", Text, nullable=False),
    )
    words = Table(f"party_words{suffix}", meta, Column("word", WORD, nullable=False),
                  Column("seq", Integer, nullable=False))
    profiles = Table(
        f"profiles{suffix}", meta,
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("period", Text, primary_key=True), Column("body", Text, nullable=False),
    )
    benchmarks = Table(
        f"benchmarks{suffix}", meta,
        Column("period", Text, primary_key=True), Column("sector", Text, primary_key=True),
        Column("procedure", Text, primary_key=True), Column("province", Text, primary_key=True),
        Column("n", Integer, nullable=False),
        *(Column(name, Double) for name in ("p10", "p25", "median", "p75", "p90", "mean")),
    )
    tables = DetailTables(awards, counts, parties, words, profiles, benchmarks)
    return DetailTables(awards, counts, parties, words, profiles, benchmarks, tuple(_indexes(tables)))


def _indexes(tables: DetailTables) -> list[Index]:
    """The secondary indexes, built once the rows are in (`index_steps`)."""
    a, name = tables.awards.c, tables.awards.name
    indexes = [Index(f"ix_{name}_value", a.seq_value, unique=True)]
    for column in LOW_CARDINALITY:
        others = [a[c] for c in LOW_CARDINALITY if c != column]
        indexes.append(Index(f"ix_{name}_{column}_seq", a[column], a.seq, *others, a.flags, a.seq_value))
    for column in (*LOW_CARDINALITY, "year", "authority_id", "contractor_id"):
        indexes.append(Index(f"ix_{name}_{column}_value", a[column], a.seq_value))
    for column in ("authority_id", "contractor_id"):
        indexes.append(Index(f"ix_{name}_{column}_seq", a[column], a.seq))
    # A later release's watchlists ask which of its awards this one lacks: an anti-join on (tender, lot).
    indexes.append(Index(f"ix_{name}_lot", a.tender_id, a.lot))
    p = tables.parties.c
    indexes.append(Index(f"ix_{tables.parties.name}_party", p.kind, p.party_id, unique=True))
    # A kind's first and last seq (its range of the name index) in two lookups.
    indexes.append(Index(f"ix_{tables.parties.name}_kind", p.kind, p.seq))
    w = tables.words.c
    indexes.append(Index(f"ix_{tables.words.name}_word", w.word, w.seq))
    return indexes


@dataclass(frozen=True)
class TenderTable:
    """One release's tenders, announced ones included (kept since `Release.tenders`): what a
    watchlist's new tenders are read from."""

    table: Table
    indexes: tuple[Index, ...]


@lru_cache(maxsize=64)
def tender_table(release_id: int, schema: str | None = None) -> TenderTable:
    """The release's tenders table, in the database attached as `schema` when given (as detail_tables)."""
    table = Table(
        f"tenders_r{int(release_id)}", MetaData(schema=schema),
        Column("seq", Integer, primary_key=True, autoincrement=False),  # newest first, then tender id
        Column("tender_id", Text, nullable=False), Column("tender_date", Text, nullable=False),
        Column("tender_name", Text), Column("procedure", Text, nullable=False), Column("sector", Integer, nullable=False),
        Column("authority_id", Text, nullable=False), Column("authority_name", Text, nullable=False),
        Column("authority_type", Text, nullable=False), Column("province", Integer, nullable=False),
        Column("estimated_cost", Text), Column("lots", Integer, nullable=False),
        Column("awarded_lots", Integer, nullable=False),
    )
    c = table.c
    # The anti-join of a later release on the tender id, and a followed authority's tenders.
    return TenderTable(table, (Index(f"ix_{table.name}_tender", c.tender_id, unique=True),
                               Index(f"ix_{table.name}_authority", c.authority_id, c.seq)))


def create_detail_tables(session: Session, release_id: int) -> DetailTables:
    """Create a release's tables, empty and without their secondary indexes (added by `index_steps`)."""
    tables = detail_tables(release_id)
    for table in (*tables.all, tender_table(release_id).table):
        session.execute(CreateTable(table))  # the table alone: its indexes come after its rows
    return tables


def insert_detail_rows(session: Session, table: Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """Insert rows given as tuples in the order of `columns`, without a Python object per row
    (SQLAlchemy's insert() builds one): on PostgreSQL through COPY, elsewhere through the driver's
    executemany. On PostgreSQL executemany still sends one INSERT per row; COPY streams the batch
    as one statement (docs/benchmarks.md, "The national load on PostgreSQL")."""
    dialect = session.get_bind().dialect
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(c) for c in columns)
    if dialect.name == "postgresql":
        _copy_rows(session, f"COPY {quote(table.name)} ({names}) FROM STDIN", rows)
        return
    marker = "?" if dialect.paramstyle == "qmark" else "%s"
    session.connection().exec_driver_sql(
        f"INSERT INTO {quote(table.name)} ({names}) VALUES ({', '.join([marker] * len(columns))})", rows)


def _copy_rows(session: Session, statement: str, rows: list[tuple[Any, ...]]) -> None:
    """COPY rows through psycopg, in the session's transaction. SQLAlchemy has no COPY, so the
    driver's own error is turned into the store's here, as the engine does for every statement."""
    import psycopg  # only PostgreSQL's path needs the driver

    raw = session.connection().connection.dbapi_connection
    assert raw is not None  # a connection checked out of the pool holds its driver connection
    try:
        with raw.cursor() as cursor, cursor.copy(statement) as copy:  # type: ignore[attr-defined]
            for row in rows:
                copy.write_row(row)
    except psycopg.Error as error:
        raise classify_database_error(error) from error


def index_steps(release_id: int) -> list[Callable[[Session], None]]:
    """One step per index, then one that updates the planner's statistics: each is meant to run in a
    transaction of its own, so that no write lock is held for the whole build."""
    tables = detail_tables(release_id)
    steps: list[Callable[[Session], None]] = [
        (lambda session, index=index: index.create(session.connection()))
        for index in (*tables.indexes, *tender_table(release_id).indexes)]

    def analyse(session: Session) -> None:
        if session.get_bind().dialect.name == "sqlite":
            # Every row: a sample of the first thousand sees one province and one sector, and the
            # planner could no longer tell a sector's index (48,000 awards a value) from an
            # authority type's (260,000). About 2 s of CPU on the national release.
            session.execute(text("PRAGMA analysis_limit = 0"))
        for table in (tables.awards, tables.parties, tables.words):
            session.execute(text(f"ANALYZE {table.name}"))

    def names(session: Session) -> None:
        if session.get_bind().dialect.name == "sqlite":
            build_name_index(session, release_id)

    return [*steps, names, analyse]


def drop_next_detail_table(session: Session, release_id: int) -> bool:
    """Drop one of a release's tables that still exists, or remove its file (store/release_db.py);
    False when none is left."""
    if remove_release_file(session, release_id):
        return True
    existing = set(inspect(session.connection()).get_table_names())
    if name_index(release_id) in existing:
        session.execute(text(f"DROP TABLE {name_index(release_id)}"))
        return True
    for table in (*detail_tables(release_id).all, tender_table(release_id).table):
        if table.name in existing:
            table.drop(session.connection())
            return True
    return False


def remove_release_file(session: Session, release_id: int) -> bool:
    """Unlink a release's own file (SQLite); False when it has none. The caller has taken it out of
    what connections attach first (store/releases.py), so no new one opens it."""
    folder = releases_folder(session.get_bind())  # type: ignore[arg-type]
    return folder is not None and remove_file(folder, release_id)
