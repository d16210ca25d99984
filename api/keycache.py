"""Keys and the data versions known in this worker's memory, so that a request reads neither.

What a worker read of a key (scopes, rate, credits, expiry, revocation) and of the data versions (the
active release, the news version) is trusted for KEY_CACHE_MS, then read again, with the key in one
statement. A key revoked or topped up anywhere (another worker, another host, the CLI) is therefore
seen by every worker within that time, which the configuration keeps under one second. Credits are
not trusted from here: the debit is one conditional UPDATE in the store, so a key never gets more
paid answers than it holds, whatever a worker remembers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import Connection, Engine

from api.context import extension
from store.db import single_statements
from store.errors import StoreUnavailableError
from store.keys import Caller, KeyState, Versions, hash_key, read_key, read_versions

T = TypeVar("T")
# Past this many keys in memory the worker starts again from none, rather than grow without bound.
MAX_KEYS = 100_000


class _Entry:
    """One key as read, when, and the Caller built from it for the versions of `generation`."""

    __slots__ = ("read_at", "state", "caller", "generation")

    def __init__(self, read_at: float, state: KeyState, caller: Caller, generation: int):
        self.read_at, self.state, self.caller, self.generation = read_at, state, caller, generation


class CallerCache:
    """Key rows by hash and the data versions, each with the moment it was read."""

    def __init__(self, engine: Engine, *, trust_seconds: float):
        self._engine = engine
        self.trust_seconds = trust_seconds
        self._keys: dict[str, _Entry] = {}
        self._digests: dict[int, str] = {}  # key id -> hash, for the credits a debit left
        # The versions last read, with their generation, which moves on whenever the versions read
        # differ from those before: an answer computed while it moved may belong to either version,
        # and is not remembered (api/answers.py). One tuple, replaced whole, so the two always agree.
        self._seen = (Versions(None, 0), 0)
        self._versions_read_at = float("-inf")

    def caller(self, key: str) -> tuple[Caller | None, int]:
        """The key presented with the data versions (None for an unknown key), and their generation."""
        digest = hash_key(key)
        now = time.monotonic()
        entry = self._keys.get(digest)
        if entry is not None and now - entry.read_at < self.trust_seconds:
            versions, generation = self.versions(now)
            if entry.generation != generation:  # built once per key and versions, not per request
                entry.caller, entry.generation = Caller.of(entry.state, versions), generation
            return entry.caller, generation
        state, versions = self._read(lambda connection: read_key(connection, digest))
        generation = self._note_versions(versions, now)
        if state is None:
            self._keys.pop(digest, None)
            return None, generation
        if len(self._keys) >= MAX_KEYS:
            self.forget()
        entry = self._keys[digest] = _Entry(now, state, Caller.of(state, versions), generation)
        self._digests[state.id] = digest
        return entry.caller, generation

    def versions(self, now: float | None = None) -> tuple[Versions, int]:
        """The data versions, read again once they are older than the trust time, and their generation."""
        now = time.monotonic() if now is None else now
        if now - self._versions_read_at >= self.trust_seconds:
            self._note_versions(self._read(read_versions), now)
        return self._seen

    def check_versions(self) -> int:
        """Read the data versions now; their generation."""
        return self._note_versions(self._read(read_versions), time.monotonic())

    def note_credits(self, key_id: int, credits: int) -> None:
        """The credits a debit left: what this worker shows until it reads the key again."""
        digest = self._digests.get(key_id)
        entry = self._keys.get(digest) if digest is not None else None
        if entry is not None and entry.state.credits != credits:
            # Every paid answer changes the credits: the Caller is made again here, once, and also
            # stands for the key row (a Caller is a KeyState) when the versions move on.
            c = entry.caller
            entry.state = entry.caller = Caller(c.id, c.apis, c.rate, credits, c.is_admin, c.expires_at, c.revoked,
                                                c.release_id, c.news_version)

    def forget(self) -> None:
        """Read every key and the versions again: this worker has just changed some."""
        self._keys.clear()
        self._digests.clear()
        self._versions_read_at = float("-inf")

    @property
    def generation(self) -> int:
        return self._seen[1]

    def _note_versions(self, versions: Versions, read_at: float) -> int:
        seen, generation = self._seen
        if versions != seen:
            generation += 1
            self._seen = (versions, generation)
        self._versions_read_at = max(self._versions_read_at, read_at)
        return generation

    def _read(self, statement: Callable[[Connection], T]) -> T:
        """Run a read; once more when the pooled connection had died (the database restarted)."""
        try:
            with single_statements(self._engine) as connection:
                return statement(connection)
        except StoreUnavailableError as error:
            if not getattr(error, "connection_lost", False):
                raise
        with single_statements(self._engine) as connection:
            return statement(connection)


def callers() -> CallerCache:
    return extension("gosterge.callers")
