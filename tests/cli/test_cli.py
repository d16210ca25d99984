"""The gosterge command as a person runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT


def run(args: list[str], database_url: str, tmp_path: Path,
        extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path), **(extra_env or {})}
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, capture_output=True, text=True, timeout=120)


def test_keys_create_prints_the_key_alone_on_stdout(database_url, tmp_path):
    assert run(["db", "upgrade"], database_url, tmp_path).returncode == 0
    created = run(["keys", "create", "--apis", "finance-news,public-procurement", "--credits", "5",
                   "--expires-in", "30d"], database_url, tmp_path)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    assert key.startswith("gk_") and "\n" not in key
    listed = run(["keys", "list"], database_url, tmp_path)
    assert "credits=5" in listed.stdout and key not in listed.stdout
    assert run(["keys", "topup", "1", "7"], database_url, tmp_path).returncode == 0
    assert "credits=12" in run(["keys", "list"], database_url, tmp_path).stdout
    assert run(["keys", "revoke", "1"], database_url, tmp_path).returncode == 0
    assert "revoked" in run(["keys", "list"], database_url, tmp_path).stdout


def test_keys_create_refuses_unknown_api(database_url, tmp_path):
    result = run(["keys", "create", "--apis", "weather", "--credits", "1"], database_url, tmp_path)
    assert result.returncode != 0 and "finance-news" in result.stderr


def test_generate_load_list_and_activate_releases(database_url, tmp_path):
    out = tmp_path / "r.zip"
    assert run(["generate", "procurement", "--scale", "tiny", "--seed", "3", "--out", str(out)], database_url,
               tmp_path).returncode == 0
    first = run(["load", "procurement", str(out)], database_url, tmp_path)
    assert first.returncode == 0, first.stderr
    assert run(["load", "procurement", str(out)], database_url, tmp_path).returncode == 0
    listed = run(["releases", "list"], database_url, tmp_path).stdout.splitlines()
    assert len(listed) == 2 and "ACTIVE" in listed[0]
    assert run(["releases", "activate", "1"], database_url, tmp_path).returncode == 0
    listed = run(["releases", "list"], database_url, tmp_path).stdout.splitlines()
    assert "ACTIVE" in listed[1] and "ACTIVE" not in listed[0]


def test_rejected_release_exits_non_zero_with_located_problems(database_url, tmp_path):
    from tests.helpers import write_release
    from tests.loaders.test_procurement_statistics import TABLES

    bad = {**TABLES, "tenders.csv": [{**TABLES["tenders.csv"][0], "lots": "x"}, *TABLES["tenders.csv"][1:]]}
    path = write_release(tmp_path / "bad", bad)
    result = run(["load", "procurement", str(path)], database_url, tmp_path)
    assert result.returncode == 1
    assert "tenders.csv:2:lots" in result.stderr


@pytest.mark.slow
def test_demo_load_only_loads_the_sample_news_and_is_idempotent(database_url, tmp_path):
    first = run(["demo", "--load-only"], database_url, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip().startswith("gk_")
    assert "curated sample news feed (51 articles)" in first.stderr
    second = run(["demo", "--load-only"], database_url, tmp_path)
    assert "already loaded" in second.stderr
    assert len(run(["releases", "list"], database_url, tmp_path).stdout.splitlines()) == 1


def test_generated_release_is_not_published_in_the_future(tmp_path):
    import json
    import zipfile
    from datetime import UTC, datetime

    from loaders.procurement.generate import generate_release

    path = generate_release("tiny", seed=1, out=tmp_path / "r.zip")
    with zipfile.ZipFile(path) as zf:
        published = json.loads(zf.read("manifest.json"))["publishedAt"]
    assert datetime.fromisoformat(published.replace("Z", "+00:00")) <= datetime.now(UTC)


def test_sample_feed_covers_every_source_and_passes_the_checks():
    from loaders.news.sample import sample_articles

    articles = sample_articles()
    assert len(articles) >= 40
    assert {a["source"] for a in articles} == {"fed", "ecb", "sec", "resmi-gazete"}
    assert all(a["model"].startswith("curated-sample") for a in articles)
    assert len({a["id"] for a in articles}) == len(articles)
    sec = [a for a in articles if a["source"] == "sec"]
    assert all(a["companies"][0]["ticker"] and a["filingItems"] for a in sec)


def test_demo_with_a_busy_port_says_which_and_how_to_choose_others(database_url, tmp_path):
    import socket

    from tests.helpers import free_port

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy, free = taken.getsockname()[1], free_port()
        result = run(["demo", "--api-port", str(busy), "--dashboard-port", str(free)], database_url, tmp_path)
    assert result.returncode == 1
    assert f"port {busy} (the API) is already in use" in result.stderr
    assert "make demo API_PORT=" in result.stderr and "--api-port" in result.stderr
    assert f"port {free}" not in result.stderr
    assert "Dashboard:" not in result.stdout and "Demo key" not in result.stdout
    # Nothing was started or loaded: the check comes first.
    assert "loaded" not in result.stderr


def test_make_demo_passes_the_ports_through():
    root = ROOT
    result = subprocess.run(["make", "-n", "-o", ".venv/.installed", "demo", "API_PORT=8010", "DASHBOARD_PORT=8511"],
                            cwd=root, capture_output=True, text=True, timeout=30)
    assert "gosterge demo --api-port 8010 --dashboard-port 8511" in result.stdout, result.stdout + result.stderr


def test_demo_waits_for_its_own_server_not_whatever_answers_on_the_port():
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from cli.run import _wait_for

    class Answers(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        stopped = subprocess.Popen([sys.executable, "-c", "pass"])
        stopped.wait()
        # Another server answers on the port, but the process meant to serve it has ended: not started.
        assert _wait_for(f"http://127.0.0.1:{other.server_port}/v1/health", stopped, 5) is False
        running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            assert _wait_for(f"http://127.0.0.1:{other.server_port}/v1/health", running, 5) is True
        finally:
            running.kill()
            running.wait()
    finally:
        other.shutdown()


def test_the_demo_lets_its_dashboard_key_and_no_other_name_visitors(monkeypatch):
    """The dashboard signs visitors up with the demo key; the API it starts must accept that key's
    X-Gosterge-Visitor, keep any key already configured, and add no other."""
    from api.config import load_config
    from cli.run import api_environment

    monkeypatch.delenv("GOSTERGE_SIGNUP_VISITOR_KEYS", raising=False)
    assert api_environment("http://127.0.0.1:8010", 12)["GOSTERGE_SIGNUP_VISITOR_KEYS"] == "12"
    monkeypatch.setenv("GOSTERGE_SIGNUP_VISITOR_KEYS", "7")
    env = api_environment("http://127.0.0.1:8010", 12)
    assert env["GOSTERGE_PUBLIC_BASE_URL"] == "http://127.0.0.1:8010"
    assert load_config(environ=env)["SIGNUP_VISITOR_KEYS"] == "7,12"
    # The digests of watchlists link to the demo's dashboard.
    assert load_config(environ=api_environment("http://127.0.0.1:8010", 12, "http://127.0.0.1:8511"))[
        "DASHBOARD_URL"] == "http://127.0.0.1:8511"
    with pytest.raises(ValueError, match="GOSTERGE_SIGNUP_VISITOR_KEYS"):
        load_config(environ={"GOSTERGE_SIGNUP_VISITOR_KEYS": "dashboard"})


def test_a_manifest_nested_too_deeply_is_refused_with_a_reason(database_url, tmp_path):
    from tests.helpers import write_release
    from tests.loaders.test_procurement_statistics import TABLES

    path = write_release(tmp_path / "deep", TABLES)
    (path / "manifest.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = run(["load", "procurement", str(path)], database_url, tmp_path)
    assert result.returncode == 1
    assert "manifest.json" in result.stderr and "nested too deeply" in result.stderr
    assert "Traceback" not in result.stderr
