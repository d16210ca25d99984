"""gunicorn settings for measuring where a client's wait is spent: the shipped ones (gunicorn.conf.py)
plus a clock around every answer in the worker. At the worker's exit it writes, to
GOSTERGE_WORKER_TIMING (default worker-timing.txt in the current folder):

- each answer's time in the worker, from its parsed request to the end of its writing (the other
  connections' turn, which the shipped worker gives after each answer, included);
- the turnaround of each kept-alive connection: from an answer written to the next request of the
  same connection parsed, which holds the client's reaction and the network's delivery as well as any
  wait for the worker;
- every turnaround over 4 ms, with its second since the start and the connection's descriptor;
- the garbage collector's passes after the warm-up, by generation: how many, and their p50 and
  longest (a pass runs in the worker's only thread, every connection waiting).

    GOSTERGE_DATABASE_URL=… .venv/bin/gunicorn -c benchmarks/worker_timing.py --bind 127.0.0.1:18002
    wrk -t2 -c2 -d15s --latency -H "Authorization: Bearer KEY" "http://127.0.0.1:18002/v1/…"
    kill %1; cat worker-timing.txt

With `-s benchmarks/varied_answers.lua` wrk draws each request from six queries over the 81 provinces
instead of the URL's (docs/benchmarks.md, "A full collection in the worker", timed the collector's
passes under it).

The first 2,000 answers (a warm-up) are left out. docs/benchmarks.md, "A quiet machine again: where
the two-connection tail is", gives what it showed.
"""

import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.plain_client import quantiles_ms  # noqa: E402  (importable once the project's root is on the path)

# The shipped settings, then this file's additions over them.
exec(compile((ROOT / "gunicorn.conf.py").read_text(encoding="utf-8"), str(ROOT / "gunicorn.conf.py"), "exec"))

WARM_UP = 2_000
SLOW_TURNAROUND = 0.004
answers: list[float] = []
turnarounds: list[tuple[float, float, int]] = []  # (answer written, seconds to the next request, descriptor)
written: dict[int, float] = {}
collections: list[tuple[int, float]] = []  # (generation, seconds), from the end of the warm-up
_collecting: list[float] = []


def _time_collection(phase: str, info: dict) -> None:
    if phase == "start":
        _collecting[:] = [time.perf_counter()]
    elif _collecting and len(answers) > WARM_UP:
        collections.append((info["generation"], time.perf_counter() - _collecting[0]))


gc.callbacks.append(_time_collection)

Shipped = Worker  # noqa: F821  (defined by gunicorn.conf.py above)


class Worker(Shipped):  # type: ignore[no-redef]
    """The shipped worker with a clock around each answer."""

    def handle_request(self, listener_name, req, sock, addr):  # noqa: ANN001, ANN201
        started = time.perf_counter()
        descriptor = sock.fileno()
        if descriptor in written:
            turnarounds.append((written[descriptor], started - written[descriptor], descriptor))
        kept = super().handle_request(listener_name, req, sock, addr)
        written[descriptor] = time.perf_counter()
        answers.append(written[descriptor] - started)
        return kept


worker_class = Worker


def _quantiles(values: list[float]) -> str:
    if not values:
        return "no answers"
    figures = quantiles_ms(sorted(values))
    return f"n={len(values)} " + " ".join(f"{name}={value:.3f}" for name, value in figures.items()) + " ms"


def worker_exit(server, worker) -> None:  # noqa: ANN001
    kept = turnarounds[WARM_UP:]
    start = kept[0][0] if kept else 0.0
    slow = [(round(at - start, 3), round(seconds * 1000, 2), fd) for at, seconds, fd in kept if seconds > SLOW_TURNAROUND]
    with open(os.environ.get("GOSTERGE_WORKER_TIMING", "worker-timing.txt"), "w", encoding="utf-8") as out:
        out.write(f"answer in the worker: {_quantiles(answers[WARM_UP:])}\n")
        out.write(f"turnaround (answer written -> next request parsed): {_quantiles([s for _, s, _ in kept])}\n")
        out.write(f"turnarounds over {SLOW_TURNAROUND * 1000:g} ms (second, ms, descriptor): {slow}\n")
        for generation in range(3):
            passes = sorted(s for g, s in collections if g == generation)
            figures = (f"{len(passes)}, p50 {passes[len(passes) // 2] * 1000:.2f} ms, longest {passes[-1] * 1000:.2f} ms"
                       if passes else "none")
            out.write(f"collections of generation {generation}: {figures}\n")
