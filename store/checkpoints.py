"""A SQLite store's write-ahead log copied into its file by a thread of its own, not by whichever
commit crosses SQLite's threshold.

SQLite checkpoints on its own: the commit that takes the log past 1,000 pages copies the log into the
database file and syncs it before it returns (7-15 ms on this project's machine). Almost every commit
the API makes is a paid answer's debit, so about one answer in a thousand paid for that copy, and
under the gevent worker every other request of the worker waited with it, since a call into SQLite
holds the worker's only thread: that was the 2-connection p99 of 13-29 ms against 2-4 ms without it
(docs/benchmarks.md, "Tail latency under the gevent worker"). The debits' connection therefore leaves
checkpoints to a thread that runs a PASSIVE one every CHECKPOINT_SECONDS on a connection of its own:
an OS thread also in a gevent worker, and the sqlite3 module lets go of the interpreter while SQLite
works, so answers go on meanwhile. PASSIVE waits for no reader or writer. A checkpoint that ends
while no commit is being written is complete, and the next commit starts the log from its beginning
again; under writes that never pause, each one leaves the last few commits behind and the log grows
until the debits' connection completes it itself at FALLBACK_PAGES (40 MB): one stall in 10,000
debits instead of one in 1,000, and a log that never grows without bound.
"""

from __future__ import annotations

import os
import sqlite3

from store.native import native

CHECKPOINT_SECONDS = 0.5
# The debits' own threshold, where SQLite's default is 1,000 pages: a safety net only.
FALLBACK_PAGES = 10_000


class Checkpointer:
    """Runs `PRAGMA wal_checkpoint(PASSIVE)` on the database file at `path` every CHECKPOINT_SECONDS,
    from the first `start()` in a process until `stop()` (a forked process starts its own)."""

    def __init__(self, path: str):
        self.path = path
        self.done = 0  # checkpoints run, for tests and for a reader who wonders whether it runs
        self.last_error = ""  # the last one's failure; the next interval tries again
        self._pid = 0
        self._stopped = False

    def start(self) -> None:
        """Start the thread in this process, unless it runs already."""
        if self._pid == os.getpid():
            return
        self._pid, self._stopped = os.getpid(), False
        native("_thread", "start_new_thread")(self._run, (self._pid,))

    def stop(self) -> None:
        """End the thread after its current interval."""
        self._stopped = True

    def _run(self, pid: int) -> None:
        sleep = native("time", "sleep")
        try:
            # Its own connection: a pooled one belongs to the worker's greenlets, and its pool's locks
            # are gevent's, which an OS thread must not take.
            connection = sqlite3.connect(self.path, timeout=1, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            self.last_error = str(error)
            return
        try:
            while not self._stopped and self._pid == pid:
                sleep(CHECKPOINT_SECONDS)
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.done += 1
                except sqlite3.Error as error:  # the file went away, the disk is full: try again later
                    self.last_error = str(error)
        finally:
            connection.close()
