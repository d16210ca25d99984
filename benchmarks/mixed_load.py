"""A mixed workload for a fixed time against gunicorn (2 workers), then the credits reconciled.

    .venv/bin/python benchmarks/mixed_load.py --store sqlite   --seconds 30   # SQLite + in-memory limits
    .venv/bin/python benchmarks/mixed_load.py --store postgres --seconds 30   # PostgreSQL + Redis
    .venv/bin/python benchmarks/mixed_load.py --smoke                          # CI: 2 s, both checks

The mix: news lists with filters, articles by id, index queries, rankings and flows, drawn at random;
one request in ten carries the ETag from an earlier answer (If-None-Match). wrk counts every status it
received; the server's access log counts every answer it sent (wrk stops with up to one request per
connection in flight, which the server still answers). Afterwards the key's spent credits must equal
the paid 200 answers in the access log exactly (304s are free), and no key may hold a negative
balance. A second run drives a key holding few credits into the ground: exactly that many 200s, the
rest 402, a balance of zero.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import cli, start  # noqa: E402
from benchmarks.wrk_runs import wrk  # noqa: E402

PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = "gosterge_bench"
REDIS_URL = "redis://127.0.0.1:6379/14"

FIXED_PATHS = [
    "/v1/finance-news/articles",
    "/v1/finance-news/articles?source=fed,ecb",
    "/v1/finance-news/articles?minImportance=3&confident=true",
    "/v1/finance-news/articles?source=sec&sentiment=positive",
    "/v1/public-procurement/competition-indices?dimension=province&period=2024",
    "/v1/public-procurement/concentration-indices?dimension=sector",
    "/v1/public-procurement/direct-procurement-indices",
    "/v1/public-procurement/localization-indices?dimension=province",
    "/v1/public-procurement/top-authorities?province=6",
    "/v1/public-procurement/top-contractors?province=34",
    "/v1/public-procurement/supply-flows?buyerProvince=6&limit=20",
    "/v1/public-procurement/province-sectors?province=35",
]

LUA = r"""
local paths = {PATHS}
local etags = {ETAGS}
local key = "KEY"
codes = {}
local n = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
end

