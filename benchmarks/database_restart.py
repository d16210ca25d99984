"""Stop the real PostgreSQL server for 10 s under load, start it again, and report what clients saw.

    .venv/bin/python benchmarks/database_restart.py        # as root, on a machine whose PostgreSQL may stop

It stops the machine's own cluster with pg_ctlcluster, so it is run by hand, never in CI (the suite's
tests/api/test_faults.py does the same through a proxy). gunicorn with 2 workers on PostgreSQL + Redis,
four client threads on paid and free endpoints. Every answer in the gap must be a 502/504 problem,
none may take longer than 8 s, and answers must be 200 again within 5 s of the server's return.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import cli, start  # noqa: E402
from benchmarks.mixed_load import REDIS_URL, fresh_postgres  # noqa: E402

PATHS = ["/v1/public-procurement/competition-indices?dimension=province", "/v1/finance-news/articles",
         "/v1/public-procurement/sectors"]
GAP_SECONDS = 10


def cluster(action: str) -> None:
    version = sorted(os.listdir("/etc/postgresql"))[0]
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action], check=True)


def ready() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"]).returncode == 0


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="gosterge-restart-"))
    env = {**os.environ, "GOSTERGE_VAR_DIR": str(work), "GOSTERGE_DATABASE_URL": fresh_postgres(),
           "GOSTERGE_RATELIMIT_STORAGE_URI": REDIS_URL, "GOSTERGE_LOG_LEVEL": "WARNING"}
    cli(env, "demo", "--load-only")
    key = cli(env, "keys", "create", "--apis", "finance-news,public-procurement", "--credits", "100000000",
              "--rate", "100000000/minute")
    answers: list[tuple[float, float, int | None, str]] = []
    stop = threading.Event()

    def client(offset: int) -> None:
        session, turn = requests.Session(), offset
        while not stop.is_set():
            began = time.monotonic()
            try:
                response = session.get(f"http://127.0.0.1:18941{PATHS[turn % len(PATHS)]}",
                                       headers={"Authorization": f"Bearer {key}"}, timeout=30)
                status, kind = response.status_code, response.headers.get("Content-Type", "")
            except requests.RequestException:
                status, kind, session = None, "", requests.Session()
            answers.append((began, time.monotonic(), status, kind))
            turn += 1

    server = start("api:create_app()", 18941, env)
    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(4)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(3)
        stopping = time.monotonic()
        cluster("stop")
        stopped = time.monotonic()  # the server is down from here (a fast shutdown takes a moment)
        time.sleep(GAP_SECONDS)
        starting = time.monotonic()
        cluster("start")
        while not ready():
            time.sleep(0.1)
        back = time.monotonic()
        time.sleep(8)
    finally:
        stop.set()
        for thread in threads:
            thread.join(35)
        server.terminate()
        server.wait(10)
        if not ready():
            cluster("start")

    def phase(start_at: float, end_at: float) -> Counter:
        return Counter(s for b, e, s, _ in answers if b >= start_at and e <= end_at)

    gap = phase(stopped, starting)
    first_ok = min((e for b, e, s, _ in answers if b >= back and s == 200), default=float("inf")) - back
    after = phase(back + 5, float("inf"))
    slowest = max(e - b for b, e, _, _ in answers)
    non_problem = sum(1 for b, e, s, kind in answers if s not in (200, None) and "problem+json" not in kind)
    print(f"before the stop: {dict(phase(0, stopping))}")
    print(f"while stopping ({stopped - stopping:.2f} s): {dict(phase(stopping, stopped))}")
    print(f"while down ({starting - stopped:.1f} s): {dict(gap)}")
    print(f"first 200 {first_ok:.2f} s after PostgreSQL accepted connections again")
    print(f"from 5 s after its return: {dict(after)}")
    print(f"slowest answer {slowest:.2f} s; error answers that were not problem documents: {non_problem}")
    statuses = Counter(s for _, _, s, _ in answers)
    failed = (not gap or set(gap) - {502, 504} or first_ok > 5 or set(after) != {200} or slowest >= 8
              or non_problem or 500 in statuses or None in statuses)
    print(f"all answers: {dict(statuses)}; {'FAILED' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
