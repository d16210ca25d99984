"""Answers remembered per data version: a statistics page or an article list is a pure function of the
data version, the path and the query, so a repeated question is answered without asking the store.
The calling key, its credits and its rate limit are still checked and debited on every request."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from api.context import request_state, this_app, this_request
from api.keycache import callers


@dataclass(frozen=True)
class Answer:
    body: bytes  # as sent: encoded once, not again for every answer
    etag: str
    page: tuple[int, str | None] | None = None  # a paged answer's total and next cursor


class AnswerCache:
    """A bounded, thread-safe map from (operation, data version, request target) to an answer; the least
    recently used leave first once `max_bytes` of bodies are held."""

    def __init__(self, max_bytes: int):
        self._entries: OrderedDict[tuple[str, str, str], Answer] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.max_bytes = max_bytes

    def get(self, key: tuple[str, str, str]) -> Answer | None:
        # Without the lock: the look-up and the move are each one step of the C OrderedDict, and an
        # entry dropped by another thread in between only misses its move (a worker answers most
        # requests from here; the lock is a gevent lock in a worker, a cost on every one).
        answer = self._entries.get(key)
        if answer is not None:
            try:
                self._entries.move_to_end(key)
            except KeyError:
                pass
        return answer

    def put(self, key: tuple[str, str, str], answer: Answer) -> None:
        size = len(answer.body)
        if size > self.max_bytes // 8:
            return  # one huge page would push out everything else
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= len(previous.body)
            self._entries[key] = answer
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped.body)

    def __len__(self) -> int:
        return len(self._entries)


def answers() -> AnswerCache | None:
    return this_app().extensions.get("gosterge.answers")


def request_target() -> str:
    """Path and query string without the key, so that every key shares one entry per question."""
    req = this_request()
    query = req.environ.get("QUERY_STRING", "")
    if "apikey=" in query or "&&" in query or query.startswith("&") or query.endswith("&"):
        query = "&".join(part for part in query.split("&") if part and not part.startswith("apikey="))
    return f"{req.path}?{query}"


def compute_answer(cache_key: tuple[str, str, str] | None, compute: Callable[[], Answer]) -> Answer:
    """A missing answer, computed and remembered under `cache_key`. The key names the data versions
    this worker knew when the request came (api/keycache.py); they are read again first, and the
    answer is remembered only if they have not moved meanwhile, so an entry never holds data of
    another version than its key says, however recently a release was switched."""
    if cache_key is None:
        return compute()
    versions, generation = callers(), request_state().versions_generation
    current = versions.check_versions() == generation
    answer = compute()
    cache = answers()
    if cache is not None and current and versions.generation == generation:
        cache.put(cache_key, answer)
    return answer