request = function()
  n = n + 1
  local i = math.random(#paths)
  local headers = {["Authorization"] = "Bearer " .. key}
  if n % 10 == 0 then
    headers["If-None-Match"] = etags[i]
  end
  return wrk.format("GET", paths[i], headers)
end

response = function(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
end

done = function(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("codes")) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do
    io.write(string.format("STATUS %d %d\n", status, count))
  end
  io.write(string.format("P95 %d\n", latency:percentile(95.0)))
end
"""


def lua_list(values: list[str]) -> str:
    return "{" + ", ".join(json.dumps(v) for v in values) + "}"


def fresh_postgres() -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_BENCH_DB}")
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_BENCH_DB}"


def balances(env: dict[str, str]) -> dict[int, int]:
    listing = cli(env, "keys", "list")
    return {int(i): int(c) for i, c in re.findall(r"^(\d+)\t.*\tcredits=(-?\d+)\t", listing, re.M)}


def answers_sent(access_log: Path) -> Counter[tuple[int, int]]:
    """(key id, status) -> answers, from the server's JSON access log."""
    counts: Counter[tuple[int, int]] = Counter()
    for line in access_log.read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record["key_id"] is not None:
                counts[record["key_id"], record["status"]] += 1
    return counts


def run_wrk(url: str, script: Path, seconds: int, connections: int) -> dict:
    """wrk with the mix script: its figures plus the statuses and p95 the script prints."""
    result = wrk(url, None, seconds, connections, script=script)
    out = result["output"]
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {**result, "p95": int(re.search(r"P95 (\d+)", out).group(1)) / 1000,
            "statuses": {int(s): int(c) for s, c in re.findall(r"STATUS (\d+) (\d+)", out)},
            "socket_errors": socket_errors.group(1) if socket_errors else "none"}


def write_script(work: Path, name: str, key: str, paths: list[str], etags: list[str]) -> Path:
    script = work / f"{name}.lua"
    script.write_text(LUA.replace("{PATHS}", lua_list(paths)).replace("{ETAGS}", lua_list(etags))
                      .replace("KEY", key), encoding="utf-8")
    return script


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    seconds = 2 if args.smoke else args.seconds
    work = Path(tempfile.mkdtemp(prefix="gosterge-mixed-"))
    env = {**os.environ, "GOSTERGE_VAR_DIR": str(work), "GOSTERGE_LOG_LEVEL": "INFO"}
    if args.store == "postgres":
        import redis

        env["GOSTERGE_DATABASE_URL"] = fresh_postgres()
        env["GOSTERGE_RATELIMIT_STORAGE_URI"] = REDIS_URL
        redis.Redis.from_url(REDIS_URL).flushdb()
    else:
        env["GOSTERGE_DATABASE_URL"] = f"sqlite:///{work / 'bench.db'}"
        env["GOSTERGE_RATELIMIT_STORAGE_URI"] = "memory://"
    cli(env, "demo", "--load-only")
    key = cli(env, "keys", "create", "--apis", "finance-news,public-procurement", "--credits", "1000000000",
              "--rate", "100000000/minute")
    port, bare_port = 18911, 18912
    access_log = work / "access.log"
    server = start("api:create_app()", port, env, log=access_log)
    bare = start("benchmarks.bare_app:create_app()", bare_port, env)
    try:
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {key}"}
        articles = requests.get(f"{base}/v1/finance-news/articles?limit=5", headers=headers, timeout=10).json()
        paths = FIXED_PATHS + [f"/v1/finance-news/articles/{a['id']}" for a in articles["items"]]
        etags = []
        for path in paths:
            answer = requests.get(base + path, headers=headers, timeout=10)
            if answer.status_code != 200:
                raise SystemExit(f"{path}: {answer.status_code} {answer.text[:200]}")
            etags.append(answer.headers["ETag"])
        key_id = max(balances(env))
        ceiling = run_wrk(f"http://127.0.0.1:{bare_port}/v1/bare", write_script(work, "bare", key, ["/v1/bare"], ['"x"']),
                          seconds, args.connections)
        mixed = run_wrk(base, write_script(work, "mixed", key, paths, etags), seconds, args.connections)

        # Spend a small balance to the last credit under the same load: a third of what the mixed
        # run answered in the same time, so that it runs out well before wrk stops.
        drain_seconds = max(2, seconds // 5)
        few = max(20, int(mixed["rps"] * drain_seconds / 3))
        poor = cli(env, "keys", "create", "--apis", "finance-news,public-procurement", "--credits", str(few),
                   "--rate", "100000000/minute")
        drained = run_wrk(base, write_script(work, "drain", poor, paths, etags), drain_seconds, args.connections)
        after = balances(env)
    finally:
        for process in (server, bare):
            process.terminate()
            process.wait(10)

    sent = answers_sent(access_log)
    spent = 1_000_000_000 - after[key_id]
    paid = sent.get((key_id, 200), 0)
    statuses = mixed["statuses"]
    errors = sum(c for s, c in statuses.items() if s not in (200, 304))
    store = "SQLite, memory limits" if args.store == "sqlite" else "PostgreSQL + Redis"
    print(f"gunicorn (gunicorn.conf.py), wrk -t2 -c{args.connections} -d{seconds}s, {len(paths)} paths, {store}")
    print("| run | requests/s | p50 ms | p95 ms | p99 ms | answers | errors |")
    print("|---|---|---|---|---|---|---|")
    print(f"| bare Flask (ceiling) | {ceiling['rps']:.0f} | {ceiling['p50']:.2f} | {ceiling['p95']:.2f} | "
          f"{ceiling['p99']:.2f} | {sum(ceiling['statuses'].values())} | 0 |")
    print(f"| mixed ({mixed['rps'] / ceiling['rps']:.0%} of ceiling) | {mixed['rps']:.0f} | {mixed['p50']:.2f} | "
          f"{mixed['p95']:.2f} | {mixed['p99']:.2f} | {dict(sorted(statuses.items()))} | {errors} |")
    warm_up = len(paths) + 1
    in_flight = paid - warm_up - statuses.get(200, 0)
    print(f"credits spent {spent}; paid 200 answers sent {paid} = {warm_up} warm-up + {statuses.get(200, 0)} "
          f"received by wrk + {in_flight} in flight when wrk stopped; lowest balance {min(after.values())}; "
          f"socket errors: {mixed['socket_errors']}")
    poor_id = max(after)
    print(f"draining a key of {few} credits: {dict(sorted(drained['statuses'].items()))}, balance {after[poor_id]}")
    failures = []
    if spent != paid:
        failures.append(f"credits spent ({spent}) differ from paid answers ({paid})")
    if min(after.values()) < 0:
        failures.append("a balance is negative")
    if not 0 <= in_flight <= args.connections:
        failures.append(f"{in_flight} answers unaccounted for by wrk, more than one per connection")
    if errors:
        failures.append(f"{errors} answers were neither 200 nor 304")
    if sent.get((poor_id, 200), 0) != few or after[poor_id] != 0:
        failures.append("the small balance was not spent to exactly zero")
    if set(drained["statuses"]) - {200, 304, 402}:
        failures.append(f"unexpected statuses while draining: {drained['statuses']}")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
