"""Rate limits: every keyed request counted in its key's window before it is answered, the 429 shape and
the limit headers. flask-limiter keeps the sign-up's limits (api/routes/accounts.py)."""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from flask import Flask, Response
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse

from api.context import extension, request_state, this_app, this_request
from api.problems import RateLimited

SHARED_SCOPE = "keyed-api"
UNKEYED_SCOPE = "unkeyed"
CONDITIONAL_SCOPE = "conditional"
# Free 304s a key may have per window, as a multiple of its rate: a client revalidating every page it
# fetched, several times each, stays well inside; a flood of If-None-Match does not (decisions.md).
CONDITIONAL_MULTIPLE = 10
log = logging.getLogger("gosterge.limits")
# Redis down: count in this process meanwhile, and try Redis again after 1, 2, 4 … 32 s (as
# flask-limiter's own fallback does for the sign-up's limits).
MAX_RETRY_SECONDS = 32
# Past this many windows in memory, those that ended are dropped.
SWEEP_WINDOWS = 10_000

# One round trip: add to the window's count, start the window's expiry when it is new, and return
# the count with the milliseconds left. A refund (negative cost) of a window that has ended is dropped.
HIT_SCRIPT = """
local cost = tonumber(ARGV[1])
if cost < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0} end
local count = redis.call('INCRBY', KEYS[1], cost)
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  left = tonumber(ARGV[2])
  redis.call('PEXPIRE', KEYS[1], left)
end
return {count, left}
"""

# The sign-up's limits, through flask-limiter's decorators. When Redis is unreachable the limiter
# falls back to per-process memory and logs a warning rather than failing requests.
limiter = Limiter(
    key_func=lambda: f"addr:{this_request().remote_addr}",
    strategy="fixed-window",
    headers_enabled=False,
    in_memory_fallback_enabled=True,
    swallow_errors=True,
)


class WindowCounter:
    """Fixed windows counted atomically in Redis (one script, one round trip) or in this process's memory."""

    def __init__(self, storage_uri: str):
        self._redis: Any = None
        if storage_uri.startswith(("redis://", "rediss://", "unix://")):
            import redis

            self._errors: tuple[type[Exception], ...] = (redis.RedisError,)
            client = redis.Redis.from_url(storage_uri, socket_connect_timeout=2, socket_timeout=5)
            self._redis = client.register_script(HIT_SCRIPT)
        elif not storage_uri.startswith("memory://"):
            raise ValueError(f"GOSTERGE_RATELIMIT_STORAGE_URI must be memory:// or redis://…, not {storage_uri!r}")
        self._windows: dict[str, list[float]] = {}  # bucket -> [count, end in epoch seconds]
        self._lock = threading.Lock()
        self._failures = 0
        self._retry_at = 0.0

    def hit(self, bucket: str, seconds: int, cost: int = 1) -> tuple[int, float]:
        """Add `cost` to the bucket's current window: the count in it, and when it ends (epoch seconds)."""
        if self._redis is not None and (not self._failures or time.time() >= self._retry_at):
            try:
                count, left_ms = self._redis(keys=[bucket], args=[cost, seconds * 1000])
            except self._errors as error:
                self._failed(error)
            else:
                if self._failures:
                    log.info("Rate limit storage recovered")
                    self._failures = 0
                return int(count), time.time() + int(left_ms) / 1000
        return self._hit_memory(bucket, seconds, cost)

    def _failed(self, error: Exception) -> None:
        if not self._failures:
            log.warning("Rate limit storage unreachable - falling back to in-memory storage (%s)", error)
        self._retry_at = time.time() + min(MAX_RETRY_SECONDS, 2 ** self._failures)
        self._failures += 1

    def _hit_memory(self, bucket: str, seconds: int, cost: int) -> tuple[int, float]:
        now = time.time()
        with self._lock:
            window = self._windows.get(bucket)
            if window is None or window[1] <= now:
                if cost < 0:
                    return 0, now
                if len(self._windows) >= SWEEP_WINDOWS:
                    self._windows = {b: w for b, w in self._windows.items() if w[1] > now}
                window = self._windows[bucket] = [0, now + seconds]
            window[0] += cost
            return int(window[0]), window[1]


@dataclass(frozen=True)
class Window:
    """This request's place in its key's window."""

    bucket: str
    amount: int
    seconds: int
    count: int
    end: float  # epoch seconds

    @property
    def remaining(self) -> int:
        return max(0, self.amount - self.count)


def init_limits(app: Flask) -> None:
    """The counter of keyed requests, and flask-limiter for the sign-up's limits, on the same storage."""
    app.extensions["gosterge.windows"] = WindowCounter(app.config["RATELIMIT_STORAGE_URI"])
    # flask-limiter checks app-wide limits before every request and deducts conditional ones after
    # it; the service declares neither (the sign-up's decorators check their own limits), and the two
    # hooks cost more than the keyed count itself, so they are not registered: init_app registers
    # them only for an app that does not list the limiter among its extensions yet.
    # (flask-limiter's own test of "already set up"; tests/test_library_canaries.py watches it.)
    app.extensions.setdefault("limiter", set()).add(limiter)
    limiter.init_app(app)


