"""Requests per second and latency of the API under gunicorn (2 workers), next to a bare Flask endpoint.

    .venv/bin/python benchmarks/api_load.py                     # demo data, 15 s per query (needs wrk)
    .venv/bin/python benchmarks/api_load.py --database-url sqlite:////path/bench.db --seconds 30
    .venv/bin/python benchmarks/api_load.py --smoke             # CI: 2 s per query, tiny data
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = {
    "bare Flask (ceiling)": "/v1/bare",
    "index: competition by province, 2024": "/v1/public-procurement/competition-indices?dimension=province&period=2024",
    "ranking: top contractors, İstanbul": "/v1/public-procurement/top-contractors?province=34",
    "flows: from Ankara": "/v1/public-procurement/supply-flows?buyerProvince=6&limit=20",
}


def cli(env: dict[str, str], *args: str) -> str:
    """Run `gosterge ARGS` against the benchmark's store; its standard output."""
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, check=True, capture_output=True,
                          text=True, cwd=ROOT).stdout.strip()


def start(app_spec: str, port: int, env: dict[str, str], log: Path | None = None,
          workers: int | None = None) -> subprocess.Popen:
    """gunicorn with the production configuration (gunicorn.conf.py): by default two workers when the
    limits are shared (Redis), one when they are in memory; its standard error (the access log) goes
    to `log` when given."""
    if workers is None:
        workers = 2 if env.get("GOSTERGE_RATELIMIT_STORAGE_URI", "").startswith("redis") else 1
    stderr = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115  (the child keeps it open)
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"),
                                "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
                                "--chdir", str(ROOT), app_spec], env=env, stdout=subprocess.DEVNULL,
                               stderr=stderr)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except requests.RequestException:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("server did not start")


def wrk(url: str, key: str | None, seconds: int, connections: int, script: Path | None = None) -> dict[str, Any]:
    """One wrk run: requests/s, p50 and p99 in ms, non-2xx/3xx count, and wrk's whole `output` (where a
    Lua `script` prints its own figures)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if key:
        command[1:1] = ["-H", f"Authorization: Bearer {key}"]
    if script:
        command[1:1] = ["-s", str(script)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(p: str) -> float:
        value, unit = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": percentile("50"), "p99": percentile("99"), "errors": int(errors.group(1)) if errors else 0,
            "output": out}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url")
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    work = Path(tempfile.mkdtemp(prefix="gosterge-api-bench-"))
    url = args.database_url or f"sqlite:///{work / 'bench.db'}"
    env = {**os.environ, "GOSTERGE_DATABASE_URL": url, "GOSTERGE_VAR_DIR": str(work)}
    if not args.database_url:
        cli(env, "demo", "--load-only")
    key = cli(env, "keys", "create", "--apis", "public-procurement", "--credits", "1000000000",
              "--rate", "100000000/minute")
    seconds = 2 if args.smoke else args.seconds
    print(f"gunicorn (gunicorn.conf.py), wrk -t2 -c{args.connections} -d{seconds}s, store {url.split(':')[0]}")
    print("| query | requests/s | p50 ms | p99 ms | non-2xx |")
    print("|---|---|---|---|---|")
    ceiling = None
    for name, path in QUERIES.items():
        bare = path == "/v1/bare"
        port = 18900 if bare else 18901
        server = start("benchmarks.bare_app:create_app()" if bare else "api:create_app()", port, env)
        try:
            result = wrk(f"http://127.0.0.1:{port}{path}", None if bare else key, seconds, args.connections)
        finally:
            server.terminate()
            server.wait(10)
        ceiling = ceiling or result["rps"]
        share = f" ({result['rps'] / ceiling:.0%} of ceiling)" if not bare else ""
        print(f"| {name} | {result['rps']:.0f}{share} | {result['p50']:.2f} | {result['p99']:.2f} | {result['errors']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
