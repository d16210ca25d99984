"""A SQLite store's write-ahead log copied into its file by a thread of its own, never by a debit.

SQLite checkpoints on its own: the commit that takes the log past 1,000 pages copies the log into the
database file and syncs it before it returns (2.4 ms on a quiet machine here, 7-15 ms on a busy one,
nearly all of it the log's `fdatasync`). Almost every commit the API makes is a paid answer's debit,
and a call into SQLite holds the gevent worker's only thread, so every 1,000 or so debits each of the
worker's connections waited for that copy: the stalls that set wrk's two-connection p99
(docs/benchmarks.md, "The two-connection tail found"). The debits' connection therefore never
checkpoints (`wal_autocheckpoint=0`), and a thread of the process runs the checkpoints on a connection
of its own: an OS thread also in a gevent worker, and the sqlite3 module lets go of the interpreter
while SQLite works, so answers go on meanwhile.

Every CHECKPOINT_SECONDS the thread runs two PASSIVE checkpoints, which wait for no reader or writer:
the first copies the interval's commits, the second the few made meanwhile. Once a checkpoint has
copied the whole log, the next commit starts it from its beginning again; that happens whenever the
debits pause for a moment. Under debits that never pause, a few commits land during every checkpoint
and the log only grows; once it holds FULL_PAGES the thread runs a FULL checkpoint, which keeps new
writers out while it copies the pages written since the second PASSIVE one and syncs (a debit waits
that long, once in thousands), so the log starts again and never grows without bound. It runs only
when the second PASSIVE checkpoint copied everything the first one saw: otherwise a reader on an
older snapshot holds the log back, a FULL checkpoint would keep the writers out until that reader
ends, and the log waits for the reader as it would with SQLite's own checkpoints.
Other connections (a release load's, an admin's) keep SQLite's own threshold: their commits are few
and they are not the worker's.
"""

from __future__ import annotations

import os
import sqlite3
import weakref

from store.native import native

CHECKPOINT_SECONDS = 0.25
# The log's length (pages) past which the thread keeps writers out for a moment to finish it: 64 MB,
# four to five seconds of debits at the most one worker answers here. The debit that finds the lock
# taken sleeps in SQLite's busy handler, 1 ms and then 2 ms (3 ms seen by wrk's two connections), so
# this sets how often that happens under debits that never pause.
FULL_PAGES = 16_000
# How long the FULL checkpoint waits for a writer to finish before it tries again next interval.
FULL_WAIT_MS = 20


class Checkpointer:
    """Checkpoints the database file at `path` every CHECKPOINT_SECONDS, from the first `start()` in a
    process until `stop()` (a forked process starts its own)."""

    def __init__(self, path: str):
        self.path = path
        self.done = 0  # intervals whose checkpoints ran, for tests and for a reader who wonders
        self.full = 0  # FULL checkpoints run
        self.last_error = ""  # the last one's failure; the next interval tries again
        self._pid = 0
        self._run: object | None = None  # the running thread's token, None once stopped

    def start(self) -> bool:
        """Start the thread in this process, unless it runs already; False when it cannot open the
        file, and then the caller keeps SQLite's own checkpoints."""
        if self._run is not None and self._pid == os.getpid():
            return True
        try:
            # Its own connection, opened here so that a failure is known at once: a pooled one belongs
            # to the worker's greenlets, and its pool's locks are gevent's, which an OS thread must not take.
            connection = sqlite3.connect(self.path, timeout=FULL_WAIT_MS / 1000, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as error:
            self.last_error = str(error)
            return False
        self._pid, self._run = os.getpid(), object()
        # The thread holds the checkpointer weakly: one whose store is gone (an app that was dropped,
        # as tests do by the hundred) ends its thread at the next interval.
        native("_thread", "start_new_thread")(_run, (weakref.ref(self), connection, self._run))
        return True

    def stop(self) -> None:
        """End the thread after its current interval."""
        self._run = None

    def wants(self, run: object) -> bool:
        """Whether the thread of token `run` is still wanted: not once stopped or started again."""
        return self._run is run

    def checkpoint(self, connection: sqlite3.Connection) -> None:
        """One interval's checkpoints: two PASSIVE ones, then a FULL one when the log grew long."""
        _, seen, _ = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
        _, log, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
        # The second copied what the first saw: what is left was written since, and no reader on an
        # older snapshot holds the log back (a FULL checkpoint would keep the writers out until it ends).
        if log >= FULL_PAGES and copied >= seen:
            busy, _, _ = connection.execute("PRAGMA wal_checkpoint(FULL)").fetchall()[0]
            self.full += not busy
        self.done += 1


def _run(checkpointer: weakref.ref[Checkpointer], connection: sqlite3.Connection, run: object) -> None:
    sleep = native("time", "sleep")
    try:
        while True:
            sleep(CHECKPOINT_SECONDS)
            owner = checkpointer()
            if owner is None or not owner.wants(run):
                return
            try:
                owner.checkpoint(connection)
            except Exception as error:  # noqa: BLE001  (a full disk, a file gone: try again next interval)
                owner.last_error = str(error) or type(error).__name__
            del owner
    finally:
        connection.close()
