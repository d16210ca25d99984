"""Every statistic of procurement-statistics.md, computed in DuckDB over the validated release.

Each `compute_*` function returns a DataFrame of finished items; `served_items` turns them into the
rows the store keeps (filter keys, order positions and the JSON body of each item).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import duckdb
import pandas as pd

from store.items import COVERAGE, INDEX_KINDS, KINDS, PROVINCE_SECTORS, SUPPLY_FLOWS
from store.jsontext import item_json
from store.reference.dimensions import INDEX_DIMENSIONS
from store.reference.lists import authority_types, procedures, provinces, sectors

# dimension -> the column of the typed tables that holds its subject
DIMENSION_COLUMN = {
    "overall": "NULL::VARCHAR",
    "province": "CAST(province AS VARCHAR)",
    "sector": "CAST(sector AS VARCHAR)",
    "procedure": "procedure",
    "authority-type": "authority_type",
}
RANKING_SIZE = 10
ALL = "all"
# Amounts in TRY are summed exactly (the release's values have at most 6 decimals) and served rounded
# to the kuruş, half away from zero; `_money` gives the SQL of that rounding, as text so that no
# double comes between DuckDB's decimal and the JSON body (decisions.md, "Precision").
EXACT = "DECIMAL(38,6)"


def _money(expression: str) -> str:
    return f"CAST(CAST({expression} AS DECIMAL(38,2)) AS VARCHAR)"


def has_tender_names(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the release's tenders.csv has the optional `name` column."""
    return "name" in {r[0] for r in con.execute("DESCRIBE raw_tenders").fetchall()}


def build_typed_tables(con: duckdb.DuckDBPyConnection) -> int:
    """Typed, joined tables over the raw text tables; returns the latest year in the release."""
    # An empty name is no name: the column is optional, and so is each tender's cell.
    name = "nullif(trim(t.name), '')" if has_tender_names(con) else "NULL::VARCHAR"
    con.execute(f"""
        CREATE TABLE au AS SELECT authority_id, name, authority_type, CAST(province AS INTEGER) AS province
        FROM raw_authorities;
        CREATE TABLE co AS SELECT contractor_id, name, CAST(province AS INTEGER) AS province FROM raw_contractors;
        CREATE TABLE te AS SELECT t.tender_id, t.authority_id, year(CAST(t.tender_date AS DATE)) AS yr,
            t.procedure, CAST(t.sector AS INTEGER) AS sector, CAST(t.estimated_cost AS DOUBLE) AS est,
            CAST(t.estimated_cost AS {EXACT}) AS est_x, t.tender_date, {name} AS name,
            CAST(t.lots AS INTEGER) AS lots, au.province, au.authority_type
        FROM raw_tenders t JOIN au USING (authority_id);
        CREATE TABLE aw AS SELECT w.tender_id, CAST(w.lot AS INTEGER) AS lot, CAST(w.bids AS INTEGER) AS bids,
            w.contractor_id, CAST(w.contract_value AS DOUBLE) AS value,
            CAST(w.contract_value AS {EXACT}) AS value_x, te.yr, te.province, te.authority_type,
            te.sector, te.procedure, te.lots, te.authority_id, co.province AS cprov
        FROM raw_awards w JOIN te USING (tender_id) JOIN co USING (contractor_id)
        WHERE w.contractor_id IS NOT NULL;
        CREATE TABLE dp AS SELECT d.purchase_id, d.authority_id, year(CAST(d.purchase_date AS DATE)) AS yr,
            CAST(d.sector AS INTEGER) AS sector, d.supplier_id, CAST(d.amount AS DOUBLE) AS amount,
            CAST(d.amount AS {EXACT}) AS amount_x, au.province, au.authority_type
        FROM raw_direct_purchases d JOIN au USING (authority_id);
    """)
    latest = con.execute("SELECT max(y) FROM (SELECT max(yr) AS y FROM te UNION ALL SELECT max(yr) FROM dp)").fetchone()[0]
    return int(latest) if latest is not None else 2019


def _grouped(con: duckdb.DuckDBPyConnection, dimension: str, sql: str) -> pd.DataFrame:
    """Run `sql` (with {subj} placeholders) grouped per (subject, year) and per subject over all years."""
    query = sql.format(subj=DIMENSION_COLUMN[dimension], TENDER_DISCOUNTS=TENDER_DISCOUNTS)
    return con.execute(query).df()


