"""Sending the approval e-mail: over SMTP (STARTTLS and login when configured) or, with no SMTP
configured, as an .eml file under var/outbox so that the flow works on one machine."""

from __future__ import annotations

import logging
import re
import secrets
import smtplib
import ssl
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from api.config import VAR_DIR
from store.private import private_folder, write_private

log = logging.getLogger("gosterge.mail")
SMTP_TIMEOUT_SECONDS = 10
# A legal address is up to 254 characters, more than many file systems allow in a name.
ADDRESS_IN_NAME = 40


class MailError(Exception):
    """The message could not be handed to the mail server (or written to the outbox)."""


def recipient(addr_spec: str) -> Address:
    """The one address a message goes to, as the mail library will write it in `To`. An address that
    email-validator accepts may still be one the header cannot carry (`=?utf-8?q?a?=b@…` reads as an
    encoded word): ValueError, so that it is refused before anything is recorded or sent."""
    try:
        address = Address(addr_spec=addr_spec)
    except (ValueError, IndexError) as error:
        raise ValueError(f"cannot be written in a mail header ({error})") from None
    if address.addr_spec != addr_spec:
        raise ValueError("cannot be written in a mail header unchanged")
    return address


def approval_message(*, sender: str, to: str, apis: list[str], approve_url: str, refuse_url: str,
                     expires: str) -> EmailMessage:
    message = EmailMessage()
    # An Address object, not a string the header parser would read again (and could read as a list).
    message["From"], message["To"] = sender, recipient(to)
    message["Subject"] = "Gösterge API key request / API anahtarı talebi"
    message.set_content(
        f"An automated client asked for a Gösterge API key for this address, for: {', '.join(apis)}.\n"
        f"To approve it, open this link and press the button:\n{approve_url}\n\n"
        f"If you did not ask for it, refuse it here:\n{refuse_url}\n\n"
        f"The request expires at {expires}. Each link works once.\n\n"
        f"Bu adres için bir Gösterge API anahtarı istendi ({', '.join(apis)}). Onaylamak için yukarıdaki ilk "
        f"bağlantıyı açıp düğmeye basın; talep sizden gelmediyse ikinci bağlantıyla reddedin.\n"
    )
    return message


def send(message: EmailMessage, smtp_url: str, outbox: Path | None = None) -> str:
    """Deliver `message` to its one validated recipient; returns where it went (the SMTP host, or the
    .eml path). Raises MailError."""
    try:
        return _write(message, outbox or VAR_DIR / "outbox") if not smtp_url else _submit(message, smtp_url)
    except (OSError, smtplib.SMTPException) as error:
        raise MailError(str(error)) from error


def _write(message: EmailMessage, folder: Path) -> str:
    private_folder(folder)  # the mails hold live decision links: the service's user alone reads them
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", message["To"].replace("@", "_at_"))[:ADDRESS_IN_NAME]
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    path = folder / f"{stamp}-{readable}-{secrets.token_hex(4)}.eml"
    write_private(path, bytes(message))
    log.info("no SMTP configured; approval mail written to %s", path)
    return str(path)


def _submit(message: EmailMessage, smtp_url: str) -> str:
    url = urlparse(smtp_url)
    options = {k: v[-1] for k, v in parse_qs(url.query).items()}
    host, port = url.hostname or "127.0.0.1", url.port or (465 if url.scheme == "smtps" else 25)
    if url.scheme == "smtps":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=SMTP_TIMEOUT_SECONDS,
                                                context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(host, port, timeout=SMTP_TIMEOUT_SECONDS)
    with client:
        if url.scheme == "smtp" and options.get("starttls", "").lower() in ("1", "true", "yes"):
            client.starttls(context=ssl.create_default_context())
        if url.username:
            client.login(unquote(url.username), unquote(url.password or ""))
        # The envelope names the recipient itself, whatever the headers might be read as.
        client.send_message(message, to_addrs=[message["To"].addresses[0].addr_spec])
    return f"{host}:{port}"
