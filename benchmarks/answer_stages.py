"""Where a remembered paid answer's time goes inside the app: each step of api/guard.py and each hook,
timed around its call, for the same request answered again and again in this process (no server, no
network: what the worker adds to gunicorn's own work), beside a bare Flask app returning the same bytes.

    .venv/bin/python benchmarks/answer_stages.py               # the demo store, 20,000 answers, 3 runs
    .venv/bin/python benchmarks/answer_stages.py --smoke       # CI: a tiny release, 500 answers, 1 run

A step's time includes what a step inside it takes (the debit is inside the view). The median over
the answers of each run says what a step costs; the mean also carries the rare long ones (a step
during which another thread of the process took the interpreter, or the processor was taken away).
"""

from __future__ import annotations

import argparse
import collections
import functools
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from werkzeug.test import EnvironBuilder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import prepare  # noqa: E402  (importable once the project's root is on the path)

PATH, QUERY = "/v1/public-procurement/competition-indices", "dimension=province&period=2024"
# Names looked up in api/guard.py (and api/limits.py) at each call, so replacing them times each call.
GUARD_STEPS = ("authenticate", "require_api", "check_if_none_match", "answers", "_check_credits",
               "_representation", "selected_etag", "matches", "close_session", "callers", "page_headers",
               "ApiResponse")


def environ(key: str | None) -> dict[str, Any]:
    """What gunicorn hands the app for `GET PATH?QUERY` from wrk (werkzeug's builder); made once, and
    copied with a fresh body stream for each answer."""
    headers = {"Host": "127.0.0.1:8000", "User-Agent": "wrk"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    values = EnvironBuilder(path=PATH, query_string=QUERY, headers=headers,
                            environ_base={"REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000"}).get_environ()
    values.pop("CONTENT_LENGTH", None)  # a GET from wrk carries no length, nor any type
    values.pop("CONTENT_TYPE", None)
    return values


def answer(app: Callable[..., Any], request: dict[str, Any]) -> bytes:
    status: list[str] = []
    body = b"".join(app({**request, "wsgi.input": io.BytesIO()}, lambda s, h, e=None: status.append(s)))
    if not status[0].startswith("200"):
        raise SystemExit(f"{PATH}?{QUERY} answered {status[0]}: {body[:200]!r}")
    return body


class Stages:
    """Per-call times (ns) of each step, by name."""

    def __init__(self) -> None:
        self.times: dict[str, list[int]] = collections.defaultdict(list)

    def wrap(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        clock, times = time.perf_counter_ns, self.times[name]

        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return func(*args, **kwargs)
            finally:
                times.append(clock() - started)

        return timed

    def reset(self) -> None:
        for times in self.times.values():
            times.clear()  # in place: the wrappers hold the lists


def instrument(app: Any, stages: Stages) -> None:
    import api.guard as guard
    import api.limits as limits
    from store.debits import Debits

    for name in GUARD_STEPS:
        setattr(guard, name, stages.wrap(name, getattr(guard, name)))
    limits.count_hit = stages.wrap("count_hit", limits.count_hit)
    Debits.take = stages.wrap("debit", Debits.take)
    for kind in ("before", "after"):
        hooks = getattr(app, f"{kind}_request_funcs")[None]
        hooks[:] = [stages.wrap(f"{kind} hook {hook.__name__}", hook) for hook in hooks]
    app.teardown_appcontext_funcs[:] = [stages.wrap(f"teardown {f.__name__}", f) for f in app.teardown_appcontext_funcs]


def run(app: Any, request: dict[str, Any], answers: int, stages: Stages) -> None:
    total = stages.times["whole answer"]
    clock = time.perf_counter_ns
    for _ in range(answers):
        started = clock()
        answer(app, request)
        total.append(clock() - started)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="a tiny release, 500 answers, one run")
    args = parser.parse_args()
    if args.smoke:
        args.answers, args.runs = 500, 1
    work = Path(tempfile.mkdtemp(prefix="gosterge-answer-stages-"))
    env, key = prepare("sqlite", work, smoke=args.smoke)
    os.environ.update({**env, "GOSTERGE_RATELIMIT_STORAGE_URI": "memory://"})
    # The access lines are written, as under gunicorn, to a file rather than the terminal.
    sys.stderr = (work / "access.log").open("w", encoding="utf-8")
    try:
        return measure(args, work, key)
    finally:
        sys.stderr = sys.__stderr__


def measure(args: argparse.Namespace, work: Path, key: str) -> int:
    from api import create_app
    from benchmarks import bare_app

    api, keyed, unkeyed = create_app(), environ(key), environ(None)
    captured = answer(api, keyed)
    captures = work / "captures.json"
    captures.write_text(json.dumps({f"{PATH}?{QUERY}": {"body": captured.decode(), "content_type": "application/json"}}))
    os.environ["GOSTERGE_BENCH_CAPTURES"] = str(captures)
    bare = bare_app.create_app()
    if answer(bare, unkeyed) != captured:
        raise SystemExit("the bare app does not return the API's bytes")
    instrument(api, api_stages := Stages())
    bare_stages = Stages()
    warm = min(2_000, args.answers)
    run(api, keyed, warm, api_stages)
    run(bare, unkeyed, warm, bare_stages)
    api_stages.reset()
    bare_stages.reset()
    for _ in range(args.runs):  # interleaved, so that both see the same machine
        run(api, keyed, args.answers, api_stages)
        run(bare, unkeyed, args.answers, bare_stages)
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {os.cpu_count()} cores; GET {PATH}?{QUERY}, "
          f"{args.runs} run(s) of {args.answers} answers each, in process")
    print("\n| step | calls per answer | p50 µs | mean µs |\n|---|---|---|---|")
    answers = args.answers * args.runs
    rows = [("bare Flask app, the same bytes: whole answer", bare_stages.times["whole answer"])]
    rows += sorted(api_stages.times.items(), key=lambda item: -sum(item[1]))
    for name, times in rows:
        print(f"| {name} | {len(times) / answers:.0f} | {statistics.median(times) / 1000:.1f} "
              f"| {sum(times) / len(times) / 1000:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
