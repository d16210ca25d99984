"""/v1/accounts: self-registration approved by e-mail, then one poll that hands out a short-lived key."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from flask import Blueprint, Response, render_template_string

from api.areas import Area
from api.auth import authenticate, now
from api.bodies import Field, api_names
from api.context import request_state, this_app, this_request
from api.db import db_session
from api.limits import limiter
from api.mail import recipient
from api.operations import Outcome, json_body
from api.params import enum_param, path_param, schema_param
from api.problems import Gone, InvalidParameters, NotFound, NotReady, Problem, Unauthorized, UpstreamError
from api.signup import MailUnavailableError, ask_for_key, collect_key, decide_request
from api.transport.urls import public_url, untrusted_mail_links
from store.accounts import DecisionError, GoneError, check_decision_token
from store.errors import NotFoundError
from store.times import format_utc

area = Area(Blueprint("accounts", __name__, url_prefix="/v1/accounts"), "Accounts")
REQUEST_ID_SCHEMA = {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"}
REQUEST_ID_PROPERTY = {**REQUEST_ID_SCHEMA, "description": "The request's id."}
REQUEST_ID_PARAM = path_param("request_id", REQUEST_ID_SCHEMA, "The request's id, from the sign-up answer.",
                              "request")
TOKEN = schema_param("token", {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_-]+$"},
                     "The secret of the link or `poll_url`.")
ACTION = enum_param("action", ["approve", "refuse"], "What the link does: `approve` or `refuse`.")
PENDING = {"type": "string", "enum": ["pending"], "description": "Waiting for the mailbox owner's decision."}
EXPIRES_AT = {"type": "string", "format": "date-time",
              "description": "When the request expires unless decided (RFC 3339, UTC)."}


def email_address(value: Any) -> str:
    """The one address the approval mail goes to, as email-validator normalises it: only the plain
    characters of RFC 5322 before the @ (no quotes, commas, colons or comments a mail library could
    read as several addresses), the domain in lower case and in its ASCII (IDNA) form. Addresses with
    non-ASCII characters before the @ would need SMTPUTF8 from every mail server on the way: refused."""
    if not isinstance(value, str):
        raise ValueError("must be an e-mail address such as owner@example.com")
    try:
        checked = validate_email(value, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as exc:
        raise ValueError(f"must be an e-mail address such as owner@example.com ({exc})") from None
    address = checked.ascii_email or checked.normalized
    try:
        recipient(address)
    except ValueError as exc:
        raise ValueError(f"must be an e-mail address such as owner@example.com: this one {exc}") from None
    return address


FIELDS = [
    Field("email", {"type": "string", "format": "email", "maxLength": 254,
                    "description": "The owner's address; the approval mail goes there. Plain ASCII before the @."},
          email_address, required=True),
    Field("apis", {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["finance-news",
                                                                                      "public-procurement"]},
                   "description": "The APIs the key is asked for."},
          api_names, required=True),
]


def _address_rate() -> str:
    return this_app().config["SIGNUP_RATE_PER_ADDRESS"]


def _json(data: dict[str, Any], status: int) -> Response:
    return Response(json_body(data), status=status, mimetype="application/json")


# A client that serves many people from one address (the dashboard) names the person it asks for,
# with a key of its own: each visitor then has an allowance of their own, and all of them together
# the key's (GOSTERGE_SIGNUP_RATE_PER_KEY). Only the keys GOSTERGE_SIGNUP_VISITOR_KEYS names may do
# so: any key could otherwise invent visitors and with them fresh allowances. Every other request's
# header is ignored.
VISITOR_HEADER = "X-Gosterge-Visitor"
VISITOR = re.compile(r"[A-Za-z0-9.:_-]{1,64}")


def _visitor_keys() -> set[int]:
    # Checked to be ids at start (api/config.py).
    return {int(part) for part in this_app().config["SIGNUP_VISITOR_KEYS"].split(",") if part.strip()}


def _vouching_key() -> int | None:
    """The id of the valid key allowed to name visitors that names one, or None (once per request)."""
    state = request_state()
    if "signup_key" not in state:
        state.signup_key = None
        allowed = _visitor_keys()
        if allowed and VISITOR.fullmatch(this_request().headers.get(VISITOR_HEADER, "")):
            try:
                key_id = authenticate().id
            except (Unauthorized, InvalidParameters):
                key_id = None
            state.signup_key = key_id if key_id in allowed else None
    return state.signup_key


def _signup_bucket() -> str:
    key_id = _vouching_key()
    if key_id is None:
        return f"signup:{this_request().remote_addr}"
    return f"signup:key:{key_id}:{this_request().headers[VISITOR_HEADER]}"


def _key_rate() -> str:
    return this_app().config["SIGNUP_RATE_PER_KEY"]


PENDING_ANSWER = Outcome(202, "Waiting for the owner's decision", {
    "type": "object", "required": ["id", "status", "poll_url", "expires_at"], "properties": {
        "id": REQUEST_ID_PROPERTY, "status": PENDING,
        "poll_url": {"type": "string", "format": "uri",
                     "description": "Poll this URL (GET) for the key; it carries the request's secret."},
        "expires_at": EXPIRES_AT}})


@area.post("", public=True, body=FIELDS, outcomes=[PENDING_ANSWER], problems=[400, 413, 415, 429, 502, 503, 504],
           limits=[limiter.limit(_address_rate, key_func=_signup_bucket),
                   limiter.limit(_key_rate, key_func=lambda: f"signup:key:{_vouching_key()}",
                                 exempt_when=lambda: _vouching_key() is None)])
def register(body: dict[str, Any]) -> Response:
    """Ask for an API key; the mailbox owner approves by e-mail
    Rate-limited per client address (429). An e-mail address gets at most 3 approval mails a day;
    past them the answer is the same 202, but no mail goes out (the answer does not tell whether the
    address was asked for), and a refusal by the owner gives its mail back. The answer's `poll_url`
    gives the key once after approval. When the mail server cannot be reached the answer is 502
    `upstream_error` and nothing is registered (nor counted against the address's daily allowance).
    A server that does not know its public address (`GOSTERGE_PUBLIC_BASE_URL`) or host names
    (`GOSTERGE_TRUSTED_HOSTS`) answers 503 `not_ready`, whether it mails over SMTP or writes to its
    outbox: the mail's links and `poll_url` would otherwise follow the Host header the requester sent."""
    refusal = untrusted_mail_links(this_app().config)
    if refusal is not None:
        raise NotReady(f"Sign-up is switched off: {refusal}.")
    try:
        pending = ask_for_key(db_session(), this_app().config, email=body["email"], apis=body["apis"],
                              client_address=this_request().remote_addr or "", decision_url=_decision_url)
    except MailUnavailableError:
        raise UpstreamError("The mail server cannot be reached, so nothing was registered; try again later.") from None
    return _json({"id": pending.id, "status": "pending",
                  "poll_url": public_url(f"/v1/accounts/{pending.id}?token={pending.poll_token}"),
                  "expires_at": format_utc(pending.expires_at)}, 202)


def _decision_url(request_id: str, token: str) -> str:
    return public_url(f"/v1/accounts/{request_id}/decision?token={token}")


def _default_rate() -> str:
    return this_app().config["DEFAULT_RATE"]


def _no_store(response: Response) -> Response:
    # The poll may carry a key; no cache may keep any of its answers.
    response.headers["Cache-Control"] = "no-store"
    return response


KEY_ANSWER = Outcome(200, "Approved: the key, shown this once", {
    "type": "object", "required": ["id", "status", "key", "apis", "credits", "key_expires_at"],
    "properties": {"id": REQUEST_ID_PROPERTY,
                   "status": {"type": "string", "enum": ["approved"], "description": "The owner approved."},
                   "key": {"type": "string", "description": "The API key, shown this once."},
                   "apis": {"type": "array", "items": {"type": "string"}, "description": "The APIs the key may call."},
                   "credits": {"type": "integer", "minimum": 0, "description": "The key's credits; a paid answer costs 1."},
                   "key_expires_at": {"type": "string", "format": "date-time",
                                      "description": "When the key stops working (RFC 3339, UTC)."}}})
STILL_PENDING = Outcome(202, "Still waiting for the owner's decision", {
    "type": "object", "required": ["id", "status", "expires_at"],
    "properties": {"id": REQUEST_ID_PROPERTY, "status": PENDING, "expires_at": EXPIRES_AT}})


@area.get("/<request_id>", public=True, path_params=[REQUEST_ID_PARAM], params=[TOKEN], required=["token"],
          outcomes=[KEY_ANSWER, STILL_PENDING], problems=[400, 404, 410, 429, 502, 504],
          limits=[limiter.limit(_default_rate, key_func=lambda: f"poll:{this_request().remote_addr}")])
def poll_request(values: dict[str, Any], request_id: str) -> Response:
    """Poll a request: 202 pending, 200 with the key once, then 410
    The `poll_url` of the sign-up answer. While the owner has not decided: 202. After approval the
    first poll gets the key (200), and every later one 410, as after a refusal or once the request has
    expired. Answers are `Cache-Control: no-store`."""
    config = this_app().config
    # HEAD is safe: it says whether the key is ready (200) without handing it out into an empty body.
    deliver = this_request().method != "HEAD"
    try:
        row, key = collect_key(db_session(), config, request_id, values["token"], deliver=deliver)
    except NotFoundError:
        raise NotFound("No request with that id and token.") from None
    except GoneError as exc:
        raise Gone(f"The key is no longer available: {exc}.") from None
    if not deliver:
        return _no_store(Response(status=200 if row.status == "approved" else 202))
    if key is None:
        return _no_store(_json({"id": row.id, "status": "pending", "expires_at": format_utc(row.expires_at)}, 202))
    return _no_store(_json({"id": row.id, "status": "approved", "key": key, "apis": row.apis.split(","),
                            "credits": config["SIGNUP_CREDITS"],
                            "key_expires_at": format_utc(now() + timedelta(hours=config["SIGNUP_KEY_HOURS"]))},
                           200))


PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Gösterge</title>
<body style="font-family:sans-serif;max-width:36em;margin:3em auto">
<h1>{{ heading }}</h1><p>{{ text }}</p>
{% if form %}<form method="post"><input type="hidden" name="token" value="{{ token }}">
<input type="hidden" name="action" value="{{ action }}">
<button type="submit">{{ button }}</button></form>{% endif %}</body></html>"""


# The page needs nothing but its own inline style and its form posting back to itself.
PAGE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; "
               "base-uri 'none'")


def _page(status: int, heading: str, text: str, **form: Any) -> Response:
    html = render_template_string(PAGE, heading=heading, text=text, form=bool(form), **form)
    response = Response(html, status=status, mimetype="text/html")
    # The link carries a secret: no framing (clickjacking of the button), no Referer, no cache.
    response.headers.update({"Content-Security-Policy": PAGE_POLICY, "Referrer-Policy": "no-referrer",
                             "Cache-Control": "no-store"})
    return response


def _decision_rate() -> str:
    return this_app().config["DECISION_RATE_PER_ADDRESS"]


# Opening the page and pressing its button share one allowance per address.
decision_limit = limiter.shared_limit(_decision_rate, scope="decision",
                                      key_func=lambda: f"decision:{this_request().remote_addr}")


def _html(*answers: tuple[int, str]) -> list[Outcome]:
    return [Outcome(status, text, {"type": "string"}, "text/html") for status, text in answers]


PAGE_ANSWERS = _html((200, "The page"), (400, "Incomplete link"), (404, "Not a valid link"), (409, "Already decided"),
                     (410, "Expired"))
def _problem_page(problem: Problem) -> Response:
    """The decision page's own answers to a link with bad parameters (400) or an id that names nothing (404)."""
    if isinstance(problem, InvalidParameters):
        names = ", ".join(dict.fromkeys(e["parameter"] for e in problem.extra["errors"]))
        return _page(400, "Incomplete link", f"The link is incomplete ({names}); open it from the e-mail again.")
    return _page(404, "Not found", "This link is not valid.")


@area.get("/<request_id>/decision", public=True, path_params=[REQUEST_ID_PARAM], params=[TOKEN, ACTION],
          required=["token", "action"], outcomes=PAGE_ANSWERS, problems=[429, 502, 504],
          limits=[decision_limit], problem_page=_problem_page)
def decision_get(values: dict[str, Any], request_id: str) -> Response:
    """The page behind the e-mail's links (HTML): its button approves or refuses once
    Opening the link (GET) only shows the page, so a mail scanner that follows links decides nothing."""
    return decision_page(request_id, values)


@area.post("/<request_id>/decision", public=True, path_params=[REQUEST_ID_PARAM], form=[TOKEN, ACTION],
           outcomes=PAGE_ANSWERS, problems=[429, 502, 504], limits=[decision_limit], problem_page=_problem_page)
def decision_post(values: dict[str, Any], request_id: str) -> Response:
    """The page behind the e-mail's links (HTML): its button approves or refuses once
    The page's button: approves or refuses the request, once."""
    return decision_page(request_id, values)


def decision_page(request_id: str, source: Mapping[str, str]) -> Response:
    """The link in the e-mail opens a page; only its button (a POST) decides, so a mail scanner that
    follows links approves nothing."""
    token, action = source["token"], source["action"]
    session = db_session()
    try:
        if this_request().method == "GET":
            row = check_decision_token(session, request_id, token, now=now())
            verb = "Approve" if action == "approve" else "Refuse"
            return _page(200, f"{verb} the key request", f"A key for {', '.join(row.apis.split(','))} was asked for "
                         f"{row.email}. Onaylamak ya da reddetmek için düğmeye basın.",
                         token=token, action=action, button=f"{verb} / {'Onayla' if action == 'approve' else 'Reddet'}")
        row = decide_request(session, request_id, token, approve=action == "approve")
    except NotFoundError:
        return _page(404, "Not found", "This link is not valid.")
    except DecisionError as exc:
        return _page(409, "Already decided", f"Nothing changed: {exc}.")
    except GoneError:
        return _page(410, "Expired", "The request has expired.")
    if row.status == "approved":
        return _page(200, "Approved / Onaylandı", "The requesting client can now collect its key.")
    return _page(200, "Refused / Reddedildi", "No key will be issued for this request.")
