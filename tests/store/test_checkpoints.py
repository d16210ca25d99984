"""A SQLite store's debits append to the write-ahead log only: copying the log into the database file
is the checkpoint thread's work (store/checkpoints.py), never a paid answer's."""

from __future__ import annotations

import hashlib
import time
from datetime import UTC, datetime
from pathlib import Path

from store import checkpoints
from store.db import create_store_engine, make_session_factory, session_scope
from store.debits import Debits
from store.keys import create_key
from store.schema import upgrade

DEBITS = 2_500  # each commits at least one page: past the 1,000 at which SQLite would checkpoint itself


def store_with_key(path: Path) -> tuple[Debits, int]:
    engine = create_store_engine(f"sqlite:///{path}")
    upgrade(engine)
    with session_scope(make_session_factory(engine)) as session:
        row, _ = create_key(session, apis=["public-procurement"], credits=10 * DEBITS, rate="1000/second",
                            now=datetime.now(UTC))
        key_id = row.id
    return Debits(engine), key_id


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_debits_never_write_the_database_file_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 3600.0)  # the thread sleeps through the test
    debits, key_id = store_with_key(tmp_path / "store.db")
    debits.take(key_id, 1)
    before = digest(tmp_path / "store.db")
    for _ in range(DEBITS):
        debits.take(key_id, 1)
    assert digest(tmp_path / "store.db") == before  # SQLite's own checkpoint would have written it
    debits.close()


def test_the_thread_copies_the_log_into_the_file_and_keeps_it_short(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.05)
    debits, key_id = store_with_key(tmp_path / "store.db")
    debits.take(key_id, 1)
    before = digest(tmp_path / "store.db")
    wal = tmp_path / "store.db-wal"
    largest = 0
    for n in range(DEBITS):
        debits.take(key_id, 1)
        if n % 250 == 0:
            # A pause in the writes, as between a client's requests: a checkpoint that ends while none
            # is written is complete, and the next commit starts the log from its beginning again.
            time.sleep(0.1)
            largest = max(largest, wal.stat().st_size)
    done = debits.checkpointer.done
    deadline = time.monotonic() + 5
    while debits.checkpointer.done < done + 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert debits.checkpointer.done >= done + 2, debits.checkpointer.last_error
    assert digest(tmp_path / "store.db") != before
    # Restarted after each complete checkpoint: far below the DEBITS pages it would hold otherwise.
    assert largest < DEBITS * 4096 // 2
    debits.close()


def test_under_writes_that_never_pause_the_log_stops_at_the_fallback(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 3600.0)
    debits, key_id = store_with_key(tmp_path / "store.db")
    for _ in range(checkpoints.FALLBACK_PAGES + 1_000):
        debits.take(key_id, 1)
    pages = (tmp_path / "store.db-wal").stat().st_size // 4096
    assert pages <= checkpoints.FALLBACK_PAGES * 1.05
    debits.close()
