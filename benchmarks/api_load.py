"""A paid answer next to a bare Flask app returning the same bytes, under the same gunicorn settings.

    .venv/bin/python benchmarks/api_load.py                       # both stores, 1 and 2 workers, 3 rounds
    .venv/bin/python benchmarks/api_load.py --stores sqlite --seconds 10
    .venv/bin/python benchmarks/api_load.py --smoke               # CI: SQLite, one worker, one round, 1 s runs

For each store (SQLite with the shipped defaults, PostgreSQL + Redis) the API and the bare app
(benchmarks/bare_app.py) are started side by side, each with one worker and with two, all with
gunicorn.conf.py. The bare app answers each measured URL with the bytes and content type the API
answered it with, captured first. Then, in each round, for every query and connection count, wrk runs
for one second against each server in turn, `--seconds` turns, the first of each turn rotating
(benchmarks/wrk_runs.py): a slow spell of the shared machine falls on every server alike, and each
server's runs are pooled (answers over seconds, percentiles of the summed latency histograms) into
its figure for the round. Only ratios within one round mean anything on a shared machine, so each is
printed per round, with the load average of the machine.

The tail: with one worker, the same bytes are also served by the bare app under gunicorn's
sync worker (`gunicorn -k sync -w 1`, no configuration file), the reference for p99. The target, per
query and connection count in one round: the API's p99 under gunicorn.conf.py at most 3 times the sync
reference's, and its throughput at least half the bare app's under gunicorn.conf.py. wrk corrects its
latencies for coordinated omission, which lets a few long waits a second set a closed loop's p99, so
the API and the sync reference are also timed by benchmarks/plain_client.py right after each wrk run,
every answer counted once, and the last columns give that p99 and its ratio.

wrk runs one thread by default (`--wrk-threads`). On a machine of two cores, one gunicorn worker
busy answering and two wrk threads each busy with its connection are three threads for two cores:
whenever all three are ready, the kernel makes one wait for a time slice, and when that one is wrk's
the wait is counted as the server's. Measured (docs/benchmarks.md, "The load generator's threads"):
at 2 connections the API's p99 was 10.6-15.6 ms with two wrk threads and 1.6-2.0 ms with one, the
same server. The sync reference is hardly touched (1.0-2.6 ms either way): it closes each connection
after its answer and waits for the next, idle meanwhile, where the gevent worker always has the other
connection's request to answer and so is always one of the three ready threads.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import plain_client  # noqa: E402  (importable once the project's root is on the path)
from benchmarks.cpu_time import cpu_seconds, machine_cpu_seconds, services_cpu_seconds  # noqa: E402
from benchmarks.wrk_runs import HISTOGRAM, in_turns, pooled, wrk  # noqa: E402

QUERIES = {
    "index: competition by province, 2024": "/v1/public-procurement/competition-indices?dimension=province&period=2024",
    "ranking: top contractors, İstanbul": "/v1/public-procurement/top-contractors?province=34",
    "flows: from Ankara": "/v1/public-procurement/supply-flows?buyerProvince=6&limit=20",
}
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = "gosterge_api_bench"
REDIS_URL = "redis://127.0.0.1:6379/8"


class ServerExited(SystemExit):
    """The server stopped before it answered: its configuration refused to start (the log says why)."""


def cli(env: dict[str, str], *args: str) -> str:
    """Run `gosterge ARGS` against the benchmark's store; its standard output."""
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, check=True, capture_output=True,
                          text=True, cwd=ROOT).stdout.strip()


def start(app_spec: str, port: int, env: dict[str, str], log: Path | None = None,
          workers: int | None = None, sync: bool = False) -> subprocess.Popen:
    """gunicorn with the production configuration (gunicorn.conf.py): by default two workers when the
    limits are shared (Redis), one when they are in memory; its standard error (the access log) goes
    to `log` when given. ServerExited when it stops before answering."""
    if workers is None:
        workers = 2 if env.get("GOSTERGE_RATELIMIT_STORAGE_URI", "").startswith("redis") else 1
    stderr = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115  (the child keeps it open)
    # The sync reference reads no configuration file (/dev/null: gunicorn would read ./gunicorn.conf.py).
    settings = ["-c", "/dev/null", "-k", "sync"] if sync else ["-c", str(ROOT / "gunicorn.conf.py")]
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", *settings,
                                "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
                                "--chdir", str(ROOT), app_spec], env=env, stdout=subprocess.DEVNULL,
                               stderr=stderr)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerExited(f"{app_spec} with {workers} worker(s) stopped at start")
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except requests.RequestException:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("server did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    kind: str  # "bare", "api" or "sync" (the bare app under gunicorn -k sync -w 1)
    workers: int
    port: int = 0
    process: subprocess.Popen | None = None
    refused: str = ""  # why the configuration would not start, from its log
    runs: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)


