"""Side by side with peers, on the same machine in one run.

    .venv/bin/python benchmarks/peers.py serve     # datasette vs this API on the same statistics table
    .venv/bin/python benchmarks/peers.py compute   # our validate + compute vs a plain DuckDB SQL pass
    .venv/bin/python benchmarks/peers.py compute --release PATH/national.zip
    .venv/bin/python benchmarks/peers.py serve --smoke

`serve` installs datasette into its own environment (var/bench-env), never into the project's, and
serves the API's own SQLite store with it: the same rows of `stat_items` that answer
`/v1/public-procurement/competition-indices?dimension=province&period=2024`, asked of datasette's
JSON API with the same filter, order and page size. The API does more per request (key, scope,
rate limit, credit debit, ETag); the table shows what that costs.

`compute` times a plain DuckDB pass (read the CSV files, one grouped query per statistic family,
nothing validated, nothing stored) against the loader's own validation and computation of every
served item, and checks that the two agree on the single-bid share of every province and year.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import cli, start  # noqa: E402
from benchmarks.wrk_runs import wrk  # noqa: E402
from store.items import COMPETITION  # noqa: E402

BENCH_ENV = ROOT / "var" / "bench-env"
API_PATH = "/v1/public-procurement/competition-indices?dimension=province&period=2024&limit=50"
# The same rows read straight from the table; the key columns as store/items.py names them.
DATASETTE_PATH = ("/bench/stat_items.json?release_id={release}&kind=competition&"
                  + urlencode(COMPETITION.filters(dimension="province", period="2024"))
                  + "&_sort=seq&_size=50&_col=body")


def datasette_binary() -> Path:
    binary = BENCH_ENV / "bin" / "datasette"
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_ENV)], check=True)
        subprocess.run([str(BENCH_ENV / "bin" / "pip"), "install", "--quiet", "datasette"], check=True)
    return binary


def wait_for(url: str, seconds: float = 30) -> None:
    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=1).status_code < 500:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


def serve(args: argparse.Namespace) -> int:
    import requests

    seconds = 2 if args.smoke else args.seconds
    datasette = datasette_binary()
    version = subprocess.run([str(datasette), "--version"], capture_output=True, text=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="gosterge-peers-"))
    database = work / "bench.db"
    env = {**os.environ, "GOSTERGE_DATABASE_URL": f"sqlite:///{database}", "GOSTERGE_VAR_DIR": str(work),
           "GOSTERGE_LOG_LEVEL": "WARNING"}
    cli(env, "demo", "--load-only")
    key = cli(env, "keys", "create", "--apis", "public-procurement", "--credits", "1000000000",
              "--rate", "100000000/minute")
    release = cli(env, "releases", "list").split()[0]
    rows = []
    # In-memory limits allow one worker (gunicorn.conf.py); the two-worker row needs Redis.
    for workers in (1,):
        api = start("api:create_app()", 18931, env, workers=workers)
        try:
            url = f"http://127.0.0.1:18931{API_PATH}"
            answer = requests.get(url, headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
            name = f"this API, gunicorn {workers} worker{'s' if workers > 1 else ''}"
            rows.append((name, wrk(url, key, seconds, args.connections), len(answer["items"])))
        finally:
            api.terminate()
            api.wait(10)
    peer = subprocess.Popen([str(datasette), "serve", str(database), "--port", "18933", "--setting",
                             "sql_time_limit_ms", "5000"], cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:18933{DATASETTE_PATH.format(release=release)}"
        wait_for(url)
        served = requests.get(url, timeout=10).json()
        name = f"datasette {version.split()[-1]}, 1 process"
        rows.append((name, wrk(url, None, seconds, args.connections), len(served["rows"])))
        # datasette counts the filtered rows on every request; the API caches its total per release.
        rows.append((f"{name}, count skipped (`_nocount=1`)", wrk(url + "&_nocount=1", None, seconds,
                                                                 args.connections), len(served["rows"])))
    finally:
        peer.terminate()
        peer.wait(10)
    print(f"wrk -t2 -c{args.connections} -d{seconds}s; the demo release; the same 50 rows of stat_items")
    print("| server | requests/s | p50 ms | p99 ms | non-2xx | rows per answer |")
    print("|---|---|---|---|---|---|")
    for name, result, count in rows:
        print(f"| {name} | {result['rps']:.0f} | {result['p50']:.2f} | {result['p99']:.2f} | {result['errors']} | "
              f"{count} |")
    return 0


PLAIN_SQL = {
    "competition: single-bid share by province and year": """
        SELECT a.province, year(t.tender_date) AS yr,
               count(*) FILTER (WHERE w.bids = 1) / count(w.bids) AS share
        FROM read_csv('{d}/awards.csv') w
        JOIN read_csv('{d}/tenders.csv') t USING (tender_id)
        JOIN read_csv('{d}/authorities.csv') a USING (authority_id)
        WHERE w.contractor_id IS NOT NULL
        GROUP BY ALL HAVING count(w.bids) > 0""",
    "concentration: HHI of contract value by sector and year": """
        WITH v AS (
            SELECT t.sector, year(t.tender_date) AS yr, w.contractor_id, sum(w.contract_value) AS value
            FROM read_csv('{d}/awards.csv') w JOIN read_csv('{d}/tenders.csv') t USING (tender_id)
            WHERE w.contractor_id IS NOT NULL GROUP BY ALL)
        SELECT sector, yr, 10000 * sum(power(value / total, 2)) AS hhi
        FROM (SELECT *, sum(value) OVER (PARTITION BY sector, yr) AS total FROM v)
        GROUP BY ALL""",
    "direct procurement: amount quantiles by year": """
        SELECT year(purchase_date) AS yr, median(amount), quantile_cont(amount, 0.95),
               quantile_cont(amount, 0.99), max(amount)
        FROM read_csv('{d}/direct_purchases.csv') GROUP BY ALL""",
    "localization: local share by count, by province and year": """
        SELECT a.province, year(t.tender_date) AS yr, avg(CASE WHEN c.province = a.province THEN 1 ELSE 0 END)
        FROM read_csv('{d}/awards.csv') w
        JOIN read_csv('{d}/tenders.csv') t USING (tender_id)
        JOIN read_csv('{d}/authorities.csv') a USING (authority_id)
        JOIN read_csv('{d}/contractors.csv') c USING (contractor_id)
        GROUP BY ALL""",
}


def compute(args: argparse.Namespace) -> int:
    import duckdb

    from loaders.procurement.compute import build_typed_tables, compute_competition, served_items
    from loaders.procurement.generate import generate_release
    from loaders.procurement.release import open_release
    from loaders.procurement.validate import validate_release

    work = Path(tempfile.mkdtemp(prefix="gosterge-peers-"))
    path = Path(args.release) if args.release else generate_release(
        args.scale, seed=1, out=work / f"{args.scale}.zip", published=datetime(2026, 11, 20, 6, tzinfo=UTC))
    with open_release(path) as opened:
        directory = opened.directory
        plain = duckdb.connect()
        started = time.perf_counter()
        results = {name: plain.execute(sql.format(d=directory)).fetchall() for name, sql in PLAIN_SQL.items()}
        plain_seconds = time.perf_counter() - started

        ours = duckdb.connect()
        started = time.perf_counter()
        validate_release(ours, opened)
        validated = time.perf_counter() - started
        latest_year = build_typed_tables(ours)
        items = sum(1 for _ in served_items(ours, latest_year))
        ours_seconds = time.perf_counter() - started

        expected = {(int(p), int(y)): s for p, y, s in results["competition: single-bid share by province and year"]}
        frame = compute_competition(ours, "province")
        frame = frame[frame["yr"].notna() & frame["singleBidShare"].notna()]
        computed = {(int(r.subj), int(r.yr)): float(r.singleBidShare) for r in frame.itertuples()}
        disagree = [k for k in expected.keys() | computed.keys()
                    if abs(expected.get(k, -1) - computed.get(k, -2)) > 1e-12]
    rows = {d["file"]: int(d["rows"]) for d in opened.manifest.datasets}
    print(f"release {path.name}: {rows['tenders.csv']:,} tenders, {rows['awards.csv']:,} award rows, "
          f"{rows['direct_purchases.csv']:,} direct purchases")
    print("| pass | what it does | seconds |")
    print("|---|---|---|")
    print(f"| plain DuckDB SQL | {len(PLAIN_SQL)} grouped queries straight over the CSV files | {plain_seconds:.2f} |")
    print(f"| this loader | validate every rule of procurement-statistics.md | {validated:.2f} |")
    print(f"| this loader | validate, then compute all {items:,} served items | {ours_seconds:.2f} |")
    print(f"single-bid share by province and year: {len(expected)} cells, {len(disagree)} disagree")
    return 1 if disagree else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("serve")
    one.add_argument("--seconds", type=int, default=15)
    one.add_argument("--connections", type=int, default=16)
    one.add_argument("--smoke", action="store_true")
    two = sub.add_parser("compute")
    two.add_argument("--scale", default="demo", choices=["tiny", "demo", "national"])
    two.add_argument("--release")
    args = parser.parse_args()
    return serve(args) if args.command == "serve" else compute(args)


if __name__ == "__main__":
    sys.exit(main())
