"""The name index alone (store/name_index.py) on the national release's 445,000 party names, without
generating and loading a release: a SQLite file with the parties and word-index tables the load
writes, holding the names the national generator gives (loaders/procurement/generate.py: "Kurum
<n> (<province>)" and "Firma <n> <legal form>"), its name index built by `build_name_index`; then
`search_positions` timed for the words most names share, p50/p99 in milliseconds, with every call
counting its matches and with the total kept once counted.

    .venv/bin/python benchmarks/party_names.py --db /tmp/bench/names.db [--runs 100]
    .venv/bin/python benchmarks/party_names.py --db ... --module OLD/store/name_index.py   # another version
"""

from __future__ import annotations

import argparse
import importlib.util
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from store.reference.folding import name_words  # noqa: E402
from store.reference.lists import provinces  # noqa: E402

AUTHORITIES, CONTRACTORS = 45_000, 400_000
LEGAL_FORMS = ["İnşaat A.Ş.", "Ltd. Şti.", "Tic. A.Ş.", "Sağlık Ürünleri A.Ş.", "Bilişim Ltd. Şti."]
QUERIES = (("contractor", "firma"), ("contractor", "A.Ş."), ("contractor", "inşaat"), ("contractor", "f"),
           ("contractor", "firma 1"), ("authority", "kurum"), ("authority", "istanbul"))


def write_names(path: Path) -> None:
    names = [provinces()[p].name for p in sorted(provinces())]
    rows = [(i, "authority", " ".join(name_words(f"Kurum {i} ({names[i % len(names)]})")))
            for i in range(1, AUTHORITIES + 1)]
    rows += [(AUTHORITIES + i, "contractor", " ".join(name_words(f"Firma {i} {LEGAL_FORMS[i % len(LEGAL_FORMS)]}")))
             for i in range(1, CONTRACTORS + 1)]
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE parties_r1 (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, words TEXT NOT NULL)")
    db.execute("CREATE TABLE party_words_r1 (word TEXT NOT NULL, seq INTEGER NOT NULL)")
    db.executemany("INSERT INTO parties_r1 VALUES (?, ?, ?)", rows)
    db.executemany("INSERT INTO party_words_r1 VALUES (?, ?)",
                   [(w, seq) for seq, _, words in rows for w in dict.fromkeys(words.split())])
    db.execute("CREATE INDEX ix_party_words_r1_word ON party_words_r1 (word, seq)")
    db.commit()
    db.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--module", type=Path, default=Path(__file__).resolve().parents[1] / "store" / "name_index.py")
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("timed_name_index", args.module)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not args.db.exists():
        write_names(args.db)
    with Session(create_engine(f"sqlite:///{args.db}")) as session:
        connection = session.connection()
        for (name, kind) in connection.exec_driver_sql(
                "SELECT name, type FROM sqlite_master WHERE name IN ('party_names_r1', 'ix_parties_r1_words')").all():
            connection.exec_driver_sql(f"DROP {kind.upper()} {name}")
        started = time.perf_counter()
        module.build_name_index(session, 1)
        session.commit()
        print(f"{args.module}: index built in {time.perf_counter() - started:.1f} s; {args.runs} calls each")
        seqs = {"authority": (1, AUTHORITIES), "contractor": (AUTHORITIES + 1, AUTHORITIES + CONTRACTORS)}
        # Every call counted (as a search of words never asked before), and with the total kept
        # (as the next page or search of the same words in the served release), when the module can.
        kept = "loaded" in module.search_positions.__code__.co_varnames
        print(f"{'':10} {'query':10} {'matches':>7}  counted p50 / p99   " + ("kept p50 / p99" if kept else ""))
        for kind, q in QUERIES:
            figures = []
            for loaded in ([None, "once"] if kept else [None]):
                times = []
                for _ in range(args.runs + 3):  # three warm-up calls
                    started = time.perf_counter()
                    extra = {"loaded": loaded} if kept else {}
                    _, total = module.search_positions(session, 1, name_words(q), seqs[kind], after=None, limit=51,
                                                       **extra)
                    times.append((time.perf_counter() - started) * 1000)
                q99 = statistics.quantiles(times[3:], n=100, method="inclusive")
                figures.append(f"{q99[49]:7.2f} / {q99[98]:7.2f}")
            print(f"{kind:10} {q!r:10} {total:7}  " + "   ".join(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
