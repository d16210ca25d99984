"""The sign-up's steps and the transactions around them, apart from the HTTP routes that call them
(api/routes/accounts.py): claim one of the address's daily mails and record the request, send the
approval mail (no transaction stays open while the mail server answers: on SQLite that would hold
the write lock every credit debit needs), and undo both when the mail cannot go out."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from api.auth import now
from api.mail import MailError, approval_message, send
from store.accounts import (
    claim_allowance,
    create_request,
    decide,
    poll,
    return_allowance,
    withdraw_request,
)
from store.models import AccountRequest
from store.times import format_utc

log = logging.getLogger("gosterge.accounts")


class MailUnavailableError(Exception):
    """The approval mail could not be sent; nothing was registered."""


@dataclass(frozen=True)
class Pending:
    id: str
    poll_token: str
    expires_at: datetime


def ask_for_key(session: Session, config: Mapping[str, Any], *, email: str, apis: list[str], client_address: str,
                decision_url: Callable[[str, str], str]) -> Pending:
    """Record a request and mail its owner the links (`decision_url(request id, token)`).

    An address that has had its mails for today gets a request like any other, recorded, but no
    mail: the answer must not tell the requester whether the address was asked for already, and the
    request simply expires undecided. A refusal by the owner gives the mail back (`decide_request`)."""
    moment = now()
    session.commit()  # end the read snapshot of the checks: what follows writes
    reopens = claim_allowance(session, email, now=moment, cap=config["SIGNUP_PER_EMAIL_PER_DAY"],
                              window=timedelta(days=1))
    new = create_request(session, email=email, apis=apis, now=moment, client_address=client_address,
                         lifetime=timedelta(hours=config["SIGNUP_REQUEST_HOURS"]))
    row = new.row
    pending = Pending(row.id, new.poll_token, row.expires_at)
    # Built before the commit: a message that cannot be written leaves no request and no used allowance.
    decision = decision_url(row.id, new.decision_token)
    message = approval_message(sender=config["MAIL_FROM"], to=row.email, apis=apis,
                               approve_url=f"{decision}&action=approve", refuse_url=f"{decision}&action=refuse",
                               expires=format_utc(row.expires_at))
    session.commit()
    if reopens is not None:
        log.info("sign-up %s: no mail, the address has had its %d for today", row.id, config["SIGNUP_PER_EMAIL_PER_DAY"])
        return pending
    try:
        send(message, config["SMTP_URL"])
    except MailError as error:
        withdraw_request(session, row.id)
        return_allowance(session, email)
        session.commit()
        log.warning("approval mail not sent: %s", error)
        raise MailUnavailableError(str(error)) from None
    return pending


def decide_request(session: Session, request_id: str, token: str, *, approve: bool) -> AccountRequest:
    """The owner's decision, once. A refusal gives back the mail it cost the address, so that nobody
    can use up an address's sign-ups by asking for keys its owner refuses."""
    session.commit()  # end the read snapshot: the decision writes
    row = decide(session, request_id, token, approve=approve, now=now())
    if not approve:
        return_allowance(session, row.email)
    session.commit()
    return row


def collect_key(session: Session, config: Mapping[str, Any], request_id: str, token: str, *,
                deliver: bool) -> tuple[AccountRequest, str | None]:
    """The poll: (request, key), the key once after approval (store/accounts.py `poll`)."""
    session.commit()  # end the read snapshot: a delivery writes
    row, key = poll(session, request_id, token, now=now(), key_lifetime=timedelta(hours=config["SIGNUP_KEY_HOURS"]),
                    credits=config["SIGNUP_CREDITS"], rate=config["SIGNUP_KEY_RATE"], deliver=deliver)
    session.commit()
    return row, key
