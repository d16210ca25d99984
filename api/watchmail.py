"""The mails of watchlists: the confirmation of the address, and the digest of a release's new
matching awards. Plain text built from release data (names, İKNs, amounts), with nothing a mail
client would run; every digest carries its one-click unsubscribe link (RFC 8058)."""

from __future__ import annotations

from decimal import Decimal
from email import policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlencode

from api.mail import recipient
from store.watchlists import NewAward

# The largest new awards a digest lists.
# Where the mails' links point (api/routes/digest_links.py serves them).
CONFIRM_PATH = "/v1/public-procurement/digests/confirm"
UNSUBSCRIBE_PATH = "/v1/public-procurement/digests/unsubscribe"
LARGEST = 5
# Long header lines (RFC 5322 allows 998 characters): a List-Unsubscribe URL with no space to fold at
# would otherwise be written as an encoded word, which no mail client reads as a URL.
LONG_LINES = policy.default.clone(max_line_length=998)


def confirmation_message(*, sender: str, to: str, name: str, confirm_url: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = sender, recipient(to)
    message["Subject"] = "Gösterge izleme listesi onayı / watchlist confirmation"
    message.set_content(
        f"Bu adrese \"{name}\" izleme listesinin haftalık özeti gönderilmek istendi. Onaylamak için bağlantıyı "
        f"açıp düğmeye basın; onaylanmazsa bu adrese başka posta gönderilmez:\n{confirm_url}\n\n"
        f"Someone asked for the weekly digest of the watchlist \"{name}\" to be sent to this address. To confirm, "
        "open the link above and press the button; unless it is confirmed, nothing else is sent to this "
        "address.\n")
    return message


def _amount(value: Decimal | None) -> str:
    return "-" if value is None else f"{value:,.2f} TRY"


def _discount(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def dashboard_link(dashboard: str, filters: dict[str, Any]) -> str | None:
    """The dashboard's awards view with the watchlist's filters, or None without its address."""
    if not dashboard:
        return None
    query = [(name, ",".join(value) if isinstance(value, list) else str(value)) for name, value in filters.items()]
    return f"{dashboard.rstrip('/')}/awards" + (f"?{urlencode(query)}" if query else "")


def digest_message(*, sender: str, to: str, name: str, release: str, since: str | None, matched: list[NewAward],
                   names: dict[tuple[str, str], str], dashboard_url: str | None, unsubscribe_url: str) -> EmailMessage:
    """The digest of one watchlist for one release: how many new awards, the largest few with İKN,
    authority, contractor, value and discount, the dashboard link, and the unsubscribe link."""
    message = EmailMessage(policy=LONG_LINES)
    message["From"], message["To"] = sender, recipient(to)
    message["Subject"] = f"Gösterge: {len(matched)} yeni ihale sonucu / new awards — {name} ({release})"
    # RFC 8058: a mail client's unsubscribe button posts `List-Unsubscribe=One-Click` to this URL.
    message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    since_text = f"{since} sürümünden bu yana / since release {since}" if since else "ilk sürüm / first release"
    lines = [f"\"{name}\" izleme listesi, {release} sürümü: {len(matched)} yeni ihale sonucu ({since_text}).",
             f"Watchlist \"{name}\", release {release}: {len(matched)} new award(s).", "",
             f"En büyük {min(LARGEST, len(matched))} / the largest {min(LARGEST, len(matched))}:"]
    for award in matched[:LARGEST]:
        lines += [f"- İKN {award.tender_id} (kısım/lot {award.lot})",
                  f"  İdare / authority: {names.get(('authority', award.authority_id), award.authority_id)}",
                  f"  Yüklenici / contractor: {names.get(('contractor', award.contractor_id), award.contractor_id)}",
                  f"  Sözleşme bedeli / contract value: {_amount(award.contract_value)}; "
                  f"tenzilat / discount: {_discount(award.discount)}"]
    if dashboard_url:
        lines += ["", f"Tümü / all of them: {dashboard_url}"]
    lines += ["", f"Abonelikten çıkmak için / to unsubscribe: {unsubscribe_url}"]
    message.set_content("\n".join(lines) + "\n")
    return message
