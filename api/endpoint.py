"""The guarded endpoint: the order of checks from decisions.md in one place; each operation it
registers is described in the catalogue the OpenAPI document is built from."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, g, request

from api.answers import Answer, answers, compute_answer, request_target
from api.auth import authenticate, require_api
from api.catalogue import REGISTRY, EndpointSpec
from api.compression import selected_etag
from api.conditional import compute_etag, matches, not_modified
from api.csvpages import CSV_MEDIA_TYPE, FORMAT, csv_columns, render_csv, wants_csv
from api.db import close_session, db_session
from api.keycache import callers
from api.limits import count_unkeyed_request, keyed_limit, refund_hit
from api.pagelinks import page_headers, page_meta
from api.params import Check, Param, parse_args
from api.problems import PaymentRequired, Unauthorized
from store.errors import InsufficientCreditsError
from store.keys import Caller, get_credits, take_credits

CREDITS_HEADER = "X-Credits-Remaining"


@dataclass(frozen=True)
class Reply:
    """What a handler returns: the JSON body and the data version it was read from."""

    body: str
    version: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)




@dataclass
class Area:
    """One blueprint with the API its endpoints belong to. `data_version` names the version of the
    data its GET answers derive from; with it, answers are remembered per version (api/answers.py)."""

    blueprint: Blueprint
    api: str
    tag: str
    specs: list[EndpointSpec] = field(default_factory=list)
    data_version: Callable[[Caller], str] | None = None

    def get(self, rule: str, **options: Any) -> Callable[[Callable[..., Reply]], Callable[..., Response]]:
        return self.operation("GET", rule, **options)

    def post(self, rule: str, **options: Any) -> Callable[[Callable[..., Reply]], Callable[..., Response]]:
        return self.operation("POST", rule, cost=0, **options)

    def operation(
        self,
        method: str,
        rule: str,
        *,
        cost: int,
        params: Iterable[Param] = (),
        checks: Iterable[Check] = (),
        response_schema: str,
        path_params: Iterable[Param] = (),
        extra_statuses: Iterable[int] = (),
        links: dict[str, Any] | None = None,
        request_body: dict[str, Any] | None = None,
        success_status: int = 200,
        media_type: str = "application/json",
    ) -> Callable[[Callable[..., Reply]], Callable[..., Response]]:
        """Register a keyed operation: the order of checks of decisions.md, then the handler."""
        params = tuple(params)
        checks = tuple(checks)
        # A paged collection (it takes a cursor) also answers as CSV; its item columns come from its schema.
        paged = any(p.name == "cursor" for p in params)
        if paged:
            params = (*params, FORMAT)
        columns = csv_columns(response_schema) if paged else None

        def decorator(handler: Callable[..., Reply]) -> Callable[..., Response]:
            doc = (handler.__doc__ or "").strip()
            summary, _, description = doc.partition("\n")
            spec = EndpointSpec(
                path=(self.blueprint.url_prefix or "") + rule,
                api=self.api,
                cost=cost,
                summary=summary.strip(),
                description=description.strip(),
                params=params,
                response_schema=response_schema,
                tag=self.tag,
                path_params=tuple(path_params),
                extra_statuses=tuple(extra_statuses),
                operation_id=handler.__name__,
                links=links or {},
                method=method,
                request_body=request_body,
                success_status=success_status,
                media_type=media_type,
            )
            REGISTRY.append(spec)

            def read(path_values: dict[str, Any]) -> Answer:
                values = parse_args(request.args.to_dict(flat=False), params, checks=checks)
                _check_credits(cost)
                reply = handler(values, **path_values)
                return Answer(reply.body, compute_etag(reply.body, reply.version),
                              page_meta(reply.body) if paged else None)

            @keyed_limit
            def limited(**path_values: Any) -> Response:
                if method == "GET":
                    return _answer(read, path_values, cost, self._cache_key(handler.__name__), media_type, columns)
                values = parse_args(request.args.to_dict(flat=False), params, checks=checks)
                # End the read transaction of the checks first: on SQLite a read snapshot cannot be
                # upgraded to a write once another writer (a release load, say) has committed.
                db_session().commit()
                reply = handler(values, **path_values)
                # One unit of work per request that changes something: what the handler wrote is
                # committed here, after it returned an answer (an error rolls it back, api/db.py).
                db_session().commit()
                callers().forget()  # it may have changed a key or the release: this worker reads them again
                return Response(reply.body, status=reply.status, mimetype="application/json", headers=reply.headers)

            def view(**path_values: Any) -> Response:
                try:
                    caller = authenticate()
                except Unauthorized:
                    count_unkeyed_request()  # 429 once the client's address has spent the default rate
                    raise
                require_api(caller, self.api)
                return limited(**path_values)

            view.__name__ = handler.__name__
            self.blueprint.add_url_rule(rule, endpoint=handler.__name__, view_func=view, methods=[method])
            return view

        return decorator

    def _cache_key(self, operation: str) -> tuple[str, str, str] | None:
        if self.data_version is None or answers() is None:
            return None
        # The version was read with the key, in the same snapshot as (or before) anything the handler
        # reads, so an entry never holds data older than its version says.
        return operation, self.data_version(g.api_key), request_target()


def _check_credits(cost: int) -> None:
    if cost and g.api_key.credits < cost:
        # The worker may remember fewer credits than the key holds (a top-up elsewhere): ask the store.
        credits = get_credits(db_session(), g.api_key.id)
        if credits < cost:
            raise _payment_required(cost, credits)


def _answer(read: Callable[[dict[str, Any]], Answer], path_values: dict[str, Any], cost: int,
            cache_key: tuple[str, str, str] | None, media_type: str, columns: list[str] | None) -> Response:
    # `cache_key` is None when there is no cache or the area has no data version.
    answer = answers().get(cache_key) if cache_key is not None else None
    remembered = answer is not None
    if answer is None:
        # Parameters (400) and credits (402), in that order, then the handler.
        answer = compute_answer(cache_key, lambda: read(path_values))
    else:
        _check_credits(cost)  # a remembered answer had valid parameters: 402 is the next check
    key, method = g.api_key, request.method  # bound once: each lookup through Flask's proxies costs
    # A paid answer says the credits left after it, so a client sees the end coming before a 402.
    headers = {CREDITS_HEADER: str(key.credits)} if cost else {}
    body, media_type, etag = _representation(answer, media_type, columns, headers)
    sent_etag = selected_etag(etag, len(body.encode("utf-8")), media_type)
    if matches(sent_etag):
        # A 304 is free of the rate limit only when the worker answered it from memory for a real
        # ETag; `*` matches anything, so it would otherwise give unlimited, uncounted queries.
        if remembered and not request.if_none_match.star_tag:
            refund_hit()
        response = not_modified(sent_etag)
        response.headers.update(headers)
        return response
    if cost and method != "HEAD":  # HEAD is safe: it shows the headers and costs nothing
        # One statement on a pooled connection; the request's session, if it read anything, is given
        # back first: two connections per request would exhaust the pool under load.
        close_session()
        try:
            left = take_credits(current_app.extensions["gosterge.engine"], key.id, cost)
        except InsufficientCreditsError:
            # Another request spent the last credits between the check above and this debit.
            raise _payment_required(cost, get_credits(db_session(), key.id)) from None
        callers().note_credits(key.id, left)
        headers[CREDITS_HEADER] = str(left)
    if answer.page is not None and method != "HEAD":
        # A free HEAD shows no count and no next page: walking the pages or reading the total would
        # answer "how many match" for nothing.
        headers.update(page_headers(*answer.page))
    response = Response(body, mimetype=media_type, headers=headers)
    response.set_etag(etag)  # flask-compress adds `:gzip` when it compresses (api/compression.py)
    return response


def _representation(answer: Answer, media_type: str, columns: list[str] | None,
                    headers: dict[str, str]) -> tuple[str, str, str]:
    """Body, media type and ETag of the representation asked for: a paged answer is JSON or CSV by
    `format` or `Accept`; CSV is another representation, so it has another strong validator."""
    if columns is None:
        return answer.body, media_type, answer.etag
    headers["Vary"] = "Accept"
    chosen = wants_csv()
    if chosen is not None:
        return (render_csv(answer.body, columns, safe=chosen == "csv"), CSV_MEDIA_TYPE,
                f"{answer.etag}-{chosen}")
    return answer.body, media_type, answer.etag


def _payment_required(cost: int, credits: int) -> PaymentRequired:
    # A 402 says the credits left, like every other answer of a paid endpoint.
    return PaymentRequired(
        f"This call costs {cost} credit(s); the key does not hold enough.",
        headers={CREDITS_HEADER: str(max(credits, 0))},
        credits_required=cost,
        upgrade_url=current_app.config["UPGRADE_URL"],
    )


def json_body(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
