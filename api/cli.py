"""The `gosterge` command: schema, server, keys, releases, loaders and the demo."""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from api.config import VAR_DIR, ensure_sqlite_dir, load_config
from store.db import create_store_engine, make_session_factory, session_scope
from store.errors import NotFoundError

APIS = ["finance-news", "public-procurement"]


def _say(*parts: object) -> None:
    """Everything but a command's one result goes to standard error."""
    print(*parts, file=sys.stderr)


def _sessions():
    config = load_config()
    ensure_sqlite_dir(config["DATABASE_URL"])
    engine = create_store_engine(config["DATABASE_URL"])
    return engine, make_session_factory(engine)


def _duration(text: str) -> timedelta:
    match = re.fullmatch(r"(\d+)([smhd])", text)
    if not match:
        raise argparse.ArgumentTypeError("use a number with s, m, h or d, e.g. 30d")
    unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[match.group(2)]
    return timedelta(**{unit: int(match.group(1))})


def _apis(text: str) -> list[str]:
    names = [a.strip() for a in text.split(",") if a.strip()]
    unknown = [a for a in names if a not in APIS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"APIs are a comma-separated subset of {', '.join(APIS)}")
    return names


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from store.schema import upgrade

    engine, _ = _sessions()
    before, after = upgrade(engine)
    _say(f"schema at version {after}" + (f" (was {before})" if before != after else " (already current)"))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from api import create_app

    create_app().run(host=args.host, port=args.port, threaded=True)
    return 0


def create_key_now(sessions, *, apis, credits, rate, expires_in=None, admin=False, label=""):  # noqa: ANN001
    from store.keys import create_key

    now = datetime.now(UTC)
    with session_scope(sessions) as session:
        row, key = create_key(session, apis=apis, credits=credits, rate=rate, now=now, is_admin=admin, label=label,
                              expires_at=now + expires_in if expires_in else None)
        return row.id, key


def cmd_keys_create(args: argparse.Namespace) -> int:
    from store.schema import upgrade

    engine, sessions = _sessions()
    upgrade(engine)
    key_id, key = create_key_now(sessions, apis=args.apis, credits=args.credits,
                                 rate=args.rate or load_config()["DEFAULT_RATE"], expires_in=args.expires_in,
                                 admin=args.admin, label=args.label)
    _say(f"created key {key_id}; it is shown once, store it now")
    print(key)
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    from store.keys import list_keys

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        for k in list_keys(session):
            state = "revoked" if k.revoked_at else "active"
            expires = k.expires_at.strftime("%Y-%m-%d %H:%M") if k.expires_at else "never"
            print(f"{k.id}\t{k.prefix}…\t{k.apis}\tcredits={k.credits}\trate={k.rate}\t"
                  f"admin={'yes' if k.is_admin else 'no'}\texpires={expires}\t{state}\t{k.label}")
    return 0


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    from store.keys import record_audit, revoke_key

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        revoke_key(session, args.key_id, now=datetime.now(UTC))
        record_audit(session, actor="cli", action="key.revoke", target=str(args.key_id), detail="", now=datetime.now(UTC))
    _say(f"key {args.key_id} revoked")
    return 0


def cmd_keys_topup(args: argparse.Namespace) -> int:
    from store.keys import add_credits, record_audit

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        row = add_credits(session, args.key_id, args.credits)
        record_audit(session, actor="cli", action="key.topup", target=str(args.key_id), detail=str(args.credits),
                     now=datetime.now(UTC))
        _say(f"key {row.id} now holds {row.credits} credits")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from loaders.procurement.generate import generate_release

    path = generate_release(args.scale, seed=args.seed, out=Path(args.out))
    _say(f"wrote synthetic release ({args.scale}, seed {args.seed})")
    print(path)
    return 0


def cmd_load_procurement(args: argparse.Namespace) -> int:
    from loaders.procurement.load import load_release
    from loaders.procurement.release import ReleaseRejectedError
    from store.schema import upgrade

    engine, sessions = _sessions()
    upgrade(engine)
    try:
        result = load_release(Path(args.path), sessions, activate=not args.no_activate)
    except ReleaseRejectedError as exc:
        _say(f"release rejected: {exc.total} problem(s)")
        for p in exc.problems:
            where = ":".join(str(x) for x in (p.file, p.row, p.column) if x is not None)
            _say(f"  {where}: {p.message}")
        return 1
    _say(f"loaded release {result.name} as id {result.release_id}: {result.items} items in {result.seconds:.1f} s"
         + ("" if args.no_activate else "; now served"))
    return 0


