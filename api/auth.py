"""Who is calling: key lookup (Bearer header or `apikey`), expiry, revocation and API scopes."""

from __future__ import annotations

from datetime import UTC, datetime

from api.context import request_state, this_app, this_request
from api.keycache import callers
from api.problems import Forbidden, InvalidParameters, Unauthorized
from api.transport.query import may_name
from store.keys import Caller

# The `api` of an operation any valid key may call, whatever APIs it holds (/v1/account).
ANY_API = "any"


def now() -> datetime:
    """The service's clock; tests inject their own through the CLOCK setting."""
    clock = this_app().config.get("CLOCK")
    return clock() if clock else datetime.now(UTC)


def presented_key() -> str | None:
    """The key the request carries. A Bearer header and a different `apikey` at once is refused:
    guessing which one the caller meant could bill the wrong account."""
    req = this_request()
    header = req.environ.get("HTTP_AUTHORIZATION", "")  # not headers.get: it raises inside when absent
    bearer = None
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Unauthorized("The Authorization header must be 'Bearer <API key>'.")
        bearer = value.strip()
    query = req.args.getlist("apikey") if may_name(req.environ.get("QUERY_STRING", ""), "apikey") else []
    if len(query) > 1:
        raise InvalidParameters([{"parameter": "apikey", "message": "given more than once"}])
    from_query = query[0] if query else None
    if bearer and from_query and bearer != from_query:
        raise Unauthorized("Two different keys were sent (Authorization header and apikey); send one.")
    return bearer or from_query


def authenticate() -> Caller:
    """The calling key, or 401 for a missing, unknown, expired or revoked key."""
    key = presented_key()
    if not key:
        raise Unauthorized("Send an API key as 'Authorization: Bearer <key>' or as the apikey query parameter.")
    # From the worker's memory, read again past KEY_CACHE_MS; the generation of the data versions
    # tells whether an answer computed for this request may be remembered (api/answers.py).
    ctx = request_state()
    caller, ctx.versions_generation = callers().caller(key)
    if caller is None:
        raise Unauthorized("The API key is not known.", invalid_token=True)
    if caller.revoked:
        raise Unauthorized("The API key has been revoked.", invalid_token=True)
    if caller.expires_at is not None and caller.expires_at <= now():
        raise Unauthorized("The API key has expired.", invalid_token=True)
    ctx.api_key = caller
    return caller


def require_api(key: Caller, api: str) -> None:
    if api == ANY_API:
        return
    if api == "admin":
        if not key.is_admin:
            raise Forbidden("This operation needs a key with the admin scope.")
    elif api not in key.api_list:
        raise Forbidden(f"This key may not call the {api} API; it may call: {', '.join(key.api_list) or 'none'}.")

