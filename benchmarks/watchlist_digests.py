"""Time of the digests of many watchlists after a release, and the API's answers while they are sent.

    .venv/bin/python benchmarks/watchlist_digests.py --scale national --watchlists 10000   # the full run
    .venv/bin/python benchmarks/watchlist_digests.py --smoke                               # the CI smoke run

A release is generated; the one before it is the same release without every `--every`-th tender (its
lots are the new awards of the second). The first is loaded, `--watchlists` confirmed watchlists are
stored (filters drawn from the release: an authority, a province, a sector, a province and a sector,
a contractor, a province with a least value), then the second is loaded and every digest is mailed
to an SMTP server on loopback (aiosmtpd's sink, in a process of its own). Meanwhile the API, in this process as its
sender thread would be, answers /awards pages: their latency is measured before and during.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text  # noqa: E402

from api import create_app  # noqa: E402
from api.digests import SendRun, send_all_digests  # noqa: E402
from loaders.procurement.generate import generate_release  # noqa: E402
from loaders.procurement.load import load_release  # noqa: E402
from loaders.procurement.release import open_release  # noqa: E402
from loaders.settings import load_settings  # noqa: E402
from store.db import session_scope  # noqa: E402
from store.keys import create_key  # noqa: E402
from store.models import Watchlist  # noqa: E402
from store.schema import upgrade  # noqa: E402


def smtp_sink(port: int) -> subprocess.Popen:
    """An SMTP server that keeps nothing, in a process of its own (it takes no time from the API's)."""
    process = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}", "-c",
                                "aiosmtpd.handlers.Sink"])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the SMTP sink did not start")


def earlier_release(full: Path, out: Path, every: int) -> int:
    """`full` without every `every`-th tender and its lots, as release 2026-W46; how many tenders it lacks."""
    out.mkdir(parents=True)
    dropped: set[str] = set()
    with open(full / "tenders.csv", encoding="utf-8", newline="") as source, \
            open(out / "tenders.csv", "w", encoding="utf-8", newline="") as sink:
        reader, writer = csv.reader(source), csv.writer(sink, lineterminator="\n")
        writer.writerow(next(reader))
        for n, row in enumerate(reader):
            if n % every == every - 1:
                dropped.add(row[0])
            else:
                writer.writerow(row)
    rows = {"tenders.csv": 0, "awards.csv": 0}
    with open(full / "awards.csv", encoding="utf-8", newline="") as source, \
            open(out / "awards.csv", "w", encoding="utf-8", newline="") as sink:
        reader, writer = csv.reader(source), csv.writer(sink, lineterminator="\n")
        writer.writerow(next(reader))
        for row in reader:
            if row[0] not in dropped:
                writer.writerow(row)
                rows["awards.csv"] += 1
    for name in ("authorities.csv", "contractors.csv", "direct_purchases.csv"):
        shutil.copyfile(full / name, out / name)
    manifest = json.loads((full / "manifest.json").read_text(encoding="utf-8"))
    for dataset in manifest["datasets"]:
        if dataset["file"] == "tenders.csv":
            dataset["rows"] -= len(dropped)
        if dataset["file"] == "awards.csv":
            dataset["rows"] = rows["awards.csv"]
    manifest["release"] = "2026-W46"
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return len(dropped)


