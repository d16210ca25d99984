"""Validating a release inside DuckDB: every rule of procurement-statistics.md, every problem located."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import duckdb

from loaders.procurement.release import (
    COLUMNS,
    MAX_PROBLEMS,
    OPTIONAL_COLUMNS,
    OpenedRelease,
    ReleaseProblem,
    ReleaseRejectedError,
)
from store.reference.lists import authority_types, procedures, provinces, sectors

EARLIEST_DATE = "2019-01-01"
PROBLEMS_PER_RULE = 50
INT = r"[0-9]{1,18}"
# The statistics hold lots, lot numbers and bids as 32-bit integers.
MAX_INTEGER = 2**31 - 1
# At most six decimals: the smallest positive amount is then 0.000001, so no ratio of two amounts
# (the discount against the estimated cost) can overflow to infinity.
DECIMAL = r"-?[0-9]{1,15}(\.[0-9]{1,6})?"
DATE = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"


@dataclass(frozen=True)
class Rule:
    """A check: `bad` is a SQL condition over the raw table that is true on a bad row.

    DuckDB does not short-circuit AND, so every cast in a condition is a TRY_CAST."""

    file: str
    column: str
    bad: str
    message: str


def _table(file: str) -> str:
    return "raw_" + file.removesuffix(".csv")


def load_raw_tables(con: duckdb.DuckDBPyConnection, opened: OpenedRelease,
                    files: tuple[str, ...] = tuple(COLUMNS)) -> list[ReleaseProblem]:
    """Read every CSV (or those of `files`) as text into a table `raw_<name>` with a `_row` column;
    header problems returned."""
    problems: list[ReleaseProblem] = []
    for file in files:
        required = COLUMNS[file]
        path = opened.directory / file
        if not path.is_file():
            problems.append(ReleaseProblem(file, "missing from the release"))
            continue
        header = _read_header(path)
        if header is None:
            problems.append(ReleaseProblem(file, "empty file or not UTF-8 text", row=1))
            continue
        missing = [c for c in required if c not in header]
        for column in missing:
            problems.append(ReleaseProblem(file, "column missing from the header", row=1, column=column))
        duplicated = sorted({c for c in header if header.count(c) > 1})
        for column in duplicated:
            problems.append(ReleaseProblem(file, "column appears twice in the header", row=1, column=column))
        if missing or duplicated:
            continue
        columns = ", ".join(f"'{c.replace(chr(39), '')}': 'VARCHAR'" for c in header)
        kept = required + [c for c in OPTIONAL_COLUMNS.get(file, []) if c in header]
        try:
            con.execute(
                # CREATE TABLE AS keeps the file's order (preserve_insertion_order), so rowid + 2
                # is the record's row in the file, the header being row 1. Only the required and
                # optional columns are kept: others are ignored, whatever their names (`rowid`, `_bad` …).
                f"""CREATE TABLE {_table(file)} AS
                SELECT {", ".join(kept)} FROM read_csv(?, header=true, auto_detect=false,
                    delim=',', quote='"', escape='"', columns={{{columns}}}, strict_mode=true,
                    null_padding=false, encoding='utf-8')""",
                [str(path)],
            )
        except duckdb.Error as exc:
            problems.append(ReleaseProblem(file, f"not a valid CSV file: {str(exc).splitlines()[0]}"))
    return problems


def _read_header(path: Path) -> list[str] | None:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            return next(csv.reader(handle), None)
    except UnicodeDecodeError:
        return None


def _reference_values(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("CREATE TABLE ref_province AS SELECT unnest(?) AS v", [[str(p) for p in provinces()]])
    con.execute("CREATE TABLE ref_sector AS SELECT unnest(?) AS v", [[str(s) for s in sectors()]])
    con.execute("CREATE TABLE ref_authority_type AS SELECT unnest(?) AS v", [list(authority_types())])
    con.execute("CREATE TABLE ref_procedure AS SELECT unnest(?) AS v", [list(procedures())])


def _rules(published_date: str) -> list[Rule]:
    def required(file: str, column: str) -> Rule:
        return Rule(file, column, f"{column} IS NULL OR trim({column}) = ''", "value is required")

    def integer(file: str, column: str, low: int) -> Rule:
        return Rule(file, column, f"{column} IS NOT NULL AND NOT (regexp_full_match({column}, '{INT}') AND "
                    f"coalesce(TRY_CAST({column} AS HUGEINT) BETWEEN {low} AND {MAX_INTEGER}, false))",
                    f"must be a whole number from {low} to {MAX_INTEGER}")

    def amount(file: str, column: str) -> list[Rule]:
        return [
            Rule(file, column, f"{column} IS NOT NULL AND NOT regexp_full_match({column}, '{DECIMAL}')",
                 "must be a number with '.' as the decimal mark and at most 6 decimals"),
            Rule(file, column, f"regexp_full_match({column}, '{DECIMAL}') AND TRY_CAST({column} AS DOUBLE) < 0",
                 "must not be negative"),
        ]

    def day(file: str, column: str) -> list[Rule]:
        parsed = f"TRY_CAST({column} AS DATE)"
        return [
            Rule(file, column, f"{column} IS NOT NULL AND NOT (regexp_full_match({column}, '{DATE}') AND {parsed} IS NOT NULL)",
                 "must be a date YYYY-MM-DD"),
            Rule(file, column, f"{parsed} < DATE '{EARLIEST_DATE}'", f"is before {EARLIEST_DATE}"),
            Rule(file, column, f"{parsed} > DATE '{published_date}'", f"is after the release's publishedAt ({published_date})"),
        ]

    def unique(file: str, column: str) -> Rule:
        return Rule(file, column, f"count(*) OVER (PARTITION BY {column}) > 1 AND {column} IS NOT NULL",
                    "duplicated id")

    def refers(file: str, column: str, target: str, target_column: str, what: str) -> Rule:
        return Rule(file, column, f"{column} IS NOT NULL AND {column} NOT IN (SELECT {target_column} FROM {target} "
                    f"WHERE {target_column} IS NOT NULL)", f"unknown {what}")

    a, c, t, w, d = "authorities.csv", "contractors.csv", "tenders.csv", "awards.csv", "direct_purchases.csv"
    return [
        required(a, "authority_id"), unique(a, "authority_id"), required(a, "name"), required(a, "authority_type"),
        refers(a, "authority_type", "ref_authority_type", "v", "authority type"),
        required(a, "province"), refers(a, "province", "ref_province", "v", "province plate code (1-81)"),
        required(c, "contractor_id"), unique(c, "contractor_id"), required(c, "name"),
        refers(c, "province", "ref_province", "v", "province plate code (1-81)"),
        required(t, "tender_id"), unique(t, "tender_id"), required(t, "authority_id"),
        refers(t, "authority_id", "raw_authorities", "authority_id", "authority"),
        required(t, "tender_date"), *day(t, "tender_date"),
        required(t, "procedure"), refers(t, "procedure", "ref_procedure", "v", "procedure"),
        required(t, "sector"), refers(t, "sector", "ref_sector", "v", "sector id"),
        *amount(t, "estimated_cost"), required(t, "lots"), integer(t, "lots", 1),
        required(w, "tender_id"), refers(w, "tender_id", "raw_tenders", "tender_id", "tender"),
        required(w, "lot"), integer(w, "lot", 1),
        Rule(w, "lot", f"regexp_full_match(lot, '{INT}') AND tender_id IN (SELECT tender_id FROM raw_tenders "
             f"WHERE regexp_full_match(lots, '{INT}')) AND TRY_CAST(lot AS HUGEINT) > (SELECT max(TRY_CAST(lots AS HUGEINT)) "
             # max(): a duplicated tender_id (refused by its own rule) must not break this one
             "FROM raw_tenders t WHERE t.tender_id = raw_awards.tender_id)", "lot number is above the tender's lots"),
        Rule(w, "lot", "count(*) OVER (PARTITION BY tender_id, lot) > 1 AND lot IS NOT NULL", "lot repeated for the tender"),
        integer(w, "bids", 0),
        refers(w, "contractor_id", "raw_contractors", "contractor_id", "contractor"),
        *amount(w, "contract_value"),
        Rule(w, "contract_value", "contractor_id IS NOT NULL AND contract_value IS NULL",
             "required when the lot was awarded (contractor_id given)"),
        Rule(w, "contract_value", "contractor_id IS NULL AND contract_value IS NOT NULL",
             "must be empty when the lot was not awarded (no contractor_id)"),
        required(d, "purchase_id"), unique(d, "purchase_id"), required(d, "authority_id"),
        refers(d, "authority_id", "raw_authorities", "authority_id", "authority"),
        required(d, "purchase_date"), *day(d, "purchase_date"),
        required(d, "sector"), refers(d, "sector", "ref_sector", "v", "sector id"),
        required(d, "supplier_id"), refers(d, "supplier_id", "raw_contractors", "contractor_id", "contractor"),
        required(d, "amount"), *amount(d, "amount"),
    ]


def validate_release(con: duckdb.DuckDBPyConnection, opened: OpenedRelease) -> None:
    """Load the raw tables and check every rule; raise ReleaseRejectedError listing every problem."""
    problems = load_raw_tables(con, opened)
    present = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    total = len(problems)
    for entry in opened.manifest.datasets:
        table = _table(entry["file"])
        if table in present:
            rows = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            if rows != entry["rows"]:
                problems.append(ReleaseProblem("manifest.json", f"{entry['file']} has {rows} data rows, the manifest says {entry['rows']}", column="rows"))
                total += 1
    if len(present) < len(COLUMNS):
        raise ReleaseRejectedError(problems, total)
    _reference_values(con)
    for rule in _rules(opened.manifest.published_at.date().isoformat()):
        table = _table(rule.file)
        bad_rows = (f"SELECT _row, {rule.column} AS value FROM (SELECT rowid + 2 AS _row, *, ({rule.bad}) AS _bad "
                    f"FROM {table}) WHERE _bad")
        count = con.execute(f"SELECT count(*) FROM ({bad_rows})").fetchone()[0]
        if not count:
            continue
        total += count
        for row, value in con.execute(f"{bad_rows} ORDER BY _row LIMIT {PROBLEMS_PER_RULE}").fetchall():
            shown = value if value is None or len(value) <= 60 else value[:57] + "..."
            problems.append(ReleaseProblem(rule.file, f"{rule.message} (value {shown!r})", row=row, column=rule.column))
        if count > PROBLEMS_PER_RULE:
            problems.append(ReleaseProblem(rule.file, f"{count - PROBLEMS_PER_RULE} more rows break the same rule",
                                           column=rule.column))
        if len(problems) >= MAX_PROBLEMS:
            break
    if problems:
        raise ReleaseRejectedError(problems, total)


def check_release(opened: OpenedRelease) -> None:
    """Validate an opened release in a DuckDB connection of its own, for a caller that computes
    nothing from it (ReleaseRejectedError lists every problem)."""
    con = duckdb.connect()
    try:
        validate_release(con, opened)
    finally:
        con.close()
