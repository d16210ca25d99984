"""/v1/public-procurement/digests/…: the pages behind the links of the watchlist mails, confirming a
digest's address and unsubscribing it, with no key (the link's token is the secret). Not under
/watchlists/, where `/watchlists/<id>` would match them too (and offer its DELETE there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, render_template_string

from api.areas import Area
from api.context import this_app, this_request
from api.db import db_session
from api.limits import limiter
from api.operations import Outcome
from api.params import enum_param, schema_param
from api.problems import InvalidParameters, Problem
from api.routes.accounts import PAGE_POLICY
from api.watchmail import CONFIRM_PATH, UNSUBSCRIBE_PATH
from store.errors import NotFoundError
from store.models import Watchlist
from store.watchlists import (
    TokenUsedError,
    check_confirm_token,
    check_unsubscribe_token,
    confirm,
    unsubscribe,
)

PREFIX = "/v1/public-procurement"
area = Area(Blueprint("digest_links", __name__, url_prefix=PREFIX), "Watchlists", api="public-procurement")
CONFIRM, UNSUBSCRIBE = CONFIRM_PATH.removeprefix(PREFIX), UNSUBSCRIBE_PATH.removeprefix(PREFIX)


# The pages behind the links of the mails: no key (the token is the secret), GET only shows a button.
TOKEN = schema_param("token", {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_-]+$"},
                     "The secret of the mail's link.")
CONFIRM_FORM = enum_param("confirm", ["yes"], "The page's button.")
ONE_CLICK = enum_param("List-Unsubscribe", ["One-Click"], "`One-Click` (RFC 8058), as the page's button and mail "
                       "clients send it.")
PAGE = """<!doctype html><html lang="tr"><meta charset="utf-8"><title>Gösterge</title>
<body style="font-family:sans-serif;max-width:36em;margin:3em auto">
<h1>{{ heading_tr }}</h1><p>{{ text_tr }}</p><h2 lang="en">{{ heading_en }}</h2><p lang="en">{{ text_en }}</p>
{% if field %}<form method="post"><input type="hidden" name="{{ field }}" value="{{ value }}">
<button type="submit">{{ button }}</button></form>{% endif %}</body></html>"""


def _page(status: int, tr: tuple[str, str], en: tuple[str, str], **form: str) -> Response:
    html = render_template_string(PAGE, heading_tr=tr[0], text_tr=tr[1], heading_en=en[0], text_en=en[1],
                                  field=form.get("field"), value=form.get("value"), button=form.get("button"))
    response = Response(html, status=status, mimetype="text/html")
    # The link carries a secret: no framing, no Referer, no cache (as the account decision page).
    response.headers.update({"Content-Security-Policy": PAGE_POLICY, "Referrer-Policy": "no-referrer",
                             "Cache-Control": "no-store"})
    return response


def _link_rate() -> str:
    return this_app().config["DECISION_RATE_PER_ADDRESS"]


link_limit = limiter.shared_limit(_link_rate, scope="watchlist-links",
                                  key_func=lambda: f"watchlist-links:{this_request().remote_addr}")
PAGE_ANSWERS = [Outcome(status, text, {"type": "string"}, "text/html") for status, text in (
    (200, "The page"), (400, "Incomplete link"), (404, "Not a valid link"), (410, "Already done"))]


def _problem_page(problem: Problem) -> Response:
    return _page(400 if isinstance(problem, InvalidParameters) else 404,
                 ("Eksik bağlantı", "Bağlantı eksik; e-postadaki bağlantıyı yeniden açın."),
                 ("Incomplete link", "The link is incomplete; open it from the e-mail again."))


NOT_VALID = (("Geçersiz bağlantı", "Bu bağlantı geçerli değil."), ("Not found", "This link is not valid."))


def _token_page(token: str, check: Callable[[Any, str], Watchlist], act: Callable[[Any, str], Watchlist],
                shown: Callable[[Watchlist], Response], done: Callable[[Watchlist], Response]) -> Response:
    session = db_session()
    try:
        if this_request().method == "GET":
            return shown(check(session, token))
        session.commit()  # end the read snapshot: what follows writes
        row = act(session, token)
        session.commit()
        return done(row)
    except NotFoundError:
        return _page(404, *NOT_VALID)
    except TokenUsedError:
        return _page(410, ("Zaten yapıldı", "Bu bağlantı daha önce kullanıldı; değişen bir şey yok."),
                     ("Already done", "This link was used already; nothing changed."))


def _confirm(values: dict[str, Any]) -> Response:
    return _token_page(
        values["token"], check_confirm_token, confirm,
        lambda row: _page(200, ("Adresi onaylayın", f"\"{row.name}\" izleme listesinin haftalık özeti {row.notify} "
                                "adresine gönderilecek. Onaylamak için düğmeye basın."),
                          ("Confirm the address", f"The weekly digest of the watchlist \"{row.name}\" will go to "
                           f"{row.notify}. Press the button to confirm."),
                          field="confirm", value="yes", button="Onayla / Confirm"),
        lambda row: _page(200, ("Onaylandı", f"\"{row.name}\" özetleri bu adrese gönderilecek."),
                          ("Confirmed", f"The digests of \"{row.name}\" will be sent to this address.")))


def _unsubscribe(values: dict[str, Any]) -> Response:
    return _token_page(
        values["token"], check_unsubscribe_token, unsubscribe,
        lambda row: _page(200, ("Abonelikten çık", f"\"{row.name}\" izleme listesinin özetleri {row.notify} adresine "
                                "artık gönderilmesin mi? Düğmeye basın."),
                          ("Unsubscribe", f"Stop sending the digests of the watchlist \"{row.name}\" to "
                           f"{row.notify}? Press the button."),
                          field="List-Unsubscribe", value="One-Click", button="Abonelikten çık / Unsubscribe"),
        lambda row: _page(200, ("Abonelikten çıkıldı", f"\"{row.name}\" için bu adrese başka posta gönderilmeyecek."),
                          ("Unsubscribed", f"No more mail will be sent to this address for \"{row.name}\".")))


@area.get(CONFIRM, public=True, params=[TOKEN], required=["token"], outcomes=PAGE_ANSWERS,
          problems=[429], limits=[link_limit], problem_page=_problem_page)
def confirm_watchlist_page(values: dict[str, Any]) -> Response:
    """The page behind the confirmation mail's link (HTML, Turkish then English): its button confirms
    Opening the link only shows the page, so a mail scanner that follows links confirms nothing. A used
    link is a 410 page, an unknown one a 404 page."""
    return _confirm(values)


@area.post(CONFIRM, public=True, params=[TOKEN], required=["token"], form=[CONFIRM_FORM],
           outcomes=PAGE_ANSWERS, problems=[429], limits=[link_limit], problem_page=_problem_page)
def confirm_watchlist(values: dict[str, Any]) -> Response:
    """The page behind the confirmation mail's link (HTML, Turkish then English): its button confirms
    The page's button: confirms the address; from the next release on, its digests are sent."""
    return _confirm(values)


@area.get(UNSUBSCRIBE, public=True, params=[TOKEN], required=["token"], outcomes=PAGE_ANSWERS,
          problems=[429], limits=[link_limit], problem_page=_problem_page)
def unsubscribe_watchlist_page(values: dict[str, Any]) -> Response:
    """The page behind a digest's unsubscribe link (HTML, Turkish then English): its button unsubscribes
    Opening the link only shows the page, so a mail scanner that follows links unsubscribes nothing."""
    return _unsubscribe(values)


@area.post(UNSUBSCRIBE, public=True, params=[TOKEN], required=["token"], form=[ONE_CLICK],
           outcomes=PAGE_ANSWERS, problems=[429], limits=[link_limit], problem_page=_problem_page)
def unsubscribe_watchlist(values: dict[str, Any]) -> Response:
    """The page behind a digest's unsubscribe link (HTML, Turkish then English): its button unsubscribes
    The page's button and mail clients' one-click unsubscribe (RFC 8058: a POST of
    `List-Unsubscribe=One-Click`): no digest is sent to the address for this watchlist after it."""
    return _unsubscribe(values)