def send_in_a_process(config: dict[str, Any], work: Path) -> SendRun:
    """`gosterge digests send` with the same settings; what it reported."""
    names = ("DATABASE_URL", "SMTP_URL", "PUBLIC_BASE_URL", "DASHBOARD_URL", "DIGESTS_PER_ADDRESS_PER_DAY")
    env = {**os.environ, "GOSTERGE_VAR_DIR": str(work), **{f"GOSTERGE_{n}": str(config[n]) for n in names}}
    done = subprocess.run([sys.executable, "-m", "cli", "digests", "send"], env=env, capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    line = done.stderr.strip().splitlines()[-1].removeprefix("digests: ")
    run = SendRun()
    for part in line.split(", "):
        count, status = part.split(" ")
        run.counts[status] = int(count)
    return run


def column(path: Path, name: str, limit: int = 200_000) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        return [row[name] for _, row in zip(range(limit), reader, strict=False)]


def store_watchlists(sessions: Any, key_id: int, count: int, release_id: int, full: Path) -> None:
    """`count` confirmed watchlists of one key, each to an address of its own, in one insert."""
    rng = random.Random(5)
    authorities, contractors = column(full / "authorities.csv", "authority_id"), column(full / "awards.csv",
                                                                                       "contractor_id")
    contractors = [c for c in contractors if c] or ["none"]
    provinces, sectors = list(range(1, 82)), list(range(1, 25))
    kinds = [lambda: {"authority": rng.choice(authorities)}] * 8 + [lambda: {"province": rng.choice(provinces)}] * 4 \
        + [lambda: {"sector": rng.choice(sectors)}] * 3 \
        + [lambda: {"province": rng.choice(provinces), "sector": rng.choice(sectors)}] * 2 \
        + [lambda: {"contractor": rng.choice(contractors)}] * 2 \
        + [lambda: {"province": rng.choice(provinces), "minValue": 1_000_000}]
    now = datetime.now(UTC)
    rows = [{"id": secrets.token_urlsafe(16), "key_id": key_id, "name": f"w{n}", "filters": json.dumps(rng.choice(kinds)()),
             "created_at": now, "baseline_release_id": release_id, "notify": f"w{n}@example.com", "confirmed": True,
             "unsubscribed": False, "confirm_token_hash": secrets.token_hex(32),
             "unsubscribe_token_hash": secrets.token_hex(32)} for n in range(count)]
    with session_scope(sessions) as session:
        session.execute(Watchlist.__table__.insert(), rows)


def latencies(client: Any, key: str, seconds: float | None = None, calls: int = 0,
              until: threading.Event | None = None) -> list[float]:
    """Milliseconds of /awards pages, `calls` of them or until `until` is set."""
    found, n = [], 0
    headers = {"Authorization": f"Bearer {key}"}
    while (until is not None and not until.is_set()) or n < calls:
        started = time.perf_counter()
        answer = client.get(f"/v1/public-procurement/awards?province={1 + n % 81}&limit=50", headers=headers)
        found.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        n += 1
    return found


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"p50 {statistics.median(ordered):.1f} ms, p99 {ordered[int(len(ordered) * 0.99) - 1]:.1f} ms "
            f"over {len(ordered)} calls")


def resend(args: argparse.Namespace, work: Path) -> int:
    """The sending phase again, on the store of an earlier run."""
    from sqlalchemy import delete

    from store.models import WatchlistDigest

    port = 8025 + random.Random().randrange(1000)
    smtp = smtp_sink(port)
    app = create_app({"DATABASE_URL": args.database_url, "ANSWER_CACHE_BYTES": 0, "DEFAULT_RATE": "100000/minute",
                      "SMTP_URL": f"smtp://127.0.0.1:{port}", "PUBLIC_BASE_URL": "http://gosterge.test",
                      "DASHBOARD_URL": "http://dashboard.test", "DIGESTS_PER_ADDRESS_PER_DAY": 100,
                      "DIGEST_SENDER_SECONDS": 0, "KEY_CACHE_MS": 250, "LOG_LEVEL": "WARNING",
                      "DIGEST_PAUSE_MS": args.pause_ms})
    sessions = app.extensions["gosterge.sessions"]
    with session_scope(sessions) as session:
        session.execute(delete(WatchlistDigest))
        session.execute(text("DELETE FROM signup_allowances WHERE address LIKE 'digest:%'"))
        _, key = create_key(session, apis=["public-procurement"], credits=10**9, rate="100000/minute",
                            now=datetime.now(UTC))
    measure(app, key, args, work, smtp)
    return 0