def fresh_postgres() -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_BENCH_DB}")
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_BENCH_DB}"


def prepare(store: str, work: Path, *, smoke: bool) -> tuple[dict[str, str], str]:
    """The environment of the store's servers, loaded with data, and a key that never runs out."""
    env = {**os.environ, "GOSTERGE_VAR_DIR": str(work)}
    if store == "postgres":
        import redis

        env["GOSTERGE_DATABASE_URL"] = fresh_postgres()
        redis.Redis.from_url(REDIS_URL).flushdb()
    else:
        env["GOSTERGE_DATABASE_URL"] = f"sqlite:///{work / 'bench.db'}"
    if smoke:
        release = work / "tiny.zip"
        cli(env, "generate", "procurement", "--scale", "tiny", "--seed", "1", "--out", str(release))
        cli(env, "load", "procurement", str(release))
    else:
        cli(env, "demo", "--load-only")
    key = cli(env, "keys", "create", "--apis", "public-procurement", "--credits", "1000000000",
              "--rate", "100000000/minute")
    return env, key


def server_env(store: str, env: dict[str, str], workers: int, captures: Path) -> dict[str, str]:
    """The shipped defaults (SQLite, limits in memory) for one worker on SQLite; Redis limits wherever
    more than one worker shares them, and always beside PostgreSQL (the scale-out configuration)."""
    shared = store == "postgres" or workers > 1
    return {**env, "GOSTERGE_RATELIMIT_STORAGE_URI": REDIS_URL if shared else "memory://",
            "GOSTERGE_BENCH_CAPTURES": str(captures)}


def launch(server: Server, env: dict[str, str], work: Path) -> None:
    server.port = free_port()
    log = work / f"{server.kind}-{server.workers}.log"
    spec = "api:create_app()" if server.kind == "api" else "benchmarks.bare_app:create_app()"
    try:
        server.process = start(spec, server.port, env, log=log, workers=server.workers, sync=server.kind == "sync")
    except ServerExited:
        lines = [line for line in log.read_text(errors="replace").splitlines() if "refusing" in line or "Error" in line]
        server.refused = (lines[-1].split("refusing to start: ")[-1] if lines else "stopped at start").strip()


