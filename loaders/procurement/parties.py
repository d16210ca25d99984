"""Authorities and contractors: their totals, the folded words of their names for the search, and
their profiles per year and over all years, computed in DuckDB at load time and stored as the JSON
each period's profile serves (docs/awards-and-flags.md, "Party search" and "Profiles")."""

from __future__ import annotations

import duckdb

from loaders.procurement.awards import Rows, fetched
from loaders.procurement.compute import TENDER_DISCOUNTS
from store.profile_bodies import pack_body
from store.reference.flags import FLAGS
from store.reference.folding import name_words

TOP_COUNTERPARTS = 10
MONEY = "DECIMAL(38,2)"
# What each kind's profile is grouped by and where its counterparts and places come from.
KINDS = {
    "authority": {"pid": "authority_id", "other": "contractor_id", "place": "cprov", "counterparts": "topContractors"},
    "contractor": {"pid": "contractor_id", "other": "authority_id", "place": "province",
                   "counterparts": "topAuthorities"},
}
PERIOD = "CASE WHEN GROUPING(yr) = 1 THEN 'all' ELSE CAST(yr AS VARCHAR) END"


def _flag_counts() -> tuple[str, str]:
    """The SQL of the per-flag counts (columns f0, f1, …) and of the JSON list built from them."""
    counts = ", ".join(f"count(*) FILTER (WHERE flags & {f.bit} <> 0) AS f{i}" for i, f in enumerate(FLAGS))
    listed = ", ".join(f"{{'flag': '{f.id}', 'contracts': coalesce(f{i}, 0)}}" for i, f in enumerate(FLAGS))
    return counts, f"[{listed}]"


def _counterpart(kind: str) -> tuple[str, str]:
    """The table naming a kind's counterparts and the struct one counterpart is served as."""
    if kind == "authority":
        return "co", "{'id': other, 'name': e.name, 'province': e.province, 'contracts': n, 'value': vr, 'share': share}"
    return "au", ("{'id': other, 'name': e.name, 'type': e.authority_type, 'province': e.province, 'contracts': n, "
                  "'value': vr, 'share': share}")


def _breakdown(pid: str, column: str, key: str) -> str:
    """Per (party, period): its awarded lots by `column`, as a JSON list by value, largest first."""
    return f"""
        SELECT pid, period, to_json(list({{'{key}': k, 'contracts': n, 'value': vr}} ORDER BY vr DESC, k NULLS LAST)) AS j
        FROM (SELECT {pid} AS pid, {PERIOD} AS period, {column} AS k, count(*) AS n,
                     CAST(sum(value_x) AS {MONEY}) AS vr
              FROM award_rows GROUP BY GROUPING SETS (({pid}, yr, {column}), ({pid}, {column})))
        GROUP BY pid, period"""


def build_profiles(con: duckdb.DuckDBPyConnection, kind: str) -> None:
    """DuckDB table `profiles_<kind>`: one row per (party, period) with any record, its JSON body and totals."""
    k = KINDS[kind]
    pid, other, authority = k["pid"], k["other"], kind == "authority"
    flag_sql, flag_json = _flag_counts()
    names, counterpart = _counterpart(kind)
    discount = ("" if authority else ", avg(discount) AS avg_discount, count(discount) AS discount_n")
    tender_parts = f"""
        , tenders AS (SELECT authority_id AS pid, {PERIOD} AS period, count(*) AS tenders FROM te
                      GROUP BY GROUPING SETS ((authority_id, yr), (authority_id)))
        , discounts AS (SELECT authority_id AS pid, {PERIOD} AS period, avg(discount) AS avg_discount,
                        count(*) AS discount_n FROM ({TENDER_DISCOUNTS}) GROUP BY GROUPING SETS ((authority_id, yr), (authority_id)))
        , periods AS (SELECT pid, period FROM lots UNION SELECT pid, period FROM tenders)""" if authority else """
        , periods AS (SELECT pid, period FROM lots)"""
    con.execute(f"""
        CREATE TABLE profiles_{kind} AS
        WITH lots AS (
            SELECT {pid} AS pid, {PERIOD} AS period, count(*) AS contracts, sum(value_x) AS value_x,
                count(bids) AS lots_with_bids, count(*) FILTER (WHERE bids = 1) AS single,
                count(cprov) AS local_den, count(*) FILTER (WHERE cprov = province) AS local_num, {flag_sql}{discount}
            FROM award_rows GROUP BY GROUPING SETS (({pid}, yr), ({pid}))
        ){tender_parts}
        , pairs AS (
            SELECT {pid} AS pid, {PERIOD} AS period, {other} AS other, count(*) AS n, sum(value) AS v,
                CAST(sum(value_x) AS {MONEY}) AS vr
            FROM award_rows GROUP BY GROUPING SETS (({pid}, yr, {other}), ({pid}, {other}))
        ), ranked AS (
            SELECT *, row_number() OVER (PARTITION BY pid, period ORDER BY vr DESC, other) AS rank,
                sum(v) OVER (PARTITION BY pid, period) AS total
            FROM pairs
        ), top AS (
            SELECT pid, period,
                to_json(list({counterpart} ORDER BY rank) FILTER (WHERE rank <= {TOP_COUNTERPARTS})) AS j,
                CASE WHEN max(total) > 0 THEN sum((100 * v / total) * (100 * v / total)) END AS hhi
            FROM (SELECT *, CASE WHEN total > 0 THEN v / total END AS share FROM ranked) r
                JOIN {names} e ON e.{other} = r.other
            GROUP BY pid, period
        ), sectors AS ({_breakdown(pid, "sector", "sector")}
        ), places AS ({_breakdown(pid, k["place"], "province")}
        )
        SELECT periods.pid, periods.period, coalesce(lots.contracts, 0) AS contracts, lots.value_x,
            {"coalesce(tenders.tenders, 0)" if authority else "NULL::BIGINT"} AS tenders,
            json_object(
                'period', periods.period, 'contracts', coalesce(lots.contracts, 0),
                'value', CAST(lots.value_x AS {MONEY}),
                {"'tenders', coalesce(tenders.tenders, 0)," if authority else ""}
                'singleBidShare', CASE WHEN lots.lots_with_bids > 0 THEN lots.single / lots.lots_with_bids END,
                'lotsWithBids', coalesce(lots.lots_with_bids, 0),
                'averageDiscount', {"discounts" if authority else "lots"}.avg_discount,
                'discountTenders', coalesce({"discounts" if authority else "lots"}.discount_n, 0),
                'localShare', CASE WHEN lots.local_den > 0 THEN lots.local_num / lots.local_den END,
                'localShareContracts', coalesce(lots.local_den, 0),
                {"'hhi', top.hhi," if authority else ""}
                '{k["counterparts"]}', coalesce(top.j, '[]'::JSON),
                'sectors', coalesce(sectors.j, '[]'::JSON), 'provinces', coalesce(places.j, '[]'::JSON),
                'flags', {flag_json}
            ) AS body
        FROM periods LEFT JOIN lots USING (pid, period)
            {"LEFT JOIN tenders USING (pid, period) LEFT JOIN discounts USING (pid, period)" if authority else ""}
            LEFT JOIN top USING (pid, period) LEFT JOIN sectors USING (pid, period) LEFT JOIN places USING (pid, period)
    """)


