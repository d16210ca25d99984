"""How an operation is declared: one decorator for every operation of the API, keyed or public.

    area = Area(Blueprint("news", __name__, url_prefix="/v1/finance-news"), "Finance news", api="finance-news")

    @area.get("/articles", cost=1, params=ARTICLE_PARAMS, response_schema="NewsArticlePage")
    def list_news_articles(values: dict[str, Any]) -> Reply:
        '''The summary line
        The description.'''

A keyed operation runs behind the guard (api/guard.py: 401 → 403 → 429 → 400 → 402 → answer) and its
handler gets the parsed parameters; a public one (no key: sign-up, probes, this document) is checked
against its rate limits (`limits`, flask-limiter's decorators), then parsed the same way. Query
parameters, a JSON `body` or a `form`, and path parameters are all parsed from the declaration
(api/declared.py) before the handler runs, and the document's parameters and request body are built
from the same declaration. Each area keeps its own operations; `install` registers an app's areas, and the OpenAPI
document describes the operations of the app it is built for."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask

from api.bodies import Field, form_body_schema, request_body_schema
from api.guard import guarded_view, public_view
from api.operations import OPERATIONS, Operation, Outcome
from api.params import FORMAT, Check, Param
from store.keys import Caller


@dataclass
class Area:
    """One blueprint and the operations declared on it. Keyed operations belong to `api` (the key
    must hold it); `data_version` names the version of the data their GET answers derive from, so
    answers can be remembered per version (api/answers.py)."""

    blueprint: Blueprint
    tag: str
    api: str = ""
    data_version: Callable[[Caller], str] | None = None
    operations: list[Operation] = field(default_factory=list)

    def get(self, rule: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return self.route("GET", rule, **options)

    def post(self, rule: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return self.route("POST", rule, **options)

    def route(self, method: str, rule: str, *, public: bool = False, params: Iterable[Param] = (),
              checks: Iterable[Check] = (), path_params: Iterable[Param] = (), outcomes: Iterable[Outcome] = (),
              problems: Iterable[int] = (), extra_statuses: Iterable[int] = (), required: Iterable[str] = (),
              body: Iterable[Field] = (), form: Iterable[Param] = (), limits: Iterable[Any] = (),
              **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Declare the decorated function as the operation `method rule`. Its docstring's first line
        is the summary, the rest the description; its name is the operation id and the endpoint."""
        params, body, form = tuple(params), tuple(body), tuple(form)
        if body or form:  # the document's request body, from the same fields that parse it
            options["request_body"] = request_body_schema(body) if body else form_body_schema(form)
        if not public and any(p.name == "cursor" for p in params):
            params = (*params, FORMAT)  # every paged collection also answers as CSV

        def decorator(handler: Callable[..., Any]) -> Callable[..., Any]:
            summary, description = _summary_and_description(handler)
            operation = Operation(
                method=method, path=(self.blueprint.url_prefix or "") + rule, operation_id=handler.__name__,
                tag=self.tag, summary=summary.strip(), description=description.strip(), public=public,
                api=self.api, params=params, checks=tuple(checks), path_params=tuple(path_params),
                outcomes=tuple(outcomes), problems=tuple(problems), extra_statuses=tuple(extra_statuses),
                required=frozenset(required), body=body, form=form, **options)
            self.operations.append(operation)
            if public:
                view = public_view(operation, handler, tuple(limits))
            else:
                view = guarded_view(operation, handler, data_version=self.data_version)
            self.blueprint.add_url_rule(rule, endpoint=handler.__name__, view_func=view, methods=[method])
            return handler

        return decorator


def _summary_and_description(handler: Callable[..., Any]) -> tuple[str, str]:
    """The docstring's first line, and the rest with its lines joined into paragraphs (the document's
    text does not depend on where the source wraps)."""
    summary, _, rest = inspect.cleandoc(handler.__doc__ or "").partition("\n")
    paragraphs = [" ".join(line.strip() for line in paragraph.splitlines()) for paragraph in rest.strip().split("\n\n")]
    return summary.strip(), "\n\n".join(p for p in paragraphs if p)


def install(app: Flask, *areas: Area) -> None:
    """Register the areas' blueprints; the app's document describes exactly their operations."""
    operations = app.extensions.setdefault(OPERATIONS, [])
    for area in areas:
        app.register_blueprint(area.blueprint)
        operations.extend(area.operations)

