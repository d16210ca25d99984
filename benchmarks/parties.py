"""Time a profile, a party search and a filtered awards page through the store's functions, with one
connection, on a database holding a loaded release (the national one: load it first with
benchmarks/procurement_load.py --database-url ...).

    .venv/bin/python benchmarks/parties.py --database-url sqlite:////tmp/bench/national.db

Each operation runs `--runs` times with inputs drawn at random (seeded) from the release itself,
after a warm-up; the figures are wall times of the store call, p50/p95/p99/max in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store.awards import AwardFilters, list_awards, release_tables  # noqa: E402
from store.db import create_store_engine, make_session_factory  # noqa: E402
from store.parties import get_party_profile, search_parties  # noqa: E402
from store.reference.flags import FLAG_BITS  # noqa: E402
from store.reference.lists import authority_types, procedures, provinces, sectors  # noqa: E402
from store.releases import get_active_release  # noqa: E402

PAGE = 51  # a page of 50 and the one that says a next page exists


def percentiles(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"p50 {q[49]:7.2f}  p95 {q[94]:7.2f}  p99 {q[98]:7.2f}  max {ms[-1]:7.2f}  (n={len(ms)})"


def timed(calls: list[Callable[[], object]], warm: int) -> list[float]:
    for call in calls[:warm]:
        call()
    times = []
    for call in calls:
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--common-runs", type=int, default=100, help="calls for each word most names share")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    session = make_session_factory(create_store_engine(args.database_url, pool_size=1))()
    release = get_active_release(session)
    tables = release_tables(session, release)
    p = tables.parties.c
    count = {kind: session.scalar(select(func.count()).where(p.kind == kind)) for kind in ("authority", "contractor")}
    first = {"authority": 1, "contractor": count["authority"] + 1}

    def party(kind: str, heavy: bool = False) -> tuple[str, str]:
        seq = first[kind] + (rng.randrange(20) if heavy else rng.randrange(count[kind]))
        return session.execute(select(p.party_id, p.name).where(p.seq == seq)).one()

    years = [str(y) for y in range(2019, release.latest_year + 1)]
    profiles = []
    for _ in range(args.runs):
        kind = rng.choice(["authority", "contractor"])
        party_id, _ = party(kind, heavy=rng.random() < 0.1)
        period = rng.choice(["all", *years])
        profiles.append(lambda k=kind, i=party_id, y=period: get_party_profile(
            session, release=release, kind=k, party_id=i, period=y))

    searches = []
    for _ in range(args.runs):
        kind = rng.choice(["authority", "contractor"])
        _, name = party(kind)
        words = name.split()
        # The whole name; its first two words as someone still typing them; its distinctive word
        # (an authority's province, a firm's number). Words in most names are timed below.
        q = rng.choice([name, " ".join(words[:2])[:-1], words[-1].strip("()") if kind == "authority" else words[1]])
        searches.append(lambda k=kind, text=q: search_parties(session, release=release, kind=k, q=text, limit=PAGE))

    awards = []
    choices: dict[str, Callable[[], object]] = {
        "province": lambda: rng.choice(list(provinces())), "supplier_province": lambda: rng.choice(list(provinces())),
        "sector": lambda: rng.choice(list(sectors())), "procedure": lambda: rng.choice(list(procedures())[:10]),
        "authority_type": lambda: rng.choice(list(authority_types())), "period": lambda: int(rng.choice(years)),
        "flags": lambda: tuple(rng.sample(list(FLAG_BITS), rng.randint(1, 2))),
        "authority": lambda: party("authority")[0], "contractor": lambda: party("contractor")[0],
    }
    for _ in range(args.runs):
        names = rng.sample(list(choices), rng.randint(1, 3))
        filters = AwardFilters(**{n: choices[n]() for n in names})
        sort = rng.choice(["date", "value"])
        awards.append(lambda f=filters, s=sort: list_awards(session, release=release, filters=f, sort=s, limit=PAGE))

    print(f"release {release.name} (id {release.id}) at {args.database_url}; {args.runs} calls each, seed {args.seed}")
    print(f"profile          {percentiles(timed(profiles, 20))}")
    print(f"search           {percentiles(timed(searches, 20))}")
    print(f"awards page      {percentiles(timed(awards, 20))}")
    # Words that a large share of the synthetic names share: every match is counted, a page ranked.
    for kind, q in (("contractor", "firma"), ("contractor", "A.Ş."), ("contractor", "inşaat"), ("authority", "kurum"),
                    ("authority", "istanbul")):
        page = search_parties(session, release=release, kind=kind, q=q, limit=PAGE)
        calls = [lambda k=kind, text=q: search_parties(session, release=release, kind=k, q=text, limit=PAGE)]
        print(f"search {kind} {q!r:10} {page.total:7} matches: {percentiles(timed(calls * args.common_runs, 3))}")
    session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
