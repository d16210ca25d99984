"""The guard of every keyed operation: the order of checks from decisions.md in one place (401 → 403 →
429 → 400 → 402 → answer), then the answer with its ETag, credits, paging headers and representation."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from flask import Response
from sqlalchemy.orm import Session
from werkzeug.http import quote_etag

from api.answers import Answer, answers, compute_answer, request_target
from api.auth import authenticate, require_api
from api.context import extension, request_state, this_app, this_request
from api.db import close_session, db_session
from api.declared import parse_path, parse_sent
from api.keycache import callers
from api.limits import count_unkeyed_request, keyed_limit, refund_hit
from api.operations import Operation, Reply
from api.problems import InvalidParameters, NotFound, PaymentRequired, Problem, Unauthorized
from api.transport.compression import selected_etag
from api.transport.conditional import check_if_none_match, compute_etag, matches, not_modified
from api.transport.csvpages import CSV_MEDIA_TYPE, csv_columns, render_csv, wants_csv
from api.transport.headers import ApiResponse
from api.transport.pagelinks import page_headers, page_meta
from store.db import WRITES, session_scope
from store.errors import InsufficientCreditsError
from store.keys import Caller, get_credits

CREDITS_HEADER = "X-Credits-Remaining"


def guarded_view(operation: Operation, handler: Callable[..., Reply], *,
                 data_version: Callable[[Caller], str] | None = None) -> Callable[..., Response]:
    """The Flask view of a keyed operation: the checks in the order of decisions.md, then `handler`."""
    columns = csv_columns(operation.response_schema) if operation.paged else None

    def read(path_values: dict[str, Any]) -> Answer:
        values = parse_sent(operation)
        _check_credits(operation.cost)
        reply = handler(values, **parse_path(operation, path_values))
        return Answer(reply.body.encode(), compute_etag(reply.body, reply.version),
                      page_meta(reply.body) if operation.paged else None)

    def cache_key() -> tuple[str, str, str] | None:
        if data_version is None or answers() is None:
            return None
        # The version was read with the key, in the same snapshot as (or before) anything the handler
        # reads, so an entry never holds data older than its version says.
        return operation.operation_id, data_version(request_state().api_key), request_target()

    @keyed_limit
    def limited(**path_values: Any) -> Response:
        if operation.streamed:
            return _stream(operation, handler, path_values)
        if operation.method == "GET":
            return _answer(read, path_values, operation.cost, cache_key(), operation.media_type, columns)
        return _change(operation, handler, path_values)

    def view(**path_values: Any) -> Response:
        try:
            caller = authenticate()
        except Unauthorized:
            count_unkeyed_request()  # 429 once the client's address has spent the default rate
            raise
        try:
            require_api(caller, operation.api)
            return limited(**path_values)
        except Problem as problem:
            if operation.paid:  # every answer of a paid endpoint that knew the key says its credits
                problem.headers.setdefault(CREDITS_HEADER, str(request_state().api_key.credits))
            raise

    view.__name__ = operation.operation_id
    return view


def public_view(operation: Operation, handler: Callable[..., Response],
                limits: Sequence[Callable[[Callable[..., Response]], Callable[..., Response]]] = ()
                ) -> Callable[..., Response]:
    """The Flask view of a public operation: its rate limits (429), then its parameters and body
    (400) and path (404) parsed by its declaration, then `handler`; a page answers those as pages."""

    @functools.wraps(handler)
    def parsed(**path_values: Any) -> Response:
        try:
            values = parse_sent(operation)
            path = parse_path(operation, path_values)
        except (InvalidParameters, NotFound) as problem:
            if operation.problem_page is None:
                raise
            return operation.problem_page(problem)
        return handler(values, **path)

    view = parsed
    for limit in reversed(limits):  # the first one listed is checked first
        view = limit(view)
    return view


def _change(operation: Operation, handler: Callable[..., Reply], path_values: dict[str, Any]) -> Response:
    """A POST: parameters and body, then the handler, as one unit of work committed after it answered."""
    values = parse_sent(operation)
    # End the read transaction of the checks first: on SQLite a read snapshot cannot be upgraded to a
    # write once another writer (a release load, say) has committed.
    db_session().commit()
    reply = handler(values, **parse_path(operation, path_values))
    # What the handler wrote is committed here, after it returned an answer (an error rolls it back,
    # api/db.py).
    db_session().commit()
    callers().forget()  # it may have changed a key or the release: this worker reads them again
    return ApiResponse(reply.body, status=reply.status, mimetype="application/json", headers=reply.headers)


def _stream(operation: Operation, handler: Callable[..., Any], path_values: dict[str, Any]) -> Response:
    """An operation that answers with a file: parameters (400), then its path (404: the name decides
    the cost), then the handler, which charges what its answer costs with `charge`."""
    values = parse_sent(operation)
    response: Response = handler(values, **parse_path(operation, path_values))
    return response


def charge(cost: int, take: Callable[[Session], int | None]) -> dict[str, str]:
    """Run `take(session)`, which debits `cost` credits (the credits left) or finds nothing to charge
    (None), in a write transaction of its own; the credits header of the answer. 402 when the key
    holds fewer credits than `cost`: nothing is taken."""
    key = request_state().api_key
    close_session()  # the request's read snapshot ends first: on SQLite it could not become a write
    sessions = extension("gosterge.sessions")
    try:
        with session_scope(functools.partial(sessions, execution_options={WRITES: True})) as session:
            left = take(session)
    except InsufficientCreditsError:
        raise _payment_required(cost, get_credits(db_session(), key.id)) from None
    if left is None:
        return {CREDITS_HEADER: str(key.credits)}
    callers().note_credits(key.id, left)
    return {CREDITS_HEADER: str(left)}


def _check_credits(cost: int) -> None:
    key = request_state().api_key
    if cost and key.credits < cost:
        # The worker may remember fewer credits than the key holds (a top-up elsewhere): ask the store.
        credits = get_credits(db_session(), key.id)
        if credits < cost:
            raise _payment_required(cost, credits)


def _answer(read: Callable[[dict[str, Any]], Answer], path_values: dict[str, Any], cost: int,
            cache_key: tuple[str, str, str] | None, media_type: str, columns: list[str] | None) -> Response:
    check_if_none_match()  # 400, after the rate limit, as parameters are
    # `cache_key` is None when there is no cache or the area has no data version.
    cache = answers()
    answer = cache.get(cache_key) if cache is not None and cache_key is not None else None
    remembered = answer is not None
    if answer is None:
        # Parameters (400) and credits (402), in that order, then the handler.
        answer = compute_answer(cache_key, lambda: read(path_values))
    else:
        _check_credits(cost)  # a remembered answer had valid parameters: 402 is the next check
    req = this_request()
    key, method = request_state().api_key, req.method
    # A paid answer says the credits left after it, so a client sees the end coming before a 402.
    headers = {CREDITS_HEADER: str(key.credits)} if cost else {}
    body, media_type, etag = _representation(answer, media_type, columns, headers)
    if cost and method == "HEAD":
        return _free_head(media_type, headers)
    sent_etag = selected_etag(etag, len(body), media_type)
    if matches(sent_etag):
        # A 304 is free of the rate limit only when the worker answered it from memory for a real
        # ETag; `*` matches anything, so it would otherwise give unlimited, uncounted queries.
        if remembered and not req.if_none_match.star_tag:
            refund_hit()
        response = not_modified(sent_etag)
        response.headers.update(headers)
        return response
    if cost and method != "HEAD":  # HEAD is safe: it shows the headers and costs nothing
        # One statement (store/debits.py); the request's session, if it read anything, is given back
        # first: two connections per request would exhaust the pool under load.
        close_session()
        try:
            left = extension("gosterge.debits").take(key.id, cost)
        except InsufficientCreditsError:
            # Another request spent the last credits between the check above and this debit.
            raise _payment_required(cost, get_credits(db_session(), key.id)) from None
        callers().note_credits(key.id, left)
        headers[CREDITS_HEADER] = str(left)
    if answer.page is not None and method != "HEAD":
        # A free HEAD shows no count and no next page: walking the pages or reading the total would
        # answer "how many match" for nothing.
        headers.update(page_headers(*answer.page))
    # flask-compress adds `:gzip` to the ETag when it compresses (api/transport/compression.py).
    headers["ETag"] = quote_etag(etag)
    return ApiResponse(body, mimetype=media_type, headers=headers)


def _free_head(media_type: str, headers: dict[str, str]) -> Response:
    """HEAD of a paid operation: free (decisions.md), so it carries nothing measured from the paid body.
    No Content-Length (41 bytes means nothing matched), no ETag and no 304 for a guessed one, no
    compression (whether gzip is worth it depends on the length). An empty iterator is a body of
    unknown length: neither werkzeug nor flask-compress (COMPRESS_STREAMS off) measures it."""
    return ApiResponse(iter(()), mimetype=media_type, headers=headers)


def _representation(answer: Answer, media_type: str, columns: list[str] | None,
                    headers: dict[str, str]) -> tuple[bytes, str, str]:
    """Body, media type and ETag of the representation asked for: a paged answer is JSON or CSV by
    `format` or `Accept`; CSV is another representation, so it has another strong validator."""
    if columns is None:
        return answer.body, media_type, answer.etag
    headers["Vary"] = "Accept"
    chosen = wants_csv()
    if chosen is not None:
        return (render_csv(answer.body.decode(), columns, safe=chosen == "csv").encode(), CSV_MEDIA_TYPE,
                f"{answer.etag}-{chosen}")
    return answer.body, media_type, answer.etag


def _payment_required(cost: int, credits: int) -> PaymentRequired:
    # A 402 says the credits left, like every other answer of a paid endpoint.
    return PaymentRequired(
        f"This call costs {cost} credit(s); the key does not hold enough.",
        headers={CREDITS_HEADER: str(max(credits, 0))},
        credits_required=cost,
        upgrade_url=this_app().config["UPGRADE_URL"],
    )
