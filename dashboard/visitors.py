"""Who a sign-up is for, as the dashboard names them to the API (X-Gosterge-Visitor): each visitor's
address gets its own sign-up allowance, so an address must not be something a visitor can renew."""

from __future__ import annotations

from collections.abc import Mapping

# Streamlit behind a local reverse proxy sees no address. Such visitors share one name, and with it
# one allowance: an id per browser session would give every new session a fresh one.
UNKNOWN = "unknown-address"


def visitor_name(ip_address: str | None, headers: Mapping[str, str], trusted_proxies: int) -> str:
    """The visitor's address: Streamlit's own, else the one the `trusted_proxies` nearest proxies
    wrote into X-Forwarded-For (each appends the address it was reached from, so the entry that many
    places from the right is the one the outermost trusted proxy saw), else UNKNOWN."""
    if ip_address:
        return ip_address
    if trusted_proxies > 0:
        hops = [hop.strip() for hop in headers.get("X-Forwarded-For", "").split(",") if hop.strip()]
        if len(hops) >= trusted_proxies:
            return hops[-trusted_proxies][:64]
    return UNKNOWN
