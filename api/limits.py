"""Rate limiting with flask-limiter: per-key limits from the key's plan, 429 shape and limit headers."""

from __future__ import annotations

import logging
import math
import time

from flask import Response, current_app, g, request
from flask_limiter import Limiter, RateLimitExceeded, RequestLimit
from limits import parse

from api.problems import RateLimited

SHARED_SCOPE = "keyed-api"
log = logging.getLogger("gosterge.limits")


def limit_key() -> str:
    """One bucket per API key; the client address where no key has been identified."""
    key = g.get("api_key")
    return f"key:{key.id}" if key is not None else f"addr:{request.remote_addr}"


def key_rate() -> str:
    key = g.get("api_key")
    return key.rate if key is not None else current_app.config["DEFAULT_RATE"]


# Storage is chosen in init_app from RATELIMIT_STORAGE_URI. When Redis is unreachable the limiter
# falls back to per-process memory and logs a warning rather than failing requests.
limiter = Limiter(
    key_func=limit_key,
    strategy="fixed-window",
    headers_enabled=False,
    in_memory_fallback_enabled=True,
    swallow_errors=True,
)

# Every request is counted before it is answered, in one atomic step of the storage (increment, then
# compare), so that parallel requests never pass a full limit; a 304 that turns out free gives its
# hit back (`refund_hit`).
keyed_limit = limiter.shared_limit(key_rate, scope=SHARED_SCOPE)


def refund_hit() -> None:
    """Give this request's hit back. decisions.md: polling with If-None-Match is free, so a 304
    answered from the worker's memory is not counted (api/guard.py); one that read the store, or
    answered `If-None-Match: *`, is."""
    current = limiter.current_limit
    if current is None:
        return
    storage = limiter.storage
    try:
        if hasattr(storage, "decr"):  # memory: never below 0
            storage.decr(current.key)
        else:  # Redis: INCRBY -1 on the same key, as atomic as the count
            storage.incr(current.key, current.limit.get_expiry(), amount=-1)
    except Exception as error:  # noqa: BLE001  (storage unreachable: the hit stays counted)
        log.warning("rate-limit hit not refunded: storage unreachable (%s)", error)


def _window(current: RequestLimit) -> tuple[int, int] | None:
    """Remaining hits and the window's end (epoch seconds), or None when the storage cannot be read.

    Redis may go away after this request was counted; flask-limiter falls back to memory on the next
    one, so this answer goes out without the figures rather than as a 500."""
    try:
        return max(0, current.remaining), int(current.reset_at)
    except Exception as error:  # noqa: BLE001  (whatever the storage's client raises)
        log.warning("rate-limit window unreadable: storage unreachable (%s)", error)
        return None


def seconds_to_reset(reset_at: int, window: int) -> int:
    """Whole seconds until the window resets, the one figure behind both `Retry-After` and the
    `RateLimit` field's `t`. flask-limiter rounds the reset up to the next whole second, so it is
    capped by the window; it is computed once per request, so the two headers never straddle a
    second and disagree."""
    if "seconds_to_reset" not in g:
        g.seconds_to_reset = min(window, max(0, math.ceil(reset_at - time.time())))
    return g.seconds_to_reset


def add_limit_headers(response: Response) -> Response:
    """X-RateLimit-* and the IETF draft's RateLimit-Policy / RateLimit on every keyed answer."""
    current = limiter.current_limit
    if current is None or g.get("api_key") is None:
        return response
    state = _window(current)
    if state is None:
        return response
    remaining, reset_at = state
    amount = current.limit.amount
    window = current.limit.get_expiry()
    seconds_left = seconds_to_reset(reset_at, window)
    response.headers["X-RateLimit-Limit"] = str(amount)
    response.headers["X-RateLimit-Remaining"] = str(remaining)
    response.headers["X-RateLimit-Reset"] = str(reset_at)
    response.headers["RateLimit-Policy"] = f'"default";q={amount};w={window}'
    response.headers["RateLimit"] = f'"default";r={remaining};t={seconds_left}'
    return response


UNKEYED_SCOPE = "unkeyed"


def count_unkeyed_request() -> None:
    """A request with no key or an unknown key counts against the default rate of its client address,
    so that guessing keys or polling without one is limited like any keyed client; past it, 429."""
    rate = parse(current_app.config["DEFAULT_RATE"])
    address = request.remote_addr or ""
    try:
        allowed = limiter.limiter.hit(rate, UNKEYED_SCOPE, address)
        reset_at = limiter.limiter.get_window_stats(rate, UNKEYED_SCOPE, address).reset_time
    except Exception as error:  # noqa: BLE001  (storage unreachable: fail open, as the keyed limits do)
        log.warning("unkeyed request not counted: storage unreachable (%s)", error)
        return
    if not allowed:
        retry_after = max(1, math.ceil(reset_at - time.time()))
        raise RateLimited(f"Too many requests without a valid key from this address; retry in {retry_after} s.",
                          headers={"Retry-After": str(retry_after)}, retry_after=retry_after,
                          upgrade_url=current_app.config["UPGRADE_URL"])


def rate_limited_problem(_exc: RateLimitExceeded) -> RateLimited:
    current = limiter.current_limit
    state = _window(current) if current is not None else None
    if state is not None:
        retry_after = max(1, seconds_to_reset(state[1], current.limit.get_expiry()))
    else:
        retry_after = 1
    return RateLimited(
        f"Rate limit exceeded; retry in {retry_after} s.",
        headers={"Retry-After": str(retry_after)},
        retry_after=retry_after,
        upgrade_url=current_app.config["UPGRADE_URL"],
    )
