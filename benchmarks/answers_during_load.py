"""How long a running API takes to answer, once a second, while something else (a load) runs.

    .venv/bin/python benchmarks/answers_during_load.py --url http://127.0.0.1:8000 --key KEY > answers.log

Each second it sends a free answer (`/sectors`) and a paid one (`/supply-flows`, whose credit debit
writes) and prints one line per answer: UTC time, kind, status, seconds. Stopped (Ctrl-C or SIGTERM),
it prints the count, median, p99 and maximum of each kind. The lines carry the time so that the
answers can be kept to the load's own window (its log gives its start and end).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time

import requests

PATHS = (("free", "/v1/public-procurement/sectors"), ("paid", "/v1/public-procurement/supply-flows?limit=5"))


def summary(waits: dict[str, list[float]]) -> list[str]:
    lines = []
    for kind, seconds in waits.items():
        if seconds:
            ordered = sorted(seconds)
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            lines.append(f"{kind}: {len(ordered)} answers, median {statistics.median(ordered):.3f} s, "
                         f"p99 {p99:.3f} s, max {ordered[-1]:.3f} s")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the API's base URL")
    parser.add_argument("--key", required=True, help="a key with credits for public-procurement")
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {args.key}"}
    waits: dict[str, list[float]] = {kind: [] for kind, _ in PATHS}

    def stop(*_: object) -> None:
        print("\n".join(summary(waits)), flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        for kind, path in PATHS:
            started = time.monotonic()
            try:
                status: int | str = requests.get(args.url + path, headers=headers, timeout=60).status_code
            except requests.RequestException as error:
                status = type(error).__name__
            waits[kind].append(time.monotonic() - started)
            print(f"{time.strftime('%H:%M:%S', time.gmtime())} {kind} {status} {waits[kind][-1]:.3f}", flush=True)
        time.sleep(1)


if __name__ == "__main__":
    sys.exit(main())