# Every tender with a discount (procurement-statistics.md, `averageDiscount`): an estimated cost above
# 0 and every lot awarded; `discount` is 1 - (sum of its contract values) / estimated cost. Shared by
# the competition index, the discount benchmarks and the authorities' profiles.
TENDER_DISCOUNTS = """
            SELECT te.*, 1 - s.total / te.est AS discount
            FROM te JOIN (SELECT tender_id, sum(value) AS total, count(*) AS awarded FROM aw GROUP BY tender_id) s
                USING (tender_id)
            WHERE te.est > 0 AND s.awarded = te.lots"""


def compute_competition(con: duckdb.DuckDBPyConnection, dimension: str) -> pd.DataFrame:
    return _grouped(con, dimension, """
        WITH t AS (
            SELECT {subj} AS subj, yr, count(*) AS tenders, avg(lots) AS "averageLots"
            FROM te GROUP BY GROUPING SETS ((subj, yr), (subj))
        ), l AS (
            SELECT {subj} AS subj, yr,
                count(bids) AS "lotsWithBids",
                count(*) FILTER (WHERE bids = 1) AS single,
                count(bids) FILTER (WHERE lots = 1) AS with_bids_1,
                count(*) FILTER (WHERE bids = 1 AND lots = 1) AS single_1
            FROM aw GROUP BY GROUPING SETS ((subj, yr), (subj))
        ), per_tender AS ({TENDER_DISCOUNTS}
        ), d AS (
            SELECT {subj} AS subj, yr, avg(discount) AS "averageDiscount"
            FROM per_tender GROUP BY GROUPING SETS ((subj, yr), (subj))
        )
        SELECT t.subj, t.yr, t.tenders,
            CASE WHEN l."lotsWithBids" > 0 THEN l.single / l."lotsWithBids" END AS "singleBidShare",
            CASE WHEN l.with_bids_1 > 0 THEN l.single_1 / l.with_bids_1 END AS "singleBidShareSingleLot",
            coalesce(l."lotsWithBids", 0) AS "lotsWithBids",
            t."averageLots", d."averageDiscount"
        FROM t LEFT JOIN l ON t.subj IS NOT DISTINCT FROM l.subj AND t.yr IS NOT DISTINCT FROM l.yr
               LEFT JOIN d ON t.subj IS NOT DISTINCT FROM d.subj AND t.yr IS NOT DISTINCT FROM d.yr
    """)


def compute_concentration(con: duckdb.DuckDBPyConnection, dimension: str) -> pd.DataFrame:
    return _grouped(con, dimension, """
        WITH cv AS (
            SELECT {subj} AS subj, yr, contractor_id, sum(value) AS v, count(*) AS n
            FROM aw GROUP BY GROUPING SETS ((subj, yr, contractor_id), (subj, contractor_id))
        ), ranked AS (
            SELECT *, row_number() OVER (PARTITION BY subj, yr ORDER BY v DESC, contractor_id) AS rk,
                sum(v) OVER (PARTITION BY subj, yr) AS tot
            FROM cv
        )
        SELECT subj, yr, sum(n) AS contracts, count(*) AS firms,
            CASE WHEN max(tot) > 0 THEN sum(v) FILTER (WHERE rk <= 1) / max(tot) END AS cr1,
            CASE WHEN max(tot) > 0 THEN sum(v) FILTER (WHERE rk <= 4) / max(tot) END AS cr4,
            CASE WHEN max(tot) > 0 THEN sum(v) FILTER (WHERE rk <= 10) / max(tot) END AS cr10,
            CASE WHEN max(tot) > 0 THEN sum((100 * v / tot) * (100 * v / tot)) END AS hhi
        FROM ranked GROUP BY subj, yr
    """)


def compute_direct(con: duckdb.DuckDBPyConnection, dimension: str) -> pd.DataFrame:
    # quantile_cont interpolates linearly between order statistics, as NumPy's default method does.
    return _grouped(con, dimension, f"""
        SELECT {{subj}} AS subj, yr, count(*) AS purchases,
            {_money("quantile_cont(amount, 0.5)")} AS median, {_money("avg(amount_x)")} AS mean,
            {_money("sum(amount_x)")} AS total, {_money("quantile_cont(amount, 0.95)")} AS p95,
            {_money("quantile_cont(amount, 0.99)")} AS p99, {_money("max(amount_x)")} AS max,
            CASE WHEN sum(amount) > 0 THEN max(amount) / sum(amount) END AS "largestShare"
        FROM dp GROUP BY GROUPING SETS ((subj, yr), (subj))
    """)


