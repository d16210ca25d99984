"""/v1/account: the calling key as the service sees it, so a client can watch its credits and expiry
before a 402 or a 401 stops it in the middle of a loop."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from api.areas import Area
from api.auth import ANY_API
from api.context import request_state
from api.db import db_session
from api.operations import Reply, json_body
from store.keys import get_key
from store.times import format_utc

area = Area(Blueprint("account", __name__, url_prefix="/v1"), "Account", api=ANY_API)


@area.get("/account", cost=0, response_schema="Account")
def get_account(values: dict[str, Any]) -> Reply:
    """The calling key: its id, APIs, credits left, rate and expiry
    Any valid key may read its own account, whichever API it holds; the call is free but counts
    against the key's rate limit like any other."""
    caller = request_state().api_key  # read with the key check, in the same statement
    body = {"keyId": caller.id, "prefix": get_key(db_session(), caller.id).prefix, "apis": caller.api_list,
            "credits": caller.credits, "rate": caller.rate,
            "expiresAt": format_utc(caller.expires_at) if caller.expires_at else None}
    return Reply(json_body(body), "account")