def cmd_load_news(args: argparse.Namespace) -> int:
    from loaders.news.pipeline import ALL_SOURCES, load_news
    from loaders.news.summarise import SummaryError
    from loaders.settings import load_settings
    from store.schema import upgrade

    engine, sessions = _sessions()
    upgrade(engine)
    if args.sample:
        from loaders.news.sample import load_sample

        _say(f"stored the curated sample: {load_sample(sessions)} articles")
        return 0
    sources = ALL_SOURCES if args.source == "all" else [args.source]
    since = datetime.fromisoformat(args.since).replace(tzinfo=UTC) if args.since else None
    try:
        reports = load_news(sources, sessions, load_settings(), from_dir=Path(args.from_dir) if args.from_dir else None,
                            since=since, cache_dir=VAR_DIR / "http-cache")
    except SummaryError as exc:
        _say(f"error: {exc}")
        return 1
    for source, report in reports.items():
        _say(report.line(source))
        for problem in report.failed:
            _say(f"  failed: {problem}")
    return 0


def cmd_news_failures(args: argparse.Namespace) -> int:
    from store.news import list_failures

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        for f in list_failures(session):
            print(f"{f.at:%Y-%m-%d %H:%M}\t{f.source}\t{f.article_id}\tattempts={f.attempts}\t{f.url}\t{f.reason}")
    return 0


def cmd_releases_list(args: argparse.Namespace) -> int:
    from store.releases import list_releases

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        for r in list_releases(session):
            print(f"{r.id}\t{r.name}\tloaded {r.loaded_at:%Y-%m-%d %H:%M}\trows={r.total_rows}\tby={r.uploaded_by}\t"
                  f"{'synthetic' if r.synthetic else 'real'}\t{'ACTIVE' if r.is_active else ''}")
    return 0


def cmd_releases_activate(args: argparse.Namespace) -> int:
    from store.keys import record_audit
    from store.releases import activate_release

    _, sessions = _sessions()
    with session_scope(sessions) as session:
        release = activate_release(session, args.release_id)
        record_audit(session, actor="cli", action="release.activate", target=str(release.id), detail=release.name,
                     now=datetime.now(UTC))
        _say(f"release {release.id} ({release.name}) is now served")
    return 0


def _wait_for(url: str, seconds: float) -> bool:
    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            requests.get(url, timeout=1)
            return True
        except requests.RequestException:
            time.sleep(0.2)
    return False


def cmd_demo(args: argparse.Namespace) -> int:
    from loaders.news.sample import load_sample
    from loaders.procurement.generate import generate_release
    from loaders.procurement.load import load_release
    from store.news import source_stats
    from store.releases import list_releases
    from store.schema import upgrade

    engine, sessions = _sessions()
    upgrade(engine)
    with session_scope(sessions) as session:
        has_release = bool(list_releases(session))
    if not has_release:
        path = generate_release("demo", seed=2026, out=VAR_DIR / "demo-release.zip")
        result = load_release(path, sessions, uploaded_by="demo")
        _say(f"loaded the synthetic demo release {result.name} ({result.items} items)")
    else:
        _say("demo data already loaded")
    with session_scope(sessions) as session:
        has_news = source_stats(session) != {}
    if not has_news:
        _say(f"loaded the curated sample news feed ({load_sample(sessions)} articles)")
    _, key = create_key_now(sessions, apis=APIS, credits=100_000, rate="600/minute", label="demo")
    if args.load_only:
        _say("demo key (shown once):")
        print(key)
        return 0
    api_url = f"http://127.0.0.1:{args.api_port}"
    env = {**os.environ, "GOSTERGE_PUBLIC_BASE_URL": api_url}
    api = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{args.api_port}",
                            "--access-logfile", "-", "api:create_app()"], env=env)
    processes = [api]
    try:
        if not _wait_for(f"{api_url}/v1/openapi.json", 30):
            _say("the API did not start; see the messages above")
            return 1
        dashboard_url = f"http://127.0.0.1:{args.dashboard_port}"
        processes.append(subprocess.Popen(dashboard_command(args.dashboard_port),
                                          env={**env, "GOSTERGE_API_URL": api_url, "GOSTERGE_API_KEY": key}))
        if not _wait_for(f"{dashboard_url}/_stcore/health", 60):
            _say("the dashboard did not start; see the messages above")
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
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            p.wait(timeout=10)


