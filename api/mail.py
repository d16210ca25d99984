"""Sending the approval e-mail: over SMTP (STARTTLS and login when configured) or, with no SMTP
configured, as an .eml file under var/outbox so that the flow works on one machine."""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from api.config import VAR_DIR

log = logging.getLogger("gosterge.mail")
SMTP_TIMEOUT_SECONDS = 10


def approval_message(*, sender: str, to: str, apis: list[str], approve_url: str, refuse_url: str,
                     expires: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = sender, to
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
    """Deliver `message`; returns where it went (the SMTP host, or the .eml path)."""
    if not smtp_url:
        folder = outbox or VAR_DIR / "outbox"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{message['To'].replace('@', '_at_')}-{abs(hash(message.as_string())) % 10**12}.eml"
        path.write_bytes(bytes(message))
        log.info("no SMTP configured; approval mail written to %s", path)
        return str(path)
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
        client.send_message(message)
    return f"{host}:{port}"