def compute_localization(con: duckdb.DuckDBPyConnection, dimension: str) -> pd.DataFrame:
    return _grouped(con, dimension, """
        SELECT {subj} AS subj, yr, count(*) AS contracts,
            count(*) FILTER (WHERE cprov = province) / count(*) AS "localShareCount",
            CASE WHEN sum(value) > 0 THEN coalesce(sum(value) FILTER (WHERE cprov = province), 0) / sum(value) END
                AS "localShareValue"
        FROM aw WHERE cprov IS NOT NULL GROUP BY GROUPING SETS ((subj, yr), (subj))
    """)


INDEX_COMPUTERS = {
    "competition": (compute_competition, {"tenders": 0, "lotsWithBids": 0}),
    "concentration": (compute_concentration, {"contracts": 0, "firms": 0}),
    "direct": (compute_direct, {"purchases": 0}),
    "localization": (compute_localization, {"contracts": 0}),
}
INDEX_FIELDS = {
    "competition": ["tenders", "singleBidShare", "singleBidShareSingleLot", "lotsWithBids", "averageLots", "averageDiscount"],
    "concentration": ["contracts", "firms", "cr1", "cr4", "cr10", "hhi"],
    "direct": ["purchases", "median", "mean", "total", "p95", "p99", "max", "largestShare"],
    "localization": ["contracts", "localShareCount", "localShareValue"],
}
MONEY_FIELDS = {"median", "mean", "total", "p95", "p99", "max"}


def subjects(dimension: str) -> list[tuple[str | None, Any, str, str]]:
    """(key, id as served, Turkish name, English name) of every subject of a dimension, in item order."""
    if dimension == "overall":
        return [(None, None, "Türkiye", "Türkiye")]
    if dimension == "province":
        return [(str(p.plate), p.plate, p.name, p.name) for p in provinces().values()]
    if dimension == "sector":
        return [(str(s.id), s.id, s.name_tr, s.name_en) for s in sectors().values()]
    table = procedures() if dimension == "procedure" else authority_types()
    return [(t.id, t.id, t.name_tr, t.name_en) for t in sorted(table.values(), key=lambda t: t.id)]


