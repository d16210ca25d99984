"""wrk runs: one run's figures, and short runs against several servers in turns, pooled.

On a shared machine of two cores, a slow spell of a few seconds falls on whichever server is measured
then. Runs of one second against each server in turn, the first of each turn rotating, spread such
spells over all of them; each server's runs are then pooled: its answers per second over the summed
seconds, and its percentiles from the summed latency histograms (benchmarks/latency_histogram.lua).
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

HISTOGRAM = Path(__file__).with_name("latency_histogram.lua")
T = TypeVar("T")


def wrk(url: str, key: str | None, seconds: int, connections: int, script: Path | None = None,
        threads: int = 2) -> dict[str, Any]:
    """One wrk run with `threads` threads: requests/s, p50 and p99 in ms, non-2xx/3xx count, and wrk's
    whole `output` (where a Lua `script` prints its own figures)."""
    command = ["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", url]
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


def histogram(output: str) -> tuple[int, float, Counter[int]]:
    """(answers, seconds, latency in µs -> count) of a run made with HISTOGRAM."""
    answers, micros = map(int, re.search(r"^summary (\d+) (\d+)$", output, re.M).groups())
    counts: Counter[int] = Counter()
    for value, count in re.findall(r"^latency (\d+) (\d+)$", output, re.M):
        counts[int(value)] += int(count)
    return answers, micros / 1e6, counts


def quantile_ms(counts: Counter[int], q: float) -> float:
    """The smallest latency (ms) at or below which a share `q` of the pooled counts lies."""
    total, seen = sum(counts.values()), 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= q * total:
            return value / 1000
    return 0.0


def pooled(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One figure from runs made with HISTOGRAM: answers per second over the summed seconds, p50 and
    p99 of the summed histograms, errors summed; `answers` and `seconds` beside them."""
    answers, seconds, counts = 0, 0.0, Counter[int]()
    for run in runs:
        n, s, c = histogram(run["output"])
        answers, seconds = answers + n, seconds + s
        counts.update(c)
    return {"rps": answers / seconds, "p50": quantile_ms(counts, 0.5), "p99": quantile_ms(counts, 0.99),
            "errors": sum(r["errors"] for r in runs), "answers": answers, "seconds": seconds}


def in_turns(items: Sequence[T], turns: int, run: Callable[[T], dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """`turns` turns, each calling `run` once per item, the first item of turn t being items[t % n];
    each item's results, in the order of `items`."""
    results: list[list[dict[str, Any]]] = [[] for _ in items]
    for turn in range(turns):
        for offset in range(len(items)):
            index = (turn + offset) % len(items)
            results[index].append(run(items[index]))
    return results