@functools.lru_cache(maxsize=256)
def parse_rate(rate: str) -> tuple[int, int]:
    """A rate such as 60/minute as (amount, window in seconds)."""
    item = parse(rate)
    return item.amount, item.get_expiry()


def count_hit(who: str, scope: str, rate: str) -> Window:
    """Count one request of `who` against `rate`, before it is answered: the increment and the
    comparison are one atomic step of the storage, so parallel requests never pass a full limit."""
    return _count(who, scope, *parse_rate(rate))


def _count(who: str, scope: str, amount: int, seconds: int) -> Window:
    bucket = f"LIMITER/{who}/{scope}/{amount}/{seconds}"
    count, end = extension("gosterge.windows").hit(bucket, seconds)
    return Window(bucket, amount, seconds, count, end)


def keyed_limit(view: Callable[..., Response]) -> Callable[..., Response]:
    """The view, after this request has been counted in its key's window: 429 past the key's rate."""

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Response:
        ctx = request_state()
        key = ctx.api_key
        window = ctx.keyed_window = count_hit(f"key:{key.id}", SHARED_SCOPE, key.rate)
        if window.count > window.amount:
            retry_after = max(1, seconds_to_reset(math.ceil(window.end), window.seconds))
            raise RateLimited(f"Rate limit exceeded; retry in {retry_after} s.",
                              headers={"Retry-After": str(retry_after)}, retry_after=retry_after,
                              upgrade_url=this_app().config["UPGRADE_URL"])
        return view(*args, **kwargs)

    return limited


def refund_hit() -> None:
    """Give this request's hit back. decisions.md: polling with If-None-Match is free, so a 304
    answered from the worker's memory is not counted (api/guard.py); one that read the store, or
    answered `If-None-Match: *`, is. Free 304s have a rate of their own, CONDITIONAL_MULTIPLE times
    the key's: past it a 304 keeps its hit, so a flood of them ends in 429 like any other."""
    ctx = request_state()
    window = ctx.get("keyed_window")
    if window is None:
        return
    free = _count(f"key:{ctx.api_key.id}", CONDITIONAL_SCOPE, window.amount * CONDITIONAL_MULTIPLE, window.seconds)
    if free.count > free.amount:
        return
    extension("gosterge.windows").hit(window.bucket, window.seconds, cost=-1)
    ctx.keyed_window = replace(window, count=window.count - 1)


def seconds_to_reset(reset_at: int, window: int) -> int:
    """Whole seconds until the window resets, the one figure behind both `Retry-After` and the
    `RateLimit` field's `t`, capped by the window; computed once per request, so the two headers never
    straddle a second and disagree."""
    ctx = request_state()
    seconds = ctx.get("seconds_to_reset")
    if seconds is None:
        seconds = ctx.seconds_to_reset = min(window, max(0, math.ceil(reset_at - time.time())))
    return seconds


@functools.lru_cache(maxsize=256)
def _policy(amount: int, seconds: int) -> tuple[str, str]:
    return str(amount), f'"default";q={amount};w={seconds}'


def add_limit_headers(response: Response) -> Response:
    """X-RateLimit-* and the IETF draft's RateLimit-Policy / RateLimit on every keyed answer."""
    ctx = request_state()
    window = ctx.get("keyed_window")
    if window is None or ctx.get("api_key") is None:
        return response
    reset_at = math.ceil(window.end)
    remaining = window.remaining
    limit, policy = _policy(window.amount, window.seconds)
    # Added, not set: no answer carries them before this point, and setting searches every header.
    response.headers.extend((
        ("X-RateLimit-Limit", limit), ("X-RateLimit-Remaining", str(remaining)),
        ("X-RateLimit-Reset", str(reset_at)), ("RateLimit-Policy", policy),
        ("RateLimit", f'"default";r={remaining};t={seconds_to_reset(reset_at, window.seconds)}'),
    ))
    return response


def count_unkeyed_request() -> None:
    """A request with no key or an unknown key counts against the default rate of its client address,
    so that guessing keys or polling without one is limited like any keyed client; past it, 429."""
    window = count_hit(f"addr:{this_request().remote_addr or ''}", UNKEYED_SCOPE, this_app().config["DEFAULT_RATE"])
    if window.count > window.amount:
        retry_after = max(1, math.ceil(window.end - time.time()))
        raise RateLimited(f"Too many requests without a valid key from this address; retry in {retry_after} s.",
                          headers={"Retry-After": str(retry_after)}, retry_after=retry_after,
                          upgrade_url=this_app().config["UPGRADE_URL"])


def rate_limited_problem(_exc: RateLimitExceeded) -> RateLimited:
    """The 429 of a sign-up limit (flask-limiter's)."""
    current = limiter.current_limit
    try:
        retry_after = max(1, seconds_to_reset(current.reset_at, current.limit.get_expiry())) if current else 1
    except Exception as error:  # noqa: BLE001  (the storage's client failed: Redis went away meanwhile)
        log.warning("rate-limit window unreadable: storage unreachable (%s)", error)
        retry_after = 1
    return RateLimited(
        f"Rate limit exceeded; retry in {retry_after} s.",
        headers={"Retry-After": str(retry_after)},
        retry_after=retry_after,
        upgrade_url=this_app().config["UPGRADE_URL"],
    )
