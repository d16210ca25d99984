"""Sending the weekly digests of watchlists: plan one per watchlist for the release served, then
claim a few at a time, match each watchlist against the release's new awards (computed once per
release, not once per watchlist) and mail it. Run by a background thread of every API process
(`start_digest_sender`) and by `gosterge digests send`; several at once never send one twice
(store/digests.py claims each with a conditional UPDATE). Every step has its own short
transactions, none open while the mail server answers, and a failure is recorded and retried,
never raised into a load or a request."""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from api.mail import MailError, send
from api.watchmail import LARGEST, UNSUBSCRIBE_PATH, dashboard_link, digest_message
from store.accounts import claim_allowance, return_allowance
from store.awards import has_details
from store.db import WRITES, session_scope
from store.digests import Claimed, claim_digests, due_release_ids, finish_digest, plan_digests, retry_digest
from store.models import Release, Watchlist
from store.releases import get_active_release
from store.watchlists import NewAwardSet, names_of, new_awards, unsubscribe_token, watch_filters

log = logging.getLogger("gosterge.digests")
DIGEST_SCOPE = "digest:"  # digests count against an address's daily cap apart from sign-up mails


@dataclass
class SendRun:
    """What one run did, by the status each digest it handled was left in."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, status: str) -> None:
        self.counts[status] = self.counts.get(status, 0) + 1

    @property
    def handled(self) -> int:
        return sum(self.counts.values())


class NewAwardsCache:
    """The new awards of (release, since), computed once and shared by every digest of the release."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[tuple[int, int | None], NewAwardSet] = {}

    def get(self, session: Session, release: Release, since: Release | None) -> NewAwardSet:
        key = (release.id, since.id if since else None)
        with self._lock:
            if key not in self._found:
                if len(self._found) >= 2:  # a release and the one before it, at most
                    self._found.pop(next(iter(self._found)))
                self._found[key] = NewAwardSet(new_awards(session, release=release, since=since))
            return self._found[key]


CACHE = NewAwardsCache()


def _unavailable(release: Release | None, since: Release | None, since_id: int | None) -> str:
    """Why a digest cannot be told (its release or the one before is gone), or ''."""
    if release is None or release.pruned_at is not None or not has_details(release):
        return "the release's awards are no longer kept"
    if since_id is not None and (since is None or since.pruned_at is not None or not has_details(since)):
        return "the earlier release's awards are no longer kept, so what is new cannot be told"
    return ""


def send_digests(sessions: sessionmaker[Session], config: Mapping[str, Any], *, limit: int = 50,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC), cache: NewAwardsCache = CACHE,
                 pause: float = 0.0) -> SendRun:
    """Plan the digests of the release served, then handle at most `limit` due ones, `pause` seconds
    apart (the API's sender leaves the process and the store to the requests between two)."""
    # What writes takes the write lock at its start on SQLite (BEGIN IMMEDIATE): a read snapshot
    # cannot become a write once another writer has committed. Building a digest only reads, so the
    # anti-join of a national release and each match hold no lock the credit debits wait for.
    writers = functools.partial(sessions, execution_options={WRITES: True})
    run = SendRun()
    if not config["PUBLIC_BASE_URL"]:
        log.warning("digests are not sent: GOSTERGE_PUBLIC_BASE_URL is not set, so their links cannot be built")
        return run
    with session_scope(writers) as session:
        active = get_active_release(session)
        if active is not None:
            plan_digests(session, active.id, now=now())
    with session_scope(sessions) as session:
        releases = due_release_ids(session, now=now())
    for release_id in releases:
        while run.handled < limit:
            with session_scope(writers) as session:
                claimed = claim_digests(session, release_id, now=now(), limit=min(10, limit - run.handled))
            if not claimed:
                break
            for digest in claimed:
                run.add(_send_one(sessions, writers, config, digest, now, cache))
                time.sleep(pause)
    return run


