"""Under gunicorn, watchlist digests are sent by a process of their own that the master starts and
keeps running, not by a thread of each worker.

A gevent worker runs one greenlet at a time and a database call never gives way: the release's
anti-join a digest run starts with (24 s on a national release, docs/benchmarks.md) would hold every
connection of the worker for as long, and the statement time-out of the API's store would stop it
before it ends. The sender process has a store of its own without that time-out, and several hosts
each running one never send a digest twice (claims, store/digests.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

from api.config import load_config

SENDER_SECONDS = "GOSTERGE_DIGEST_SENDER_SECONDS"
# A sender that died is started again after this long, so that one failing at start does not spin.
RESTART_SECONDS = 10


class DigestProcess:
    """`gosterge digests send --every N`, started again when it ends until `stop`."""

    def __init__(self, interval: int, log: Any):
        self.interval, self.log = interval, log
        self.stopped = threading.Event()
        self.process: subprocess.Popen[bytes] | None = None
        self.watcher = threading.Thread(target=self._keep_running, name="digest-process", daemon=True)

    def start(self) -> None:
        self.watcher.start()

    def _keep_running(self) -> None:
        while not self.stopped.is_set():
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli", "digests", "send", "--every", str(self.interval)],
                stdin=subprocess.DEVNULL)
            code = self.process.wait()
            if not self.stopped.is_set():
                self.log.error("the digest sender ended (exit %s); starting it again in %s s", code, RESTART_SECONDS)
                self.stopped.wait(RESTART_SECONDS)

    def stop(self) -> None:
        self.stopped.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start_digest_process(arbiter: Any) -> DigestProcess | None:
    """gunicorn's `when_ready` hook (the master, before any worker is forked): start the sender, and
    switch the workers' own off (they inherit the environment)."""
    config = load_config()
    interval = int(config["DIGEST_SENDER_SECONDS"])
    os.environ[SENDER_SECONDS] = "0"
    if interval <= 0:
        return None
    if not config["PUBLIC_BASE_URL"]:
        arbiter.log.warning("watchlist digests are not sent: set GOSTERGE_PUBLIC_BASE_URL for their links")
        return None
    sender = DigestProcess(interval, arbiter.log)
    sender.start()
    arbiter.digest_process = sender
    return sender


def stop_digest_process(arbiter: Any) -> None:
    """gunicorn's `on_exit` hook."""
    sender = getattr(arbiter, "digest_process", None)
    if sender is not None:
        sender.stop()
