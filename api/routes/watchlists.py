"""/v1/public-procurement/watchlists: a key's saved awards filters, the awards new to each since an
earlier release, and the pages behind the links of their mails (confirm the address, unsubscribe)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Blueprint

from api.areas import Area
from api.auth import now
from api.bodies import Field, FieldErrors
from api.context import request_state, this_app
from api.db import db_session
from api.mail import MailError, send
from api.operations import Reply, json_body
from api.params import Param, Values, parse_args, path_param, string_param
from api.problems import Conflict, InvalidParameters, NotFound, NotReady, UpstreamError
from api.routes.accounts import email_address
from api.routes.parties import AWARD_PARAMS, paged, read_details
from api.routes.release_params import PAGING, check_cursor_release, no_release_page, served_release
from api.transport.paging import finish_page
from api.transport.urls import public_url, untrusted_mail_links
from api.watchmail import CONFIRM_PATH, confirmation_message
from store.accounts import claim_allowance, return_allowance
from store.errors import NotFoundError
from store.models import Release, Watchlist
from store.pages import Page
from store.reference.flags import FLAG_BITS
from store.releases import find_release
from store.times import format_utc
from store.watchlists import (
    FILTER_FIELDS,
    MAX_WATCHLISTS,
    WatchlistLimitError,
    create_watchlist,
    delete_watchlist,
    get_watchlist,
    list_new_awards,
    list_new_tenders,
    list_watchlists,
    previous_release,
    remove_watchlist,
    watch_filters,
)

area = Area(Blueprint("watchlists", __name__, url_prefix="/v1/public-procurement"), "Watchlists",
            api="public-procurement")
# Answers depend on the key (its own watchlists), so none is remembered across keys (no data_version).
PREFIX = "/v1/public-procurement/watchlists"
# The /awards filters a watchlist takes, by the same names and rules (api/routes/parties.py).
FILTER_RULES = {p.name: p for p in AWARD_PARAMS if p.name in FILTER_FIELDS}
NUMERIC_FILTERS = ("province", "supplierProvince", "sector")


def _filter(name: str, raw: Any, rule: Param) -> Any:
    """One filter parsed by the rule of its /awards parameter: JSON numbers for provinces and sectors
    and a list of flag ids are taken as the query would spell them."""
    if name in NUMERIC_FILTERS and isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if name == "flag" and isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        raw = ",".join(raw)
    if not isinstance(raw, str):
        raise ValueError("must be text" + (", a number" if name in NUMERIC_FILTERS else "")
                         + (", or a list of ids" if name == "flag" else ""))
    try:
        return parse_args({name: [raw]}, [rule])[name]
    except InvalidParameters as problem:
        raise ValueError(problem.extra["errors"][0]["message"]) from None


def parse_filters(value: Any) -> dict[str, Any]:
    """The watchlist's filters, normalised (ids as /awards items give them), in the /awards order;
    FieldErrors naming each bad one (`filters.sektor`)."""
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object of /awards filters and minValue")
    errors: list[tuple[str, str]] = []
    parsed: dict[str, Any] = {}
    for name, raw in value.items():
        if name == "minValue":
            if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw) or raw < 0:
                errors.append((name, "must be a number of at least 0 (TRY)"))
            else:
                parsed[name] = raw
        elif name in FILTER_RULES:
            try:
                parsed[name] = _filter(name, raw, FILTER_RULES[name])
            except ValueError as exc:
                errors.append((name, str(exc)))
        else:
            errors.append((name, f"unknown filter; filters are: {', '.join([*FILTER_RULES, 'minValue'])}"))
    if errors:
        raise FieldErrors(errors)
    return {name: parsed[name] for name in [*FILTER_RULES, "minValue"] if name in parsed}


def _name(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= 100 or len(value) > 100:
        raise ValueError("must be text of 1 to 100 characters")
    return value


# What JSON numbers stand for a province or a sector (their ids), beside the forms the query takes.
NUMBER_RANGES = {"province": (1, 81), "supplierProvince": (1, 81), "sector": (1, 43)}


def _filter_schema(rule: Param) -> dict[str, Any]:
    """A filter's schema: its /awards parameter's, and the JSON forms `_filter` also takes."""
    schema = {**rule.schema, "description": rule.description}
    if rule.name in NUMBER_RANGES:
        low, high = NUMBER_RANGES[rule.name]
        return {"anyOf": [rule.schema, {"type": "integer", "minimum": low, "maximum": high}],
                "description": rule.description}
    if rule.name == "flag":
        return {"anyOf": [rule.schema, {"type": "array", "minItems": 1,
                                        "items": {"type": "string", "enum": list(FLAG_BITS)}}],
                "description": rule.description}
    return schema


FILTER_SCHEMA = {"type": "object", "additionalProperties": False, "description": (
    "The /awards filters by the same names and rules (provinces and sectors also as JSON numbers, `flag` also "
    "as a list of ids), and `minValue`: a least contract value in TRY (for tenders, the estimate)."),
    "properties": {**{p.name: _filter_schema(p) for p in FILTER_RULES.values()},
                   "minValue": {"type": "number", "minimum": 0, "description": (
                       "The least contract value in TRY (for tenders: the estimated cost).")}}}
FIELDS = [
    Field("name", {"type": "string", "minLength": 1, "maxLength": 100, "description": "A name for it."}, _name,
          required=True),
    Field("filters", FILTER_SCHEMA, parse_filters, default={}),
    Field("notify", {"type": "string", "format": "email", "maxLength": 254, "description": (
        "An address for its weekly digest; a confirmation mail goes there first.")}, email_address),
]
WATCHLIST_ID = path_param("watchlist_id", {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"},
                          "The watchlist's id.", "watchlist")


def watchlist_json(row: Watchlist) -> dict[str, Any]:
    notify = None if row.notify is None else {"address": row.notify, "confirmed": row.confirmed,
                                              "unsubscribed": row.unsubscribed}
    return {"id": row.id, "name": row.name, "filters": json.loads(row.filters), "notify": notify,
            "createdAt": format_utc(row.created_at), "awardsUrl": public_url(f"{PREFIX}/{row.id}/awards")}


def _key_id() -> int:
    return int(request_state().api_key.id)


@area.post("/watchlists", body=FIELDS, response_schema="Watchlist", success_status=201, extra_statuses=[409, 503])
def create_watchlist_item(body: dict[str, Any]) -> Reply:
    """Create a watchlist: saved /awards filters, and an address for its weekly digest
    `filters` take the /awards filters by the same names and rules (an unknown one or a bad value is a 400
    naming it, e.g. `filters.sektor`) and `minValue`. With `notify`, a confirmation mail goes to that
    address; nothing else is sent to it until its link is followed, and each address gets at most the
    sign-up's daily number of such mails (past it the watchlist is created, unconfirmed, without a
    mail). A key holds at most 50 watchlists: the 51st is a 409 `conflict`. When the mail server cannot
    be reached the answer is 502 and nothing is created; a server that does not know its public address
    answers 503 to a watchlist with `notify` (the link would follow the request's Host). Free."""
    config = this_app().config
    if body["notify"] is not None and (refusal := untrusted_mail_links(config)) is not None:
        raise NotReady(f"Watchlists with notify are switched off: {refusal}.")
    session, moment = db_session(), now()
    release = served_release()
    try:
        new = create_watchlist(session, key_id=_key_id(), name=body["name"], filters=body["filters"],
                               notify=body["notify"], now=moment, baseline_release_id=release.id if release else 0)
    except WatchlistLimitError:
        raise Conflict(f"This key holds {MAX_WATCHLISTS} watchlists, the most a key may; delete one to add "
                       "another.") from None
    row, message, capped = new.row, None, None
    if new.confirm_token is not None and row.notify is not None:
        capped = claim_allowance(session, row.notify, now=moment, cap=config["SIGNUP_PER_EMAIL_PER_DAY"],
                                 window=timedelta(days=1))
        message = confirmation_message(sender=config["MAIL_FROM"], to=row.notify, name=row.name,
                                       confirm_url=public_url(f"{CONFIRM_PATH}?token={new.confirm_token}"))
    answer = watchlist_json(row)
    session.commit()  # no transaction stays open while the mail server answers
    if message is not None and capped is None:
        try:
            send(message, config["SMTP_URL"])
        except MailError:
            remove_watchlist(session, row.id)
            return_allowance(session, str(row.notify))
            session.commit()
            raise UpstreamError("The mail server cannot be reached, so nothing was created; try again later.") \
                from None
    return Reply(json_body(answer), "", status=201, headers={"Location": answer["awardsUrl"].removesuffix("/awards")})


WATCHLIST_PAGING = PAGING


@area.get("/watchlists", params=WATCHLIST_PAGING, response_schema="WatchlistPage")
def list_watchlist_items(values: dict[str, Any]) -> Reply:
    """The key's watchlists, newest first
    Only the calling key's own. Free."""
    after = values["cursor"].position[1] if values["cursor"] is not None else None
    rows, total = list_watchlists(db_session(), key_id=_key_id(), after=after, limit=values["limit"] + 1)
    body = finish_page([(row.seq, json_body(watchlist_json(row))) for row in rows], total, values,
                       position=lambda seq: [0, seq])
    return Reply(body, "watchlists")


def _own(watchlist_id: str) -> Watchlist:
    try:
        return get_watchlist(db_session(), key_id=_key_id(), watchlist_id=watchlist_id)
    except NotFoundError:
        raise NotFound(f"No watchlist {watchlist_id!r} of this key.") from None


@area.get("/watchlists/<watchlist_id>", path_params=[WATCHLIST_ID], response_schema="Watchlist",
          extra_statuses=[404])
def get_watchlist_item(values: dict[str, Any], watchlist_id: str) -> Reply:
    """One of the key's watchlists
    Another key's watchlist, or an unknown id, is a 404. Free."""
    return Reply(json_body(watchlist_json(_own(watchlist_id))), "watchlist")


@area.route("DELETE", "/watchlists/<watchlist_id>", path_params=[WATCHLIST_ID], response_schema="Watchlist",
            success_status=204, extra_statuses=[404])
def delete_watchlist_item(values: dict[str, Any], watchlist_id: str) -> Reply:
    """Delete one of the key's watchlists
    Its digests stop with it. Another key's watchlist, or an unknown id, is a 404. Free."""
    try:
        delete_watchlist(db_session(), key_id=_key_id(), watchlist_id=watchlist_id)
    except NotFoundError:
        raise NotFound(f"No watchlist {watchlist_id!r} of this key.") from None
    return Reply("", "", status=204)


SINCE = string_param("since", "A release's name (/releases), e.g. `2026-W47`: the awards returned are absent from its "
                     "awards. Default: the release loaded before the one served.",
                     pattern=r"^[0-9]{4}-W[0-9]{2}$", pattern_message="is a release's name such as 2026-W47")
SORT = next(p for p in AWARD_PARAMS if p.name == "sort")


def _since(values: dict[str, Any], served: Release) -> Release | None:
    """The release to compare with: 400 for a name that names no release, 409 for a pruned one."""
    session = db_session()
    if values["since"] is None:
        since = previous_release(session, served)
    else:
        since = find_release(session, values["since"])
        if since is None:
            raise InvalidParameters([{"parameter": "since", "message": "names no release loaded (see /releases)"}])
    if since is not None and since.pruned_at is not None:
        raise Conflict(f"Release {since.name} (since) was pruned: its awards were removed, so what is new since it "
                       "cannot be told; name a later release as since.", parameter="since")
    return since


def _with_since(body: str, since: Release | None) -> str:
    """The envelope, which also says the release the items are new since."""
    return body[:-1] + ',"since":' + json_body(since.name if since else None) + "}"


def _new_since(values: Values, watchlist_id: str, read: Callable[..., Page]) -> Reply:
    """A page of what is new to a watchlist since `since`, read by `read(release, since, filters, after,
    limit)`; its envelope says `since`, and its ETag changes with it."""
    row = _own(watchlist_id)
    release = served_release()
    if release is None:
        return Reply(_with_since(no_release_page().body, None), "none")
    since = _since(values, release)
    after = values["cursor"].position[1] if values["cursor"] is not None else None
    page = read_details(lambda: read(release, since, watch_filters(_stored(row)), after, values["limit"] + 1))
    reply = paged(page, release, values)
    return Reply(_with_since(reply.body, since), f"{reply.version}-{since.id if since else 0}")


@area.get("/watchlists/<watchlist_id>/awards", cost=1, path_params=[WATCHLIST_ID],
          params=(SINCE, SORT, *PAGING), checks=[check_cursor_release], response_schema="WatchlistAwardPage",
          extra_statuses=[404, 409, 503])
def list_watchlist_awards(values: Values, watchlist_id: str) -> Reply:
    """The awards new to a watchlist: those of the release served that match it and that an earlier release lacked
    The awarded lots of the release served that match the watchlist's filters and whose (tender, lot) the
    awards of release `since` do not hold. `since` defaults to the release loaded before the one served
    (releases are ordered as they were loaded, /releases newest first); when none was loaded before it,
    every matching award is new and the envelope's `since` is null. A `since` naming no release is a 400;
    a pruned one (its awards removed) a 409 `conflict`. Items, order (`sort`), paging, CSV and ETags as
    /awards; the envelope also gives `since`."""
    return _new_since(values, watchlist_id, lambda release, since, filters, after, limit: list_new_awards(
        db_session(), release=release, since=since, filters=filters, sort=values["sort"], after=after, limit=limit))


@area.get("/watchlists/<watchlist_id>/tenders", cost=1, path_params=[WATCHLIST_ID], params=(SINCE, *PAGING),
          checks=[check_cursor_release], response_schema="WatchlistTenderPage", extra_statuses=[404, 409, 503])
def list_watchlist_tenders(values: Values, watchlist_id: str) -> Reply:
    """The tenders new to a watchlist: those of the release served that match it and that an earlier release lacked
    Every tender of the release served, announced ones with no awarded lot included, that matches the
    filters a tender has (`province`, `sector`, `procedure`, `authorityType`, `authority`, and
    `minValue` on its estimated cost) and whose id release `since` does not hold; newest first. A
    watchlist with a `contractor`, `supplierProvince` or `flag` filter names awards, not tenders: its
    page is empty. `since` as for /watchlists/{id}/awards. A release loaded before tenders were kept
    (as `since` or served) is a 503: load it again."""
    return _new_since(values, watchlist_id, lambda release, since, filters, after, limit: list_new_tenders(
        db_session(), release=release, since=since, filters=filters, after=after, limit=limit))


def _stored(row: Watchlist) -> dict[str, Any]:
    return dict(json.loads(row.filters))
