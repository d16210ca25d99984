"""What an operation is: the declaration every operation of the API is made from (api/areas.py),
read by the guard (api/guard.py) and by the OpenAPI document (api/description/openapi.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response

from api.bodies import Field
from api.context import this_app
from api.params import Check, Param
from api.problems import Problem

OPERATIONS = "gosterge.operations"


@dataclass(frozen=True)
class Reply:
    """What a keyed handler returns: the JSON body and the data version it was read from."""

    body: str
    version: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """One documented answer of a public operation: status, description and content."""

    status: int
    description: str
    schema: dict[str, Any] | None = None
    media_type: str = "application/json"
    headers: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    """Everything the API knows about one operation: how it is guarded and what the document says."""

    method: str
    path: str  # Flask's rule, with the blueprint's prefix
    operation_id: str
    tag: str
    summary: str
    description: str
    public: bool = False
    api: str = ""
    cost: int = 0
    # A cost that depends on what is asked for (a release file's): how it is set, for the document.
    cost_rule: str = ""
    # The handler answers with a Response of its own (a file, api/transport/files.py) and charges
    # what that answer costs itself (api/guard.py `charge`).
    streamed: bool = False
    params: tuple[Param, ...] = ()
    checks: tuple[Check, ...] = ()
    path_params: tuple[Param, ...] = ()
    response_schema: str = ""
    extra_statuses: tuple[int, ...] = ()
    links: dict[str, Any] = field(default_factory=dict)
    request_body: dict[str, Any] | None = None  # derived from `body` or `form`; written only for a file upload
    body: tuple[Field, ...] = ()  # the fields of a JSON body
    form: tuple[Param, ...] = ()  # the fields of a form body (application/x-www-form-urlencoded), all required
    success_status: int = 200
    media_type: str = "application/json"
    # Public operations: their answers and the problems they may send, as documented.
    outcomes: tuple[Outcome, ...] = ()
    problems: tuple[int, ...] = ()
    required: frozenset[str] = frozenset()  # query parameters the operation cannot do without
    # A public page (HTML) answers its 400 and 404 as pages rather than problem documents.
    problem_page: Callable[[Problem], Response] | None = None

    @property
    def paid(self) -> bool:
        return bool(self.cost or self.cost_rule)

    @property
    def paged(self) -> bool:
        """A paged collection (it takes a cursor) also answers as CSV."""
        return any(p.name == "cursor" for p in self.params)


def app_operations(app: Flask | None = None) -> list[Operation]:
    """The operations `app` (by default the current one) serves, in the order they were installed."""
    return (app or this_app()).extensions[OPERATIONS]


def json_body(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