def measure(app: Any, key: str, args: argparse.Namespace, work: Path, smtp: subprocess.Popen) -> None:
    """Send every due digest while a thread reads /awards pages; print the figures."""
    sessions = app.extensions["gosterge.sessions"]
    client = app.test_client()
    latencies(client, key, calls=20)  # warm
    # The pages are read by a thread in both phases, as a worker serves them beside its sender thread.
    idle: list[float] = []
    quiet = threading.Event()
    reader = threading.Thread(target=lambda: idle.extend(latencies(client, key, until=quiet)))
    reader.start()
    time.sleep(5)
    quiet.set()
    reader.join()
    done = threading.Event()
    busy: list[float] = []
    reader = threading.Thread(target=lambda: busy.extend(latencies(client, key, until=done)))
    reader.start()
    started = time.perf_counter()
    if args.sender == "thread":  # as the API's sender thread sends them: with its pause after each digest
        run = send_all_digests(sessions, app.config, pause=app.config["DIGEST_PAUSE_MS"] / 1000)
    else:
        run = send_in_a_process(app.config, work)
    seconds = time.perf_counter() - started
    done.set()
    reader.join()
    smtp.terminate()
    smtp.wait()
    print(f"digests of {args.watchlists} watchlists: {dict(sorted(run.counts.items()))} in {seconds:.1f} s "
          f"({seconds / max(run.handled, 1) * 1000:.1f} ms each; sent from a {args.sender}"
          + (f", its pause of {args.pause_ms} ms included)" if args.sender == "thread" else ")"))
    print(f"/awards pages before: {summary(idle)}")
    print(f"/awards pages while the digests were sent: {summary(busy) if busy else 'none finished'}")
    assert run.counts.get("sent", 0) > 0 and not run.counts.get("pending") and not run.counts.get("failed")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="demo", choices=["tiny", "demo", "national"])
    parser.add_argument("--watchlists", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=100, help="every n-th tender is new in the second release")
    parser.add_argument("--database-url")
    parser.add_argument("--pause-ms", type=int, default=5, help="the sender's pause after each digest")
    parser.add_argument("--sender", choices=["thread", "process"], default="thread",
                        help="send in this process, as the API's sender thread does, or with `gosterge digests "
                             "send` in a process of its own")
    parser.add_argument("--smoke", action="store_true", help="tiny release, 200 watchlists")
    parser.add_argument("--resend", action="store_true", help="with --database-url of an earlier run: forget its "
                        "digests and send them again (no generation, no loads)")
    args = parser.parse_args()
    if args.smoke:
        args.scale, args.watchlists, args.every = "tiny", 200, 10
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    work = Path(tempfile.mkdtemp(prefix="gosterge-digests-"))
    if args.resend:
        return resend(args, work)
    started = time.perf_counter()
    archive = generate_release(args.scale, seed=1, out=work / f"{args.scale}.zip",
                               published=datetime(2026, 11, 20, 6, tzinfo=UTC))
    full = work / "full"
    with open_release(archive, workdir=work) as opened:
        shutil.copytree(opened.directory, full)
    new_tenders = earlier_release(full, work / "earlier", args.every)
    print(f"generated {args.scale}: the second release has {new_tenders} new tenders "
          f"({time.perf_counter() - started:.1f} s)")

    port = 8025 + random.Random().randrange(1000)
    smtp = smtp_sink(port)
    app = create_app({"DATABASE_URL": args.database_url or f"sqlite:///{work / 'bench.db'}", "ANSWER_CACHE_BYTES": 0,
                      "DEFAULT_RATE": "100000/minute", "SMTP_URL": f"smtp://127.0.0.1:{port}",
                      "PUBLIC_BASE_URL": "http://gosterge.test", "DASHBOARD_URL": "http://dashboard.test",
                      "DIGESTS_PER_ADDRESS_PER_DAY": 100, "DIGEST_SENDER_SECONDS": 0, "KEY_CACHE_MS": 250,
                      "LOG_LEVEL": "WARNING", "DIGEST_PAUSE_MS": args.pause_ms})
    upgrade(app.extensions["gosterge.engine"])
    sessions = app.extensions["gosterge.sessions"]
    settings = load_settings({"GOSTERGE_RELEASE_FILES_DIR": str(work / "release-files")})
    first = load_release(work / "earlier", sessions, settings=settings)
    with session_scope(sessions) as session:
        key_row, key = create_key(session, apis=["public-procurement"], credits=10**9, rate="100000/minute",
                                  now=datetime.now(UTC))
        key_id = key_row.id
    store_watchlists(sessions, key_id, args.watchlists, first.release_id, full)
    started = time.perf_counter()
    second = load_release(full, sessions, settings=settings)
    print(f"second release loaded in {time.perf_counter() - started:.1f} s (its digests planned in the load)")

    with session_scope(sessions) as session:
        from store.releases import find_release
        from store.watchlists import new_awards

        release, before = find_release(session, second.name), find_release(session, first.name)
        started = time.perf_counter()
        awards = new_awards(session, release=release, since=before) if release and before else []
        once = time.perf_counter() - started
    print(f"new awards of the release: {len(awards)} (the one anti-join: {once:.2f} s)")
    measure(app, key, args, work, smtp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
