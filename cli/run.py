"""`gosterge serve`, `dashboard` and `demo`: the processes a person starts."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from api.config import VAR_DIR
from cli.common import open_store, say
from cli.keys import create_key_now
from store.db import session_scope
from store.reference.apis import APIS

# The ASGI app around dashboard/app.py: it tells each page where the server is (no 404s in the console).
DASHBOARD_APP = Path(__file__).resolve().parent.parent / "dashboard" / "server.py"
# The production configuration of gunicorn: the demo serves the API exactly as production does.
GUNICORN_CONF = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"


def cmd_serve(args: argparse.Namespace) -> int:
    from api import create_app

    create_app().run(host=args.host, port=args.port, threaded=True)
    return 0


def dashboard_command(port: int) -> list[str]:
    """The Streamlit command line of the dashboard on `port` (also used by the tests and benchmarks)."""
    # toolbarMode "minimal": readers get no deploy button, rerun or clear-cache menu (the developer's tools);
    # gatherUsageStats off: the browser sends nothing to Streamlit's servers.
    return [sys.executable, "-m", "streamlit", "run", str(DASHBOARD_APP), "--server.port", str(port),
            "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
            "--client.toolbarMode", "minimal"]


def cmd_dashboard(args: argparse.Namespace) -> int:
    return subprocess.call(dashboard_command(args.port))


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a server could not listen on `port`: bound the way gunicorn and Streamlit bind."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def busy_ports(api_port: int, dashboard_port: int) -> list[str]:
    """One line per port of the demo that is taken, saying how to choose others; none when both are free."""
    if api_port == dashboard_port:
        return [f"the API and the dashboard cannot share port {api_port}; give them two ports"]
    taken = [f"port {port} (the {what}) is already in use on 127.0.0.1"
             for what, port in (("API", api_port), ("dashboard", dashboard_port)) if port_in_use(port)]
    return taken


PORTS_HINT = ("Stop what uses it, or choose free ports: make demo API_PORT=8010 DASHBOARD_PORT=8511 "
              "(gosterge demo --api-port 8010 --dashboard-port 8511)")


def _wait_for(url: str, process: subprocess.Popen, seconds: float) -> bool:
    """True once `url` answers 200 while `process` (the server meant to answer it) is still running."""
    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return process.poll() is None
        except requests.RequestException:
            pass
        time.sleep(0.2)
    return False


def load_demo_data() -> tuple[int, str]:
    """The synthetic demo release and the curated news sample, each loaded once; returns a new demo
    key (its id and the clear key)."""
    from loaders.news.sample import load_sample
    from loaders.procurement.generate import generate_release
    from loaders.procurement.load import load_release
    from store.news import source_stats
    from store.releases import list_releases

    _, sessions = open_store(upgrade_schema=True)
    with session_scope(sessions) as session:
        has_release = bool(list_releases(session))
    if not has_release:
        path = generate_release("demo", seed=2026, out=VAR_DIR / "demo-release.zip")
        result = load_release(path, sessions, uploaded_by="demo")
        say(f"loaded the synthetic demo release {result.name} ({result.items} items)")
    else:
        say("demo data already loaded")
    with session_scope(sessions) as session:
        has_news = source_stats(session) != {}
    if not has_news:
        say(f"loaded the curated sample news feed ({load_sample(sessions)} articles)")
    return create_key_now(sessions, apis=list(APIS), credits=100_000, rate="600/minute", label="demo")


def api_environment(api_url: str, dashboard_key_id: int, dashboard_url: str = "") -> dict[str, str]:
    """The API's environment in the demo: its public address, the dashboard's (for the digests' link to
    its awards view), and the dashboard's key as the one (beside any already configured) that may name
    the visitors it signs up."""
    allowed = ",".join(filter(None, [os.environ.get("GOSTERGE_SIGNUP_VISITOR_KEYS", ""), str(dashboard_key_id)]))
    return {**os.environ, "GOSTERGE_PUBLIC_BASE_URL": api_url, "GOSTERGE_SIGNUP_VISITOR_KEYS": allowed,
            "GOSTERGE_DASHBOARD_URL": dashboard_url}


def cmd_demo(args: argparse.Namespace) -> int:
    if not args.load_only:
        # Checked before anything starts: another server on a port would answer in the demo's place.
        problems = busy_ports(args.api_port, args.dashboard_port)
        if problems:
            for line in problems:
                say(f"error: {line}")
            say(PORTS_HINT)
            return 1
    key_id, key = load_demo_data()
    if args.load_only:
        say("demo key (shown once):")
        print(key)
        return 0
    api_url = f"http://127.0.0.1:{args.api_port}"
    dashboard_url = f"http://127.0.0.1:{args.dashboard_port}"
    env = api_environment(api_url, key_id, dashboard_url)
    # One asynchronous worker unless WEB_CONCURRENCY asks for more (which needs Redis limits).
    api = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF),
                            "--bind", f"127.0.0.1:{args.api_port}"], env=env)
    processes = [api]
    try:
        if not _wait_for(f"{api_url}/v1/health", api, 30):
            say(f"error: the API did not start on port {args.api_port}; see the messages above")
            return 1
        dashboard = subprocess.Popen(dashboard_command(args.dashboard_port),
                                     env={**env, "GOSTERGE_API_URL": api_url, "GOSTERGE_API_KEY": key})
        processes.append(dashboard)
        if not _wait_for(f"{dashboard_url}/_stcore/health", dashboard, 60):
            say(f"error: the dashboard did not start on port {args.dashboard_port}; see the messages above")
            return 1
        print(f"Dashboard: {dashboard_url}", flush=True)
        print(f"API:       {api_url}/v1/  (OpenAPI document: {api_url}/v1/openapi.json)", flush=True)
        print(f"Demo key:  {key}", flush=True)
        print(f"Try:       curl -H 'Authorization: Bearer {key}' {api_url}/v1/public-procurement/datasets", flush=True)
        print(f"           curl -H 'Authorization: Bearer {key}' '{api_url}/v1/finance-news/articles?limit=3'", flush=True)
        print("Stop with Ctrl-C.", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while all(p.poll() is None for p in processes):
            time.sleep(0.5)
        say(f"error: the {'API' if api.poll() is not None else 'dashboard'} stopped; see the messages above")
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            p.wait(timeout=10)


def add_commands(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the API for development (production: gunicorn -c gunicorn.conf.py)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)

    dash = sub.add_parser("dashboard", help="run the dashboard (GOSTERGE_API_URL, GOSTERGE_API_KEY)")
    dash.add_argument("--port", type=int, default=8501)
    dash.set_defaults(func=cmd_dashboard)

    demo = sub.add_parser("demo", help="load the demo data, then start the API and print a key")
    demo.add_argument("--load-only", action="store_true")
    demo.add_argument("--api-port", type=int, default=8000)
    demo.add_argument("--dashboard-port", type=int, default=8501)
    demo.set_defaults(func=cmd_demo)
