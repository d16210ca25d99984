"""The worker of gunicorn.conf.py keeps the loaded app out of the garbage collector's full passes: a
full collection, which runs in the worker's only thread while every connection waits, visits only what
was made after the app loaded. Before, it visited the whole app (about 146,000 objects) and took
77-78 ms under wrk (docs/benchmarks.md, "A full collection in the worker"). Real gunicorn; what the
collector holds is read in the worker, its times are the benchmark's business."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import requests

from tests.helpers import PROBLEM_BASE, ROOT, Gunicorn

pytestmark = pytest.mark.slow

# The shipped settings, then a hook that reports the worker's collector once the app is loaded
# (gunicorn runs post_worker_init right after the worker's load_wsgi) and after each request.
REPORTING = '''
exec(compile(open({shipped!r}, encoding="utf-8").read(), {shipped!r}, "exec"))
_shipped_post_worker_init = post_worker_init


_served = []


def _report(name):
    import gc, json, os
    with open({out!r} + name + ".part", "w", encoding="utf-8") as out:
        json.dump({{"frozen": gc.get_freeze_count(), "collected": len(gc.get_objects()),
                    "served": len(_served)}}, out)
    os.replace({out!r} + name + ".part", {out!r} + name)  # whole, for the test reading it meanwhile


def post_worker_init(worker):
    _shipped_post_worker_init(worker)
    _report(".loaded")


def post_request(worker, req, environ, resp):
    _served.append(1)
    _report(".served")
'''


def _read(report: Path) -> dict[str, int]:
    """The hook's last report (written whole by os.replace), or none served yet."""
    return json.loads(report.read_text(encoding="utf-8")) if report.exists() else {"served": 0}


def test_the_loaded_app_is_frozen_out_of_full_collections(tmp_path, database_url, limiter_storage):
    out = tmp_path / "collector"
    config = tmp_path / "reporting.conf.py"
    config.write_text(REPORTING.format(shipped=str(ROOT / "gunicorn.conf.py"), out=str(out)), encoding="utf-8")
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_RATELIMIT_STORAGE_URI": limiter_storage,
           "GOSTERGE_PROBLEM_BASE": PROBLEM_BASE}
    with Gunicorn(env, config=config) as server:
        for _ in range(50):
            assert requests.get(f"{server.url}/v1/health", timeout=10).status_code == 200
        loaded = json.loads((tmp_path / "collector.loaded").read_text(encoding="utf-8"))
        # gunicorn runs post_request after the answer is sent: wait for the hook of the last one.
        deadline = time.monotonic() + 30
        while (served := _read(tmp_path / "collector.served"))["served"] < 50:
            assert time.monotonic() < deadline, served
            time.sleep(0.05)
    # The app's modules, routes and tables alone are tens of thousands of objects.
    assert loaded["frozen"] > 20_000, loaded
    # What a full collection still visits once requests are served is a small part of it.
    assert served["collected"] < loaded["frozen"] / 5, (loaded, served)