def capture(port: int, key: str, paths: list[str]) -> dict[str, dict[str, str]]:
    """The API's own answer to each measured URL: the bytes the bare app returns."""
    captured = {}
    for path in paths:
        answer = requests.get(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {key}"}, timeout=10)
        answer.raise_for_status()
        captured[path] = {"body": answer.content.decode("utf-8"), "content_type": answer.headers["Content-Type"]}
    return captured


def check_same_bytes(bare: Server, captured: dict[str, dict[str, str]]) -> None:
    for path, entry in captured.items():
        answer = requests.get(f"http://127.0.0.1:{bare.port}{path}", timeout=10)
        assert answer.content == entry["body"].encode("utf-8"), path
        assert answer.headers["Content-Type"] == entry["content_type"], path


def one_second(server: Server, *, key: str, path: str, connections: int, threads: int) -> dict[str, Any]:
    """One second of wrk against `server`, with its latency histogram and the CPU the run used (the
    server's workers, the machine, the database services)."""
    before = cpu_seconds(server.process), machine_cpu_seconds(), services_cpu_seconds()
    result = wrk(f"http://127.0.0.1:{server.port}{path}", key if server.kind == "api" else None, 1, connections,
                 script=HISTOGRAM, threads=threads)
    after = cpu_seconds(server.process), machine_cpu_seconds(), services_cpu_seconds()
    result["cpu"] = [y - x for x, y in zip(before, after, strict=True)]
    return result


def measure(servers: list[Server], key: str, *, rounds: int, seconds: int, connections: list[int],
            threads: int) -> None:
    """Per round, query and connection count: `seconds` one-second wrk runs against every server in
    turns, the first of each turn rotating (benchmarks/wrk_runs.py), pooled into one figure per
    server, so that a slow spell of the machine falls on all of them alike."""
    live = [s for s in servers if s.process is not None]
    for server in live:  # warm up: the answer cache, the connection pools
        for path in QUERIES.values():
            wrk(f"http://127.0.0.1:{server.port}{path}", key if server.kind == "api" else None, 1, 4)
    for _ in range(rounds):
        for conns in connections:
            for name, path in QUERIES.items():
                run = partial(one_second, key=key, path=path, connections=conns, threads=threads)
                for server, runs in zip(live, in_turns(live, seconds, run), strict=True):
                    result = pooled(runs)
                    answers = max(1, result["answers"])
                    # The workers' CPU per answer: what the machine's load does not change much. Beside it
                    # the whole machine's (wrk, PostgreSQL and Redis included) and the services' alone:
                    # with every party on the same cores, they bound what more workers can add.
                    for index, figure in enumerate(("cpu_ms", "machine_ms", "services_ms")):
                        result[figure] = 1000 * sum(r["cpu"][index] for r in runs) / answers
                    result["load"] = os.getloadavg()[0]
                    if server.kind in ("api", "sync") and server.workers == 1:
                        # The same query's tail counted once per answer (benchmarks/plain_client.py): wrk's
                        # is corrected for coordinated omission, which lets a few long waits set it.
                        result["plain"] = plain_client.run(f"http://127.0.0.1:{server.port}{path}",
                                                           key if server.kind == "api" else None, conns, seconds)
                    server.runs.setdefault((conns, name), []).append(result)


def report(store: str, servers: list[Server], connections: list[int]) -> None:
    by = {(s.kind, s.workers): s for s in servers}
    print(f"\n### {store}\n")
    for server in servers:
        if server.refused:
            print(f"- {server.kind} with {server.workers} worker(s): refused to start: {server.refused}")
    print("| workers | conn. | query | bare req/s | API req/s | API/bare, each round | bare p99 ms | API p99 ms "
          "| p99 API/bare | non-2xx | load avg | CPU ms per answer: bare, API |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for workers in sorted({s.workers for s in servers}):
        bare, api = by.get(("bare", workers)), by.get(("api", workers))
        if not bare or not api or not api.runs:
            continue
        for conns in connections:
            for name in QUERIES:
                a, b = api.runs[(conns, name)], bare.runs[(conns, name)]
                ratios = " ".join(f"{x['rps'] / y['rps']:.2f}" for x, y in zip(a, b, strict=True))
                loads = [r["load"] for r in a + b]
                p99a, p99b = statistics.median(r["p99"] for r in a), statistics.median(r["p99"] for r in b)
                print(f"| {workers} | {conns} | {name} | {statistics.median(r['rps'] for r in b):.0f} "
                      f"| {statistics.median(r['rps'] for r in a):.0f} | {ratios} | {p99b:.2f} | {p99a:.2f} "
                      f"| {p99a / p99b:.1f} | {sum(r['errors'] for r in a)} | {min(loads):.1f}–{max(loads):.1f} "
                      f"| {statistics.median(r['cpu_ms'] for r in b):.3f}, {statistics.median(r['cpu_ms'] for r in a):.3f} |")
    report_tail(by, connections)
    one, two = by.get(("api", 1)), by.get(("api", 2))
    if one and two and one.runs and two.runs:
        # The most two workers could serve if the machine's cores were all they had, each answer still
        # costing the machine what it did in the two-worker run, against what one worker served.
        print("\n| conn. | query | API 2 workers / 1 worker, each round | bare 2 / 1, each round "
              "| machine CPU ms per answer, 2 workers (of it PostgreSQL + Redis) | ceiling of API 2 / 1 on these cores |")
        print("|---|---|---|---|---|---|")
        bare1, bare2 = by[("bare", 1)], by[("bare", 2)]
        for conns in connections:
            for name in QUERIES:
                api_ratios = " ".join(f"{x['rps'] / y['rps']:.2f}"
                                      for x, y in zip(two.runs[(conns, name)], one.runs[(conns, name)], strict=True))
                bare_ratios = " ".join(f"{x['rps'] / y['rps']:.2f}"
                                       for x, y in zip(bare2.runs[(conns, name)], bare1.runs[(conns, name)], strict=True))
                runs2, runs1 = two.runs[(conns, name)], one.runs[(conns, name)]
                machine = statistics.median(r["machine_ms"] for r in runs2)
                services = statistics.median(r["services_ms"] for r in runs2)
                ceiling = (os.cpu_count() or 1) * 1000 / machine / statistics.median(r["rps"] for r in runs1)
                print(f"| {conns} | {name} | {api_ratios} | {bare_ratios} | {machine:.2f} ({services:.2f}) "
                      f"| {ceiling:.2f} |")


def report_tail(by: dict[tuple[str, int], Server], connections: list[int]) -> None:
    """The tail's target, round by round: API p99 / sync-worker bare p99 <= 3, API / bare req/s >= 0.5."""
    api, bare, sync = by.get(("api", 1)), by.get(("bare", 1)), by.get(("sync", 1))
    if not (api and bare and sync and api.runs and sync.runs):
        return
    print("\n| conn. | query | sync bare p99 ms | API p99 ms | p99 API/sync, each round (≤ 3) "
          "| req/s API/bare, each round (≥ 0.5) | met in every round "
          "| each answer once: sync p99, API p99, API p99.9, API max ms | each answer once: p99 API/sync, each round |")
    print("|---|---|---|---|---|---|---|---|---|")
    for conns in connections:
        for name in QUERIES:
            a, b, r = api.runs[(conns, name)], bare.runs[(conns, name)], sync.runs[(conns, name)]
            tails = [x["p99"] / y["p99"] for x, y in zip(a, r, strict=True)]
            rates = [x["rps"] / y["rps"] for x, y in zip(a, b, strict=True)]
            met = all(t <= 3 for t in tails) and all(q >= 0.5 for q in rates)
            plain = [x["plain"]["p99"] / y["plain"]["p99"] for x, y in zip(a, r, strict=True)]
            print(f"| {conns} | {name} | {statistics.median(x['p99'] for x in r):.2f} "
                  f"| {statistics.median(x['p99'] for x in a):.2f} | {' '.join(f'{t:.1f}' for t in tails)} "
                  f"| {' '.join(f'{q:.2f}' for q in rates)} | {'yes' if met else 'no'} "
                  f"| {statistics.median(x['plain']['p99'] for x in r):.2f}, "
                  f"{statistics.median(x['plain']['p99'] for x in a):.2f}, "
                  f"{statistics.median(x['plain']['p999'] for x in a):.2f}, {max(x['plain']['max'] for x in a):.1f} "
                  f"| {' '.join(f'{t:.1f}' for t in plain)} |")


def run_store(store: str, args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix=f"gosterge-api-bench-{store}-"))
    env, key = prepare(store, work, smoke=args.smoke)
    captures = work / "captures.json"
    captures.write_text("{}")
    servers = [Server(kind, workers) for workers in args.workers for kind in ("bare", "api")]
    if 1 in args.workers:
        servers.append(Server("sync", 1))
    try:
        for server in servers:
            if server.kind == "api":
                launch(server, server_env(store, env, server.workers, captures), work)
        source = next((s for s in servers if s.kind == "api" and s.process), None)
        if source is None:
            raise SystemExit(f"no API server started on {store}")
        captured = capture(source.port, key, list(QUERIES.values()))
        captures.write_text(json.dumps(captured, ensure_ascii=False))
        for server in servers:
            if server.kind in ("bare", "sync"):
                launch(server, server_env(store, env, server.workers, captures), work)
                check_same_bytes(server, captured)
        measure(servers, key, rounds=args.rounds, seconds=args.seconds, connections=args.connections,
                threads=args.wrk_threads)
    finally:
        for server in servers:
            if server.process is not None:
                server.process.terminate()
                server.process.wait(15)
    report(store, servers, args.connections)


def numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stores", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--workers", type=numbers, default=[1, 2])
    parser.add_argument("--connections", type=numbers, default=[2, 16])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5, help="one-second runs per server and round")
    parser.add_argument("--wrk-threads", type=int, default=1,
                        help="wrk's threads (at most one per connection); see the module's docstring")
    parser.add_argument("--smoke", action="store_true", help="SQLite, one worker, one round of 1 s runs")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    if args.smoke:
        args.stores, args.workers, args.rounds, args.seconds = "sqlite", [1], 1, 1
    started = datetime.now(UTC)
    print(f"{started:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores; gunicorn -c gunicorn.conf.py; "
          f"wrk -t{args.wrk_threads} --latency; {args.rounds} round(s) of {args.seconds} one-second runs per server in turns")
    for store in args.stores.split(","):
        run_store(store, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