def dashboard_command(port: int) -> list[str]:
    app = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
    return [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port), "--server.address",
            "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]


def cmd_dashboard(args: argparse.Namespace) -> int:
    return subprocess.call(dashboard_command(args.port))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gosterge", description="Gösterge: procurement statistics and finance news.")
    sub = parser.add_subparsers(dest="command", required=True)

    db = sub.add_parser("db", help="database schema").add_subparsers(dest="action", required=True)
    db.add_parser("upgrade", help="create or migrate the schema").set_defaults(func=cmd_db_upgrade)

    serve = sub.add_parser("serve", help="run the API for development (production: gunicorn 'api:create_app()')")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)

    keys = sub.add_parser("keys", help="API keys").add_subparsers(dest="action", required=True)
    create = keys.add_parser("create", help="create a key and print it once on standard output")
    create.add_argument("--apis", type=_apis, required=True, help="comma-separated: finance-news,public-procurement")
    create.add_argument("--credits", type=int, required=True)
    create.add_argument("--rate", help="e.g. 60/minute (default GOSTERGE_DEFAULT_RATE)")
    create.add_argument("--expires-in", type=_duration, help="e.g. 30d, 12h")
    create.add_argument("--admin", action="store_true", help="may call /v1/admin/")
    create.add_argument("--label", default="")
    create.set_defaults(func=cmd_keys_create)
    keys.add_parser("list", help="list keys (never the keys themselves)").set_defaults(func=cmd_keys_list)
    revoke = keys.add_parser("revoke", help="revoke a key")
    revoke.add_argument("key_id", type=int)
    revoke.set_defaults(func=cmd_keys_revoke)
    topup = keys.add_parser("topup", help="add credits to a key")
    topup.add_argument("key_id", type=int)
    topup.add_argument("credits", type=int)
    topup.set_defaults(func=cmd_keys_topup)

    gen = sub.add_parser("generate", help="generate synthetic data").add_subparsers(dest="what", required=True)
    proc = gen.add_parser("procurement", help="a synthetic weekly procurement release (ZIP)")
    proc.add_argument("--scale", choices=["tiny", "demo", "national"], default="demo")
    proc.add_argument("--seed", type=int, default=1)
    proc.add_argument("--out", required=True)
    proc.set_defaults(func=cmd_generate)

    load = sub.add_parser("load", help="load data").add_subparsers(dest="what", required=True)
    lp = load.add_parser("procurement", help="validate, compute and serve a weekly release (ZIP or directory)")
    lp.add_argument("path")
    lp.add_argument("--no-activate", action="store_true", help="store it without serving it")
    lp.set_defaults(func=cmd_load_procurement)

    ln = load.add_parser("news", help="summarise new documents of the news sources (needs GOSTERGE_LLM_BASE_URL)")
    ln.add_argument("--source", choices=["fed", "ecb", "sec", "resmi-gazete", "all"], default="all")
    ln.add_argument("--from-dir", help="read saved documents from this folder (or one folder per source) instead of the web")
    ln.add_argument("--since", help="only documents published on or after this date (YYYY-MM-DD)")
    ln.add_argument("--sample", action="store_true", help="store the curated sample feed instead (no model needed)")
    ln.set_defaults(func=cmd_load_news)

    news = sub.add_parser("news", help="finance news").add_subparsers(dest="action", required=True)
    news.add_parser("failures", help="documents whose summary failed, with the reason").set_defaults(func=cmd_news_failures)

    releases = sub.add_parser("releases", help="procurement releases").add_subparsers(dest="action", required=True)
    releases.add_parser("list", help="list loaded releases").set_defaults(func=cmd_releases_list)
    activate = releases.add_parser("activate", help="serve an earlier or later release")
    activate.add_argument("release_id", type=int)
    activate.set_defaults(func=cmd_releases_activate)

    dash = sub.add_parser("dashboard", help="run the dashboard (GOSTERGE_API_URL, GOSTERGE_API_KEY)")
    dash.add_argument("--port", type=int, default=8501)
    dash.set_defaults(func=cmd_dashboard)

    demo = sub.add_parser("demo", help="load the demo data, then start the API and print a key")
    demo.add_argument("--load-only", action="store_true")
    demo.add_argument("--api-port", type=int, default=8000)
    demo.add_argument("--dashboard-port", type=int, default=8501)
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except NotFoundError as exc:  # one clear line, not a traceback, for a person at a terminal
        _say(f"error: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
