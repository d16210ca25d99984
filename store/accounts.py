"""Self-registration requests: created with two secret tokens, decided once by the mailbox owner,
and turned into a key exactly once when polled."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, delete, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from store.errors import NotFoundError, StoreError
from store.keys import create_key, hash_key
from store.models import AccountRequest, SignupAllowance
from store.times import as_utc

TOKEN_BYTES = 32  # 256 bits, well past the 128 asked for


class GoneError(StoreError):
    """The request was refused, has expired, or its key was already handed out."""


class DecisionError(StoreError):
    """The request was already decided."""


@dataclass(frozen=True)
class NewRequest:
    row: AccountRequest
    decision_token: str
    poll_token: str


def create_request(session: Session, *, email: str, apis: list[str], now: datetime, lifetime: timedelta,
                   client_address: str) -> NewRequest:
    decision, poll = secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(TOKEN_BYTES)
    row = AccountRequest(id=secrets.token_urlsafe(12), email=email, apis=",".join(apis), status="pending",
                         created_at=now, expires_at=now + lifetime, decision_token_hash=hash_key(decision),
                         poll_token_hash=hash_key(poll), client_address=client_address[:64])
    session.add(row)
    session.flush()
    return NewRequest(row, decision, poll)


# Providers known to ignore dots before the @ (and the second name of the same mailboxes).
DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox(address: str) -> str:
    """The mailbox an address reaches, as the daily allowance counts it: without regard to case,
    without a `+tag` (which reaches the same mailbox at nearly every provider), and without dots
    where the provider ignores them (DOTLESS_DOMAINS)."""
    local, _, domain = address.lower().rpartition("@")
    local = local.split("+", 1)[0] or local
    if domain in DOTLESS_DOMAINS:
        local, domain = local.replace(".", "") or local, DOTLESS_DOMAINS[domain]
    return f"{local}@{domain}"


def claim_allowance(session: Session, address: str, *, now: datetime, cap: int, window: timedelta,
                    scope: str = "") -> datetime | None:
    """Take one of the `cap` mails `address` may get per window; None when taken, else when the
    window ends. A `scope` counts another kind of mail (digests) apart from the sign-up's. One conditional UPDATE decides, so parallel requests never take more than the cap
    (PostgreSQL re-checks the condition on the locked row; SQLite runs one writer at a time)."""
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    key = (scope + mailbox(address))[:254]
    session.execute(insert(SignupAllowance).values(address=key, window_start=now, used=0)
                    .on_conflict_do_nothing(index_elements=["address"]))
    expired = SignupAllowance.window_start <= now - window
    taken = session.execute(
        update(SignupAllowance)
        .where(SignupAllowance.address == key, or_(expired, SignupAllowance.used < cap))
        .values(used=case((expired, 1), else_=SignupAllowance.used + 1),
                window_start=case((expired, now), else_=SignupAllowance.window_start))
        .execution_options(synchronize_session=False))
    if taken.rowcount == 1:
        return None
    started = session.scalar(select(SignupAllowance.window_start).where(SignupAllowance.address == key))
    return as_utc(started) + window


def withdraw_request(session: Session, request_id: str) -> None:
    """Remove a request whose approval mail could not be sent: nobody can decide it."""
    session.execute(delete(AccountRequest).where(AccountRequest.id == request_id))


def return_allowance(session: Session, address: str, *, scope: str = "") -> None:
    """Give back a mail that could not be sent, so that it does not count against the address."""
    key = (scope + mailbox(address))[:254]
    session.execute(update(SignupAllowance).where(SignupAllowance.address == key, SignupAllowance.used > 0)
                    .values(used=SignupAllowance.used - 1).execution_options(synchronize_session=False))


def _get(session: Session, request_id: str) -> AccountRequest:
    row = session.get(AccountRequest, request_id)
    if row is None:
        raise NotFoundError("no such request")
    return row


def _matches(token: str, stored: str | None) -> bool:
    # Compare digests in constant time, so that response timing says nothing about a guess.
    return stored is not None and hmac.compare_digest(hash_key(token), stored)


def check_decision_token(session: Session, request_id: str, token: str, *, now: datetime) -> AccountRequest:
    """The pending request the decision link is for; NotFoundError for a wrong id or token."""
    row = _get(session, request_id)
    if not _matches(token, row.decision_token_hash):
        raise NotFoundError("no such request")
    if row.status != "pending":
        raise DecisionError(f"the request was already {row.status}")
    if as_utc(row.expires_at) <= now:
        raise GoneError("the request has expired")
    return row


def decide(session: Session, request_id: str, token: str, *, approve: bool, now: datetime) -> AccountRequest:
    """Approve or refuse once. The token is kept, so that the link opened again is recognised and
    answered "already decided" (409) rather than "not found"; the status no longer allows a decision.
    One conditional UPDATE claims the decision, so of several at once exactly one wins (PostgreSQL
    re-checks the status on the locked row) and the others get DecisionError."""
    row = check_decision_token(session, request_id, token, now=now)
    status = "approved" if approve else "refused"
    claimed = session.execute(update(AccountRequest).where(AccountRequest.id == row.id,
                                                           AccountRequest.status == "pending")
                              .values(status=status, decided_at=now).execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        raise DecisionError("the request was already decided")
    session.refresh(row)
    return row


def poll(session: Session, request_id: str, token: str, *, now: datetime, key_lifetime: timedelta, credits: int,
         rate: str, deliver: bool = True) -> tuple[AccountRequest, str | None]:
    """(request, key): the key exactly once after approval; GoneError after that, on refusal or expiry.
    With `deliver` false (a HEAD) nothing changes and no key is made."""
    row = _get(session, request_id)
    if not _matches(token, row.poll_token_hash):
        raise NotFoundError("no such request")
    if row.status in ("refused", "delivered"):
        raise GoneError(f"the request was {row.status}")
    if row.status == "pending":
        if as_utc(row.expires_at) <= now:
            raise GoneError("the request expired before it was approved")
        return row, None
    if not deliver:
        return row, None
    # One conditional UPDATE claims the delivery, so two polls at once cannot both receive a key.
    claimed = session.execute(update(AccountRequest).where(AccountRequest.id == row.id,
                                                           AccountRequest.status == "approved")
                              .values(status="delivered").execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        raise GoneError("the key was already handed out")
    key_row, key = create_key(session, apis=row.apis.split(","), credits=credits, rate=rate, now=now,
                              expires_at=now + key_lifetime, label=f"self-registered {row.email}")
    row.status, row.key_id = "delivered", key_row.id
    return row, key
