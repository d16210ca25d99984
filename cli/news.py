"""`gosterge load news` and `gosterge news`: summarised finance news."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from api.config import VAR_DIR
from cli.common import open_store, say
from store.db import session_scope


def cmd_load(args: argparse.Namespace) -> int:
    from loaders.news.pipeline import ALL_SOURCES, load_news
    from loaders.news.summarise import LlmClient, SummaryError
    from loaders.settings import load_settings

    _, sessions = open_store(upgrade_schema=True)
    if args.sample:
        from loaders.news.sample import load_sample

        say(f"stored the curated sample: {load_sample(sessions)} articles")
        return 0
    sources = ALL_SOURCES if args.source == "all" else [args.source]
    since = datetime.fromisoformat(args.since).replace(tzinfo=UTC) if args.since else None
    settings = load_settings()
    try:
        # Once, before any document: a model that cannot answer is one sentence, not a failure per document.
        client = LlmClient(settings)
        client.check()
        reports = load_news(sources, sessions, settings, from_dir=Path(args.from_dir) if args.from_dir else None,
                            since=since, cache_dir=VAR_DIR / "http-cache", client=client, resummarise=args.resummarise)
    except SummaryError as exc:
        say(f"error: {exc}")
        return 1
    for source, report in reports.items():
        say(report.line(source))
        for problem in report.failed:
            say(f"  failed: {problem}")
    if nothing_fetched(reports):
        # Every source failed to answer (no network, a proxy, a blocked host): a run that stored nothing
        # and could not have is a failure for whatever runs it on a schedule.
        say("error: nothing could be fetched from any source (failures above; listed by gosterge news failures)")
        return 1
    return 0


def nothing_fetched(reports: dict) -> bool:
    """Whether no source gave a single document while some address could not be fetched."""
    return not any(r.documents for r in reports.values()) and any(r.not_fetched for r in reports.values())


def cmd_failures(args: argparse.Namespace) -> int:
    from store.news import list_failures

    _, sessions = open_store()
    with session_scope(sessions) as session:
        for f in list_failures(session):
            print(f"{f.at:%Y-%m-%d %H:%M}\t{f.source}\t{f.article_id}\tattempts={f.attempts}\t{f.url}\t{f.reason}")
    return 0


def add_commands(sub: argparse._SubParsersAction, *, load: argparse._SubParsersAction) -> None:
    ln = load.add_parser("news", help="summarise new documents of the news sources (needs GOSTERGE_LLM_BASE_URL)")
    ln.add_argument("--source", choices=["fed", "ecb", "sec", "resmi-gazete", "all"], default="all")
    ln.add_argument("--from-dir", help="read saved documents from this folder (or one folder per source) instead of the web")
    ln.add_argument("--since", help="only documents published on or after this date (YYYY-MM-DD)")
    ln.add_argument("--sample", action="store_true", help="store the curated sample feed instead (no model needed)")
    ln.add_argument("--resummarise", nargs="?", const="all", choices=["all", "sample"],
                    help="summarise again, with the configured model, documents already stored: every one the run "
                         "finds (all, the default), or only those holding the curated sample's summaries (sample)")
    ln.set_defaults(func=cmd_load)

    news = sub.add_parser("news", help="finance news").add_subparsers(dest="action", required=True)
    news.add_parser("failures", help="addresses that could not be fetched and documents whose summary failed, "
                                     "with the reason").set_defaults(func=cmd_failures)
