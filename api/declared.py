"""What a request sends, parsed by its operation's declaration (api/operations.py): query parameters,
a JSON or form body and path parameters, each by the rules the OpenAPI document is built from. Bad
or missing parameters and fields are one 400 listing every one; a path value no rule takes names
nothing, a 404."""

from __future__ import annotations

from typing import Any

from api.bodies import parse_json
from api.context import this_request
from api.operations import Operation
from api.params import Values, parse_args
from api.problems import InvalidParameters, NotFound


def parse_sent(operation: Operation) -> Values:
    """The query parameters and the body's fields, parsed together: one 400 names every bad one."""
    req = this_request()
    errors: list[dict[str, Any]] = []
    values = Values()
    try:
        values = parse_args(req.args.to_dict(flat=False), operation.params, checks=operation.checks,
                            required=operation.required)
    except InvalidParameters as problem:
        errors += problem.extra["errors"]
    fields: dict[str, Any] = {}
    try:
        if operation.body:
            fields = parse_json(list(operation.body))
        elif operation.form:
            fields = parse_args(req.form.to_dict(flat=False), operation.form,
                                required=[p.name for p in operation.form])
    except InvalidParameters as problem:
        errors += problem.extra["errors"]
    if errors:
        raise InvalidParameters(errors)
    values.update(fields)
    return values


def parse_path(operation: Operation, path_values: dict[str, Any]) -> dict[str, Any]:
    """The path's values by their declared rules; 404 for a value that names nothing."""
    parsed = dict(path_values)
    for rule in operation.path_params:
        raw = path_values[rule.name]
        try:
            parsed[rule.name] = rule.parse(raw)
        except ValueError:
            raise NotFound(f"No {rule.noun or rule.name} {raw!r}.") from None
    return parsed
