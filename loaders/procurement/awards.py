"""Awards and their red flags, computed in DuckDB over the typed tables (docs/awards-and-flags.md):
one row per awarded lot with its flags, its two order positions and what it is filtered by, and the
match counts known at load time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import duckdb

from store.awards import COUNTED
from store.reference.flags import (
    ALL_FLAGS_MASK,
    COMPETITIVE_PROCEDURES,
    FLAG_BITS,
    JUST_BELOW_RATIO,
    NO_NOTICE_PROCEDURES,
    WINNER_SHARE_THRESHOLD,
)

FETCH_ROWS = 5000


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)


def build_award_rows(con: duckdb.DuckDBPyConnection) -> None:
    """DuckDB table `award_rows`: every awarded lot with its tender, parties, flags and positions.

    Comparisons with the estimate and the winner share are exact (decimals); the discount is
    1 - value / estimate in doubles, as the competition index computes a tender's."""
    bit = FLAG_BITS
    con.execute(f"""
        CREATE TABLE award_rows AS
        WITH lots AS (
            SELECT aw.*, te.tender_date, te.name AS tender_name,
                CASE WHEN aw.lots = 1 THEN te.est_x END AS est_x, CASE WHEN aw.lots = 1 THEN te.est END AS est
            FROM aw JOIN te USING (tender_id)
        ), shares AS (
            SELECT authority_id, yr, contractor_id, sum(value_x) AS won,
                sum(sum(value_x)) OVER (PARTITION BY authority_id, yr) AS spent
            FROM lots GROUP BY authority_id, yr, contractor_id
        )
        SELECT lots.*,
            (CASE WHEN bids = 1 AND procedure IN ({_listed(COMPETITIVE_PROCEDURES)}) THEN {bit["single-bid"]} ELSE 0 END)
            + (CASE WHEN est_x > 0 AND value_x >= est_x THEN {bit["at-or-above-estimate"]} ELSE 0 END)
            + (CASE WHEN est_x > 0 AND value_x < est_x AND value_x >= {JUST_BELOW_RATIO} * est_x
                    THEN {bit["just-below-estimate"]} ELSE 0 END)
            + (CASE WHEN procedure IN ({_listed(NO_NOTICE_PROCEDURES)}) THEN {bit["negotiated-without-notice"]} ELSE 0 END)
            + (CASE WHEN shares.won > {WINNER_SHARE_THRESHOLD} * shares.spent THEN {bit["winner-share"]} ELSE 0 END)
                AS flags,
            CASE WHEN est_x > 0 THEN 1 - value / est END AS discount,
            CAST(CAST(est_x AS DECIMAL(38,2)) AS VARCHAR) AS estimated_cost,
            CAST(CAST(value_x AS DECIMAL(38,2)) AS VARCHAR) AS contract_value,
            CAST(row_number() OVER (ORDER BY tender_date DESC, tender_id, lot) AS INTEGER) AS seq,
            CAST(row_number() OVER (ORDER BY value_x DESC, tender_id, lot) AS INTEGER) AS seq_value
        FROM lots JOIN shares USING (authority_id, yr, contractor_id)
    """)


Rows = tuple[tuple[str, ...], Iterator[tuple[Any, ...]]]  # column names, and the rows as tuples in that order


def fetched(con: duckdb.DuckDBPyConnection, sql: str) -> Rows:
    """A query's column names and its rows, fetched in batches (tuples: no per-row object is built)."""
    cursor = con.execute(sql)
    columns = tuple(d[0] for d in cursor.description)

    def rows() -> Iterator[tuple[Any, ...]]:
        while batch := cursor.fetchmany(FETCH_ROWS):
            yield from batch

    return columns, rows()


def award_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """The stored rows of store/details.py's awards table, newest first."""
    return fetched(con, """
        SELECT seq, seq_value, tender_id, lot, lots, tender_date, yr AS year, tender_name, procedure, sector,
            authority_id, authority_type, province, contractor_id, cprov AS supplier_province, estimated_cost,
            contract_value, bids, discount, flags
        FROM award_rows ORDER BY seq
    """)


def tender_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """The stored rows of store/details.py's tenders table, newest first: every tender of the release,
    announced ones with no awarded lot included, with how many of its lots were awarded."""
    return fetched(con, """
        SELECT CAST(row_number() OVER (ORDER BY te.tender_date DESC, te.tender_id) AS INTEGER) AS seq, te.tender_id,
            te.tender_date, te.name AS tender_name, te.procedure, te.sector, te.authority_id,
            au.name AS authority_name, te.authority_type, te.province,
            CAST(CAST(te.est_x AS DECIMAL(38,2)) AS VARCHAR) AS estimated_cost, te.lots,
            CAST(coalesce(awarded.n, 0) AS INTEGER) AS awarded_lots
        FROM te JOIN au USING (authority_id)
        LEFT JOIN (SELECT tender_id, count(*) AS n FROM aw GROUP BY tender_id) awarded USING (tender_id)
        ORDER BY seq
    """)


def _source(column: str) -> str:
    """The column of `award_rows` a stored awards column comes from."""
    return {"year": "yr", "supplier_province": "cprov"}.get(column, column)


def award_count_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """How many awards match each value of one filter, or of two (dim "a|b", value "x|y", in
    COUNTED's order), with the first and last position (newest first) among them: ("", "") for
    every award, ("flags", mask) for a flag mask (any of its flags)."""
    rows = [("", "", *con.execute("SELECT count(*), min(seq), max(seq) FROM award_rows").fetchone())]
    for column in COUNTED:
        source = _source(column)
        rows += [(column, str(value), count, first, last) for value, count, first, last in con.execute(
            f"SELECT {source}, count(*), min(seq), max(seq) FROM award_rows WHERE {source} IS NOT NULL GROUP BY 1"
        ).fetchall()]
    for i, first_column in enumerate(COUNTED):
        for second_column in COUNTED[i + 1:]:
            a, b = (_source(c) for c in (first_column, second_column))
            rows += [(f"{first_column}|{second_column}", f"{x}|{y}", count, first, last)
                     for x, y, count, first, last in con.execute(
                         f"SELECT {a}, {b}, count(*), min(seq), max(seq) FROM award_rows "
                         f"WHERE {a} IS NOT NULL AND {b} IS NOT NULL GROUP BY 1, 2").fetchall()]
    for mask in range(1, ALL_FLAGS_MASK + 1):
        rows.append(("flags", str(mask), *con.execute(
            "SELECT count(*), min(seq), max(seq) FROM award_rows WHERE flags & ? <> 0", [mask]).fetchone()))
    for column in COUNTED:  # a flag set with one other filter: from the counts of each exact set of flags
        source = _source(column)
        exact: dict[str, list[tuple[int, int, int, int]]] = {}
        for value, flags, count, first, last in con.execute(
                f"SELECT {source}, flags, count(*), min(seq), max(seq) FROM award_rows WHERE {source} IS NOT NULL "
                "GROUP BY 1, 2").fetchall():
            exact.setdefault(str(value), []).append((flags, count, first, last))
        for value, sets in exact.items():
            for mask in range(1, ALL_FLAGS_MASK + 1):
                hits = [s for s in sets if s[0] & mask]
                if hits:
                    rows.append((f"flags|{column}", f"{mask}|{value}", sum(s[1] for s in hits),
                                 min(s[2] for s in hits), max(s[3] for s in hits)))
    return ("dim", "value", "count", "first_seq", "last_seq"), iter(rows)
