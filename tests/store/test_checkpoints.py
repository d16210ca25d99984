"""A SQLite store's debits append to the write-ahead log only: copying the log into the database file
is the checkpoint thread's work (store/checkpoints.py), never a paid answer's, and the log stays short
also under debits that never pause."""

from __future__ import annotations

import gc
import hashlib
import os
import sqlite3
import time
import weakref
from datetime import UTC, datetime
from pathlib import Path

import pytest

from store import checkpoints
from store.db import create_store_engine, make_session_factory, session_scope
from store.debits import Debits
from store.keys import create_key
from store.schema import upgrade

DEBITS = 2_500  # each commits at least one page: past the 1,000 at which SQLite would checkpoint itself
PAGE = 4096


def store_with_key(path: Path, credits: int = 10 * DEBITS) -> tuple[Debits, int]:
    engine = create_store_engine(f"sqlite:///{path}")
    upgrade(engine)
    with session_scope(make_session_factory(engine)) as session:
        row, _ = create_key(session, apis=["public-procurement"], credits=credits, rate="1000/second",
                            now=datetime.now(UTC))
        key_id = row.id
    return Debits(engine), key_id


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wait_for(condition, seconds: float = 10) -> bool:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_debits_never_write_the_database_file_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 3600.0)  # the thread sleeps through the test
    debits, key_id = store_with_key(tmp_path / "store.db")
    debits.take(key_id, 1)
    before = digest(tmp_path / "store.db")
    for _ in range(DEBITS):
        debits.take(key_id, 1)
    assert digest(tmp_path / "store.db") == before  # SQLite's own checkpoint would have written it
    debits.close()


def test_without_its_thread_the_debits_keep_sqlites_own_checkpoints(tmp_path):
    """A thread that cannot open the file would leave the log to grow for ever: the debits then checkpoint."""
    debits, key_id = store_with_key(tmp_path / "store.db")
    debits.checkpointer.path = str(tmp_path / "gone" / "store.db")  # a folder that is not there
    debits.take(key_id, 1)
    before = digest(tmp_path / "store.db")
    for _ in range(DEBITS):
        debits.take(key_id, 1)
    assert debits.checkpointer.last_error == "unable to open database file"
    assert digest(tmp_path / "store.db") != before  # SQLite's own checkpoint wrote it
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
            time.sleep(0.1)  # a pause in the writes, as between a client's requests
            largest = max(largest, wal.stat().st_size)
    assert wait_for(lambda: debits.checkpointer.done >= 2), debits.checkpointer.last_error
    assert digest(tmp_path / "store.db") != before
    # Started again after each complete checkpoint: far below the DEBITS pages it would hold otherwise.
    assert largest < DEBITS * PAGE // 2
    debits.close()


def test_under_debits_that_never_pause_the_log_stays_short(tmp_path, monkeypatch):
    """A PASSIVE checkpoint copies what was there when it began; commits made meanwhile keep the log
    from starting again, so a thread of PASSIVE checkpoints alone let it grow by a page a debit."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.01)
    monkeypatch.setattr(checkpoints, "FULL_PAGES", 500)
    debits, key_id = store_with_key(tmp_path / "store.db", credits=100 * DEBITS)
    wal = tmp_path / "store.db-wal"
    largest = 0
    for n in range(10 * DEBITS):
        debits.take(key_id, 1)
        if n % 100 == 0:
            largest = max(largest, wal.stat().st_size)
    assert debits.checkpointer.full > 0, debits.checkpointer.last_error
    # A page a debit without the FULL checkpoints (25,000); here a fraction of it, started again often.
    assert largest < 10 * DEBITS // 3 * PAGE, largest // PAGE
    debits.close()


def test_a_reader_on_an_older_snapshot_never_keeps_the_debits_out(tmp_path, monkeypatch):
    """A FULL checkpoint would hold the write lock until that reader ends; the thread waits instead."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.01)
    monkeypatch.setattr(checkpoints, "FULL_PAGES", 200)
    debits, key_id = store_with_key(tmp_path / "store.db")
    debits.take(key_id, 1)
    reader = sqlite3.connect(tmp_path / "store.db", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM api_keys").fetchone()  # holds its snapshot until COMMIT
    for _ in range(DEBITS):
        debits.take(key_id, 1)
    # Intervals counted rather than time waited: several ran with the log past FULL_PAGES meanwhile.
    ran = debits.checkpointer.done
    assert wait_for(lambda: debits.checkpointer.done >= ran + 5), debits.checkpointer.last_error
    assert debits.checkpointer.done > 0 and debits.checkpointer.full == 0
    reader.execute("COMMIT")
    reader.close()
    assert wait_for(lambda: debits.checkpointer.done > 0), debits.checkpointer.last_error
    debits.close()


def open_files(path: Path) -> int:
    """Descriptors of this process open on `path`: the thread's connection holds one until it ends."""
    folder = Path("/proc/self/fd")
    return sum(1 for fd in folder.iterdir() if os.path.realpath(fd) == str(path))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads /proc/self/fd")
def test_the_thread_ends_with_its_store(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "CHECKPOINT_SECONDS", 0.01)
    path = tmp_path / "store.db"

    def debit_once() -> weakref.ref:
        debits, key_id = store_with_key(path)
        debits.take(key_id, 1)  # starts the thread
        assert wait_for(lambda: debits.checkpointer.done > 0)
        return weakref.ref(debits.checkpointer)

    checkpointer = debit_once()
    gc.collect()
    assert checkpointer() is None
    assert wait_for(lambda: open_files(path) == 0), open_files(path)
