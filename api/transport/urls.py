"""Absolute URLs the service writes (the sign-up's poll and e-mail links, the OpenAPI `servers`, the
`Link` header): from GOSTERGE_PUBLIC_BASE_URL when set, otherwise from the request itself, so that a
server on any port or host hands out addresses that reach it."""

from __future__ import annotations

import functools

from werkzeug.sansio.utils import get_current_url

from api.context import this_app, this_request


def public_base() -> str:
    """The base every absolute URL starts with, without a trailing slash. Behind proxies the request's
    scheme, host and prefix are the forwarded ones only when GOSTERGE_TRUSTED_PROXIES says how many
    proxies to believe (werkzeug's ProxyFix, set up in create_app)."""
    configured = this_app().config["PUBLIC_BASE_URL"]
    if configured:
        return configured.rstrip("/")
    return _root_url(this_request().scheme, this_request().host, this_request().root_path)


@functools.lru_cache(maxsize=64)
def _root_url(scheme: str, host: str, root_path: str) -> str:
    # The request's `url_root`, worked out once per host: a server answers to few, and every next-page
    # link starts with it (made again for each, it was a measurable part of a remembered page's work).
    return get_current_url(scheme, host, root_path).rstrip("/")


def public_url(path: str) -> str:
    """`path` (starting with /) as an absolute URL."""
    return public_base() + path


DEFAULT_PORTS = {"http": 80, "https": 443}


def _split_host(host: str) -> tuple[str, int | None]:
    """`name:port` (or `[v6]:port`) as a lower-case name and a port, None when none is given."""
    name, port = host, ""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":")
    elif ":" in host:
        name, _, port = host.rpartition(":")
    return name.lower(), int(port) if port.isdigit() else None


def port_is_trusted(host: str, scheme: str, trusted: list[str]) -> bool:
    """Whether the port of a Host whose name GOSTERGE_TRUSTED_HOSTS admits (Flask checks the names, and
    ignores ports) is one the setting admits too. An entry with a port (`127.0.0.1:8000`) admits its host
    on that port only (the scheme's default port when the Host gives none); an entry without a port
    admits its host on any, as the setting always did, so that a server on a port the system picks
    still answers to its name. A link or an approval mail built from the Host then never names a port
    other than the configured one."""
    name, port = _split_host(host)
    port = port or DEFAULT_PORTS.get(scheme)
    for entry in trusted:
        entry_name, entry_port = _split_host(entry)
        suffix = entry_name.startswith(".")
        if entry_name == name or (suffix and (name.endswith(entry_name) or name == entry_name[1:])):
            if entry_port is None or port == entry_port:
                return True
    return False


def refuse_untrusted_port() -> None:
    """A before_request hook: 400 naming `Host` when its port is not one GOSTERGE_TRUSTED_HOSTS admits."""
    from api.problems import InvalidParameters

    trusted = this_app().config["TRUSTED_HOSTS"]
    request = this_request()
    if trusted and not port_is_trusted(request.host, request.scheme, trusted):
        raise InvalidParameters([{"parameter": "Host", "message": "is not a host and port this service answers to"}])


def untrusted_mail_links(config: dict) -> str | None:
    """Why approval mails cannot go out from this configuration, or None when they can. Their links,
    and the sign-up's poll_url, carry secrets: built from a Host header the requester chose, a mail
    scanner (or a person reading the outbox file) following them would hand the decision to that host.
    The same holds for mail written to the outbox folder (no SMTP): whoever reads it follows its links."""
    if not config["PUBLIC_BASE_URL"] and not config["TRUSTED_HOSTS"]:
        where = "over SMTP" if config["SMTP_URL"] else "to its outbox folder"
        return (f"this server writes approval mails {where} but knows neither its public address "
                "(GOSTERGE_PUBLIC_BASE_URL) nor the host names it answers to (GOSTERGE_TRUSTED_HOSTS), so "
                "a forged Host header could point their links elsewhere; set one of them")
    return None