def build_parties(con: duckdb.DuckDBPyConnection) -> None:
    """DuckDB tables `profiles_authority`, `profiles_contractor` and `parties`: every authority and
    contractor of the release with its totals, the folded words of its name and its place in the
    search order (per kind: largest total value first, then id; authorities before contractors)."""
    for kind in KINDS:
        build_profiles(con, kind)
    con.execute(f"""
        CREATE TABLE party_base AS
        WITH a AS (
            SELECT 'authority' AS kind, au.authority_id AS party_id, au.name, au.province, au.authority_type AS type
            FROM au
        ), c AS (
            SELECT 'contractor' AS kind, co.contractor_id AS party_id, co.name, co.province, NULL AS type FROM co
        ), totals AS (
            SELECT 'authority' AS kind, pid, contracts, value_x, tenders FROM profiles_authority WHERE period = 'all'
            UNION ALL
            SELECT 'contractor', pid, contracts, value_x, NULL FROM profiles_contractor WHERE period = 'all'
        ), years AS (
            SELECT 'authority' AS kind, pid, to_json(list({{'period': period, 'contracts': contracts,
                'value': CAST(value_x AS {MONEY}), 'tenders': tenders}} ORDER BY period)) AS years
            FROM profiles_authority WHERE period <> 'all' GROUP BY pid
            UNION ALL
            SELECT 'contractor', pid, to_json(list({{'period': period, 'contracts': contracts,
                'value': CAST(value_x AS {MONEY})}} ORDER BY period))
            FROM profiles_contractor WHERE period <> 'all' GROUP BY pid
        ), p AS (SELECT * FROM a UNION ALL SELECT * FROM c)
        SELECT p.*, coalesce(t.contracts, 0) AS contracts, CAST(CAST(t.value_x AS {MONEY}) AS VARCHAR) AS value,
            CASE WHEN p.kind = 'authority' THEN coalesce(t.tenders, 0) END AS tenders,
            coalesce(CAST(y.years AS VARCHAR), '[]') AS years,
            CAST(row_number() OVER (ORDER BY p.kind, CAST(t.value_x AS {MONEY}) DESC NULLS LAST, p.party_id)
                 AS INTEGER) AS seq
        FROM p LEFT JOIN totals t ON t.kind = p.kind AND t.pid = p.party_id
            LEFT JOIN years y ON y.kind = p.kind AND y.pid = p.party_id
    """)
    names = con.execute("SELECT seq, name FROM party_base").df()
    names["words"] = [" ".join(name_words(n)) for n in names["name"]]
    con.register("party_words_frame", names[["seq", "words"]])
    # Typed here, not by the frame: an empty frame's column has no values to tell its type by, and
    # DuckDB took it for DOUBLE (a release with no parties then failed at string_split).
    con.execute("""CREATE TABLE parties AS SELECT b.*, CAST(w.words AS VARCHAR) AS words
                   FROM party_base b JOIN party_words_frame w USING (seq)""")
    con.unregister("party_words_frame")
    con.execute("DROP TABLE party_base")


def party_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    return fetched(con, """SELECT seq, kind, party_id, name, words, province, type, contracts, value, tenders, years
                           FROM parties ORDER BY seq""")


def word_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """Each distinct word of each party's folded name: the search's index (store/parties.py)."""
    return fetched(con, """SELECT DISTINCT unnest(string_split(words, ' ')) AS word, seq FROM parties
                           WHERE words <> '' ORDER BY word, seq""")


def profile_rows(con: duckdb.DuckDBPyConnection) -> Rows:
    """Each (party, period)'s profile, its JSON compressed as stored (store/profile_bodies.py)."""
    columns, rows = fetched(con, """
        SELECT p.seq, r.period, CAST(r.body AS VARCHAR) AS body FROM (
            SELECT 'authority' AS kind, * FROM profiles_authority UNION ALL SELECT 'contractor', * FROM profiles_contractor
        ) r JOIN parties p ON p.kind = r.kind AND p.party_id = r.pid ORDER BY p.seq, r.period""")
    return columns, ((seq, period, pack_body(body)) for seq, period, body in rows)
