"""Request bodies: JSON objects checked field by field, every problem listed at once (as for parameters)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from api.context import this_request
from api.problems import InvalidParameters, UnsupportedMediaType
from store.plaintext import hidden_character
from store.reference.apis import APIS

MAX_JSON_BYTES = 16 * 1024
# The largest body any route but the release upload reads (a JSON object, the decision form); a
# larger one is refused with 413 before it is read.
MAX_BODY_BYTES = MAX_JSON_BYTES


class FieldErrors(ValueError):
    """The problems of the members of an object field, each named `field.member` in the 400."""

    def __init__(self, errors: list[tuple[str, str]]):
        super().__init__("; ".join(f"{name}: {message}" for name, message in errors))
        self.errors = errors


@dataclass(frozen=True)
class Field:
    name: str
    schema: dict[str, Any]
    parse: Callable[[Any], Any]
    required: bool = False
    default: Any = None


def parse_json(fields: list[Field]) -> dict[str, Any]:
    """The request's JSON object, each field parsed; 415 for another media type, 400 listing every bad field."""
    if this_request().mimetype != "application/json":
        raise UnsupportedMediaType("Send the body as application/json.")
    raw = this_request().get_data(cache=False)
    if len(raw) > MAX_JSON_BYTES:
        raise InvalidParameters([{"parameter": "body", "message": f"larger than {MAX_JSON_BYTES} bytes"}])
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError, and numbers past 4,300 digits
        raise InvalidParameters([{"parameter": "body", "message": f"not valid JSON: {exc}"}]) from None
    except RecursionError:
        raise InvalidParameters([{"parameter": "body", "message": "nested too deeply"}]) from None
    if not isinstance(data, dict):
        raise InvalidParameters([{"parameter": "body", "message": "must be a JSON object"}])
    known = {f.name: f for f in fields}
    errors = [{"parameter": name, "message": "unknown field"} for name in data if name not in known]
    values: dict[str, Any] = {}
    for f in fields:
        hidden = _hidden_character(data.get(f.name))
        if hidden is not None:
            errors.append({"parameter": f.name, "message": "must not contain controls, line separators or invisible "
                           f"characters ({hidden})"})
            continue
        if f.name not in data:
            if f.required:
                errors.append({"parameter": f.name, "message": "is required"})
            values[f.name] = f.default
            continue
        try:
            values[f.name] = f.parse(data[f.name])
        except FieldErrors as exc:
            errors += [{"parameter": f"{f.name}.{name}", "message": message} for name, message in exc.errors]
        except (ValueError, TypeError) as exc:
            errors.append({"parameter": f.name, "message": str(exc)})
    if errors:
        raise InvalidParameters(errors)
    return values


def _hidden_character(value: Any) -> str | None:
    """The first character no field has a use for (store/plaintext.py), in a string or list of them."""
    if isinstance(value, str):
        return hidden_character(value)
    if isinstance(value, list):
        return next(filter(None, map(_hidden_character, value)), None)
    return None


def request_body_schema(fields: list[Field] | tuple[Field, ...]) -> dict[str, Any]:
    """The OpenAPI requestBody of a JSON object with these fields."""
    schema = {"type": "object", "additionalProperties": False, "properties": {f.name: f.schema for f in fields},
              "required": [f.name for f in fields if f.required]}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def form_body_schema(fields: tuple[Any, ...]) -> dict[str, Any]:
    """The OpenAPI requestBody of a form (application/x-www-form-urlencoded) whose every field is required;
    `fields` are query-style parameters (api/params.py `Param`)."""
    schema = {"type": "object", "additionalProperties": False, "required": [f.name for f in fields],
              "properties": {f.name: {**f.schema, "description": f.description} for f in fields}}
    return {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": schema}}}


def whole_number(low: int, high: int) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        # JSON Schema counts 352.0 as an integer (a number with no fractional part), and so do clients
        # that write every number as a float.
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"must be a whole number from {low} to {high}")
        return value
    return parse


def api_names(value: Any) -> list[str]:
    if not isinstance(value, list) or not value or any(v not in APIS for v in value):
        raise ValueError(f"must be a non-empty list of: {', '.join(APIS)}")
    return sorted(set(value))


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def text(max_length: int) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if not isinstance(value, str) or len(value) > max_length:
            raise ValueError(f"must be text of at most {max_length} characters")
        return value
    return parse