def _send_one(readers: Callable[[], Session], writers: Callable[[], Session], config: Mapping[str, Any],
              digest: Claimed, now: Callable[[], datetime], cache: NewAwardsCache) -> str:
    """Build (reading only) and send one claimed digest; the status it is left in."""
    with session_scope(readers) as session:
        status, message, address, count = _build(session, config, digest, cache)
    with session_scope(writers) as session:
        if message is not None and claim_allowance(session, address, now=now(), window=timedelta(days=1),
                                                   cap=config["DIGESTS_PER_ADDRESS_PER_DAY"],
                                                   scope=DIGEST_SCOPE) is not None:
            status, message, address = "capped", None, "the address has had its digests for today"
        if message is None:
            finish_digest(session, digest.id, status, now=now(), error=address, matches=count)
            return status
    try:
        send(message, config["SMTP_URL"])
    except MailError as error:
        with session_scope(writers) as session:
            return_allowance(session, address, scope=DIGEST_SCOPE)
            left = retry_digest(session, digest, str(error), now=now())
        log.warning("digest %s not sent (attempt %d): %s", digest.id, digest.attempts, error)
        return left
    with session_scope(writers) as session:
        finish_digest(session, digest.id, "sent", now=now(), matches=count)
    return "sent"


def _build(session: Session, config: Mapping[str, Any], digest: Claimed,
           cache: NewAwardsCache) -> tuple[str, Any, str, int]:
    """(status, message, address, matches): a message to send, or none and the final status with its
    reason in place of the address."""
    watchlist = session.get(Watchlist, digest.watchlist_seq)
    if watchlist is None or watchlist.notify is None or not watchlist.confirmed or watchlist.unsubscribed:
        return "skipped", None, "the address is unconfirmed or unsubscribed", 0
    release = session.get(Release, digest.release_id)
    since = session.get(Release, digest.since_release_id) if digest.since_release_id is not None else None
    reason = _unavailable(release, since, digest.since_release_id)
    if reason or release is None:
        return "skipped", None, reason, 0
    filters = json.loads(watchlist.filters)
    matched = cache.get(session, release, since).matching(watch_filters(filters))
    if not matched:
        return "empty", None, "", 0
    base = str(config["PUBLIC_BASE_URL"]).rstrip("/")
    message = digest_message(
        sender=config["MAIL_FROM"], to=watchlist.notify, name=watchlist.name, release=release.name,
        since=since.name if since else None, matched=matched, names=names_of(session, release, matched[:LARGEST]),
        dashboard_url=dashboard_link(config["DASHBOARD_URL"], filters),
        unsubscribe_url=f"{base}{UNSUBSCRIBE_PATH}?token={unsubscribe_token(session, watchlist.id)}")
    return "sending", message, watchlist.notify, len(matched)


def send_all_digests(sessions: sessionmaker[Session], config: Mapping[str, Any], *,
                     now: Callable[[], datetime] = lambda: datetime.now(UTC), pause: float = 0.0) -> SendRun:
    """Every due digest, a batch at a time (the CLI's `gosterge digests send`, and the API's sender
    with a `pause` between two)."""
    total = SendRun()
    while True:
        run = send_digests(sessions, config, limit=100, now=now, pause=pause)
        for status, count in run.counts.items():
            total.counts[status] = total.counts.get(status, 0) + count
        if run.handled == 0:
            return total


class DigestSender(threading.Thread):
    """A daemon thread of the API process sending due digests every `interval` seconds, a bounded
    batch at a time; it logs and carries on past any failure, until `stop`."""

    def __init__(self, sessions: sessionmaker[Session], config: Mapping[str, Any], interval: float):
        super().__init__(name="digest-sender", daemon=True)
        self.sessions, self.config, self.interval = sessions, config, interval
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                pause = self.config["DIGEST_PAUSE_MS"] / 1000
                while not self.stopped.is_set() and send_digests(self.sessions, self.config, limit=20,
                                                                 pause=pause).handled:
                    pass
            except Exception:  # noqa: BLE001  (the next round tries again; nothing here may stop the API)
                log.exception("sending digests failed; trying again in %s s", self.interval)

    def stop(self) -> None:
        self.stopped.set()
        self.join()


def start_digest_sender(sessions: sessionmaker[Session], config: Mapping[str, Any]) -> DigestSender | None:
    """The API process's sender, every DIGEST_SENDER_SECONDS (0: none; `gosterge digests send` then)."""
    interval = int(config["DIGEST_SENDER_SECONDS"])
    if interval <= 0:
        return None
    if not config["PUBLIC_BASE_URL"]:
        log.warning("watchlist digests are not sent: set GOSTERGE_PUBLIC_BASE_URL for their links")
        return None
    sender = DigestSender(sessions, config, interval)
    sender.start()
    return sender