def _clean(value: Any) -> Any:
    """JSON-ready scalar: numpy types to Python, NaN and missing to None."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
        if isinstance(value, float) and math.isnan(value):
            return None
    return value


def index_items(con: duckdb.DuckDBPyConnection, kind: str, latest_year: int) -> Iterator[dict[str, Any]]:
    """Every (dimension, subject, period) item of an index endpoint, including empty ones (null statistics)."""
    compute, zero_counts = INDEX_COMPUTERS[kind]
    fields = INDEX_FIELDS[kind]
    periods = [str(y) for y in range(2019, latest_year + 1)] + [ALL]
    for dimension in INDEX_DIMENSIONS[kind]:
        frame = compute(con, dimension)
        found: dict[tuple[str | None, str], dict[str, Any]] = {}
        for record in frame.to_dict("records"):
            subj = _clean(record.pop("subj"))
            year = _clean(record.pop("yr"))
            found[(subj, ALL if year is None else str(int(year)))] = record
        seq = 0
        for key, served_id, name_tr, name_en in subjects(dimension):
            for period in periods:
                stats = found.get((key, period), {})
                body: dict[str, Any] = {
                    "dimension": dimension, "subject": served_id, "subjectName": name_tr,
                    "subjectNameEn": name_en, "period": period,
                }
                for name in fields:
                    value = _clean(stats.get(name))
                    if value is None and name in zero_counts:
                        value = 0
                    elif name in zero_counts or name in ("tenders", "contracts", "firms", "purchases"):
                        value = int(value)
                    elif name in MONEY_FIELDS and value is not None:
                        value = Decimal(value)
                    body[name] = value
                seq += 1
                yield INDEX_KINDS[kind].row(dimension=dimension, subject=key, period=period, seq=seq, body=body)


def province_sector_items(con: duckdb.DuckDBPyConnection) -> Iterator[dict[str, Any]]:
    # The parts are rounded and the amount is their sum, so that `amount = localAmount + otherAmount`
    # holds exactly as served (it may differ from the rounded exact total by one kuruş).
    frame = con.execute(f"""
        WITH t AS (SELECT province, sector, count(*) AS tenders FROM te GROUP BY province, sector),
        a AS (
            SELECT province, sector,
                CAST(coalesce(sum(value_x) FILTER (WHERE cprov = province), 0) AS DECIMAL(38,2)) AS local,
                CAST(coalesce(sum(value_x) FILTER (WHERE cprov IS NULL OR cprov <> province), 0) AS DECIMAL(38,2))
                    AS other
            FROM aw GROUP BY province, sector
        )
        SELECT t.province, t.sector, t.tenders, {_money("a.local + a.other")} AS amount,
            {_money("a.local")} AS local, {_money("a.other")} AS other
        FROM t LEFT JOIN a USING (province, sector)
    """).df()
    records = [{k: _decimal(_clean(v)) if k in ("amount", "local", "other") else _clean(v) for k, v in r.items()}
               for r in frame.to_dict("records")]
    by_tenders = sorted(records, key=lambda r: (-r["tenders"], r["province"], r["sector"]))
    alt = {(r["province"], r["sector"]): i for i, r in enumerate(by_tenders, 1)}
    # Cells whose tenders have no awarded lot have a null amount; they sort after every amount.
    by_amount = sorted(records, key=lambda r: (r["amount"] is None, -(r["amount"] or 0), r["province"], r["sector"]))
    for seq, r in enumerate(by_amount, 1):
        p, s = provinces()[int(r["province"])], sectors()[int(r["sector"])]
        body = {
            "province": p.plate, "provinceName": p.name, "sector": s.id, "sectorName": s.name_tr, "sectorNameEn": s.name_en,
            "tenders": int(r["tenders"]), "amount": r["amount"], "localAmount": r["local"], "otherAmount": r["other"],
        }
        yield PROVINCE_SECTORS.row(province=p.plate, sector=s.id, seq=seq, seq_alt=alt[(r["province"], r["sector"])],
                                   body=body)


def supply_flow_items(con: duckdb.DuckDBPyConnection) -> Iterator[dict[str, Any]]:
    frame = con.execute("""
        SELECT buyer, supplier, contracts, CAST(rounded AS VARCHAR) AS amount FROM (
            SELECT province AS buyer, cprov AS supplier, count(*) AS contracts,
                CAST(sum(value_x) AS DECIMAL(38,2)) AS rounded
            FROM aw WHERE cprov IS NOT NULL GROUP BY province, cprov
        ) ORDER BY rounded DESC, buyer, supplier
    """).df()
    for seq, r in enumerate(frame.to_dict("records"), 1):
        buyer, supplier = provinces()[int(r["buyer"])], provinces()[int(r["supplier"])]
        body = {
            "buyerProvince": buyer.plate, "buyerProvinceName": buyer.name,
            "supplierProvince": supplier.plate, "supplierProvinceName": supplier.name,
            "contracts": int(r["contracts"]), "amount": Decimal(r["amount"]),
        }
        yield SUPPLY_FLOWS.row(buyerProvince=buyer.plate, supplierProvince=supplier.plate, seq=seq, body=body)


# (kind, scope, method) -> SQL giving scope_id, entity id and amount/count per entity; the amount is
# rounded to the kuruş before ranking, so that ties of the served amounts break by id. The national
# scope has no id: one ranking over every authority or contractor.
def _ranking(scope: str, entity: str, amount: str, table: str) -> str:
    """Amount and count per entity and scope id; the national scope has one ranking, its id null."""
    scope_id = "NULL::INTEGER" if scope == "national" else scope
    return (f"SELECT {scope_id} AS scope_id, {entity} AS id, CAST(sum({amount}) AS DECIMAL(38,2)) AS amount, "
            f"count(*) AS n FROM {table} GROUP BY 1, 2")


RANKINGS: dict[tuple[str, str, str], str] = {
    **{("top-authorities", scope, "tender"): _ranking(scope, "authority_id", "value_x", "aw")
       for scope in ("province", "sector", "national")},
    **{("top-authorities", scope, "direct"): _ranking(scope, "authority_id", "amount_x", "dp")
       for scope in ("province", "national")},
    **{("top-contractors", scope, "tender"): _ranking(scope, "contractor_id", "value_x", "aw")
       for scope in ("province", "sector", "national")},
    **{("top-contractors", scope, "direct"): _ranking(scope, "supplier_id", "amount_x", "dp")
       for scope in ("province", "national")},
    ("top-contractors", "province", "headquartered"): """
        SELECT co.province AS scope_id, won.id, CAST(sum(won.amount) AS DECIMAL(38,2)) AS amount, count(*) AS n
        FROM (SELECT contractor_id AS id, value_x AS amount FROM aw
              UNION ALL SELECT supplier_id, amount_x FROM dp) won
        JOIN co ON co.contractor_id = won.id WHERE co.province IS NOT NULL GROUP BY 1, 2""",
}


def ranking_items(con: duckdb.DuckDBPyConnection) -> Iterator[dict[str, Any]]:
    for (kind, scope, method), sql in RANKINGS.items():
        entity = "au" if kind == "top-authorities" else "co"
        id_column = "authority_id" if entity == "au" else "contractor_id"
        extra = ", e.authority_type" if entity == "au" else ""
        frame = con.execute(f"""
            WITH r AS ({sql}), ranked AS (
                SELECT *, row_number() OVER (PARTITION BY scope_id ORDER BY amount DESC, id) AS rank FROM r
            )
            SELECT ranked.scope_id, ranked.rank, ranked.id, e.name, e.province{extra},
                CAST(ranked.amount AS VARCHAR) AS amount, ranked.n
            FROM ranked JOIN {entity} e ON e.{id_column} = ranked.id
            WHERE ranked.rank <= {RANKING_SIZE} ORDER BY ranked.scope_id, ranked.rank
        """).df()
        for r in frame.to_dict("records"):
            body: dict[str, Any] = {"rank": int(r["rank"])}
            if entity == "au":
                body.update(authorityId=r["id"], name=r["name"], authorityType=r["authority_type"])
            else:
                body.update(contractorId=r["id"], name=r["name"])
            plate = _clean(r["province"])
            body.update(province=None if plate is None else int(plate),
                        provinceName=None if plate is None else provinces()[int(plate)].name,
                        amount=Decimal(r["amount"]), count=int(r["n"]))
            scope_id = _clean(r["scope_id"])
            yield KINDS[kind].row(scope=scope, scopeId=None if scope_id is None else int(scope_id), method=method,
                                  seq=int(r["rank"]), body=body)


def compute_coverage(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """What the release itself holds (procurement-statistics.md describes the source; this, the
    records loaded): per year with any record, its tenders, lots, awarded lots and direct purchases;
    and over every awarded lot, how many carry the fields the statistics rest on."""
    years = con.execute("""
        WITH t AS (SELECT yr, count(*) AS tenders FROM te GROUP BY yr),
        l AS (SELECT te.yr, count(*) AS lots, count(*) FILTER (WHERE w.contractor_id IS NOT NULL) AS awarded
              FROM raw_awards w JOIN te USING (tender_id) GROUP BY te.yr),
        d AS (SELECT yr, count(*) AS purchases FROM dp GROUP BY yr),
        y AS (SELECT yr FROM t UNION SELECT yr FROM d)
        SELECT y.yr, coalesce(t.tenders, 0), coalesce(l.lots, 0), coalesce(l.awarded, 0), coalesce(d.purchases, 0)
        FROM y LEFT JOIN t USING (yr) LEFT JOIN l USING (yr) LEFT JOIN d USING (yr) ORDER BY y.yr
    """).fetchall()
    awarded, estimate, bids, province = con.execute("""
        SELECT count(*), count(*) FILTER (WHERE te.est IS NOT NULL), count(*) FILTER (WHERE aw.bids IS NOT NULL),
            count(*) FILTER (WHERE aw.cprov IS NOT NULL)
        FROM aw JOIN te USING (tender_id)
    """).fetchone()

    def part(count: int) -> dict[str, Any]:
        return {"count": int(count), "share": round(count / awarded, 4) if awarded else None}

    return {
        "years": [{"year": int(y), "tenders": int(t), "lots": int(lo), "awardedLots": int(a), "purchases": int(d)}
                  for y, t, lo, a, d in years],
        "awardedLots": int(awarded),
        "withEstimate": part(estimate), "withBids": part(bids), "withContractorProvince": part(province),
    }


def coverage_items(con: duckdb.DuckDBPyConnection) -> Iterator[dict[str, Any]]:
    yield COVERAGE.row(seq=1, body=compute_coverage(con))


def served_items(con: duckdb.DuckDBPyConnection, latest_year: int) -> Iterator[dict[str, Any]]:
    """Every item of every statistics endpoint, with its JSON body serialised once, here."""
    sources = [index_items(con, kind, latest_year) for kind in INDEX_COMPUTERS]
    sources += [province_sector_items(con), supply_flow_items(con), ranking_items(con), coverage_items(con)]
    for source in sources:
        for item in source:
            item["body"] = item_json(item["body"])
            yield item


def _decimal(value: Any) -> Decimal | None:
    return None if value is None else Decimal(value)

