"""Declarative parameter rules: one description validates requests and feeds the OpenAPI document."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from api.problems import InvalidParameters
from api.transport.paging import Cursor, cursor_filters, decode_cursor, filters_digest

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
# Parameters every endpoint accepts without declaring them.
ALWAYS_ALLOWED = frozenset({"apikey"})
MAX_VALUE_CHARS = 500


@dataclass(frozen=True)
class Param:
    """One query parameter: its name, OpenAPI schema, description and parser (raises ValueError)."""

    name: str
    schema: dict[str, Any]
    description: str
    parse: Callable[[str], Any] = str
    default: Any = None
    filter: bool = True  # part of the filters a cursor is bound to
    examples: tuple[str, ...] = field(default_factory=tuple)
    # The schema as the document is built, where the accepted values depend on the data served
    # (the years of `period` end with the latest year of the release).
    current_schema: Callable[[], dict[str, Any]] | None = None
    noun: str = ""  # a path parameter: what its value names, for the 404 of a value that names nothing

    def document_schema(self) -> dict[str, Any]:
        return self.current_schema() if self.current_schema else self.schema


def enum_param(name: str, values: Iterable[str], description: str, default: str | None = None) -> Param:
    allowed = list(values)

    def parse(raw: str) -> str:
        if raw not in allowed:
            raise ValueError(f"must be one of: {', '.join(allowed)}")
        return raw

    schema: dict[str, Any] = {"type": "string", "enum": allowed}
    if default is not None:
        schema["default"] = default
    return Param(name, schema, description, parse, default)


def int_param(name: str, low: int, high: int, description: str, default: int | None = None) -> Param:
    def parse(raw: str) -> int:
        if not re.fullmatch(r"[+-]?\d{1,12}", raw.strip()):
            raise ValueError("must be a whole number")
        value = int(raw)
        if not low <= value <= high:
            raise ValueError(f"must be between {low} and {high}")
        return value

    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if default is not None:
        schema["default"] = default
    return Param(name, schema, description, parse, default)


def bool_param(name: str, description: str) -> Param:
    def parse(raw: str) -> bool:
        if raw not in ("true", "false"):
            raise ValueError("must be true or false")
        return raw == "true"

    return Param(name, {"type": "boolean"}, description, parse)


def list_param(name: str, description: str, item: Callable[[str], Any] = str, *, enum: list[str] | None = None,
               pattern: str | None = None) -> Param:
    """A comma-separated list; each item is parsed by `item`, empty items are an error."""

    def parse(raw: str) -> list[Any]:
        parts = [p.strip() for p in raw.split(",")]
        if any(not p for p in parts):
            raise ValueError("must be a comma-separated list without empty items")
        if enum is not None:
            bad = [p for p in parts if p not in enum]
            if bad:
                raise ValueError(f"unknown value(s) {', '.join(bad)}; allowed: {', '.join(enum)}")
        return list(dict.fromkeys(item(p) for p in parts))

    schema: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS}
    if enum is not None:  # the documented form: the ids, comma-separated
        alternatives = "|".join(enum)  # ids of letters and hyphens: nothing to escape
        pattern = f"^({alternatives})(,({alternatives}))*$"
    if pattern:
        schema["pattern"] = pattern
    return Param(name, schema, description, parse)


def string_param(name: str, description: str, parse: Callable[[str], Any] = str, *, pattern: str | None = None,
                 pattern_message: str = "does not have the documented form") -> Param:
    """A string; with `pattern`, the documented pattern is enforced too (`[0-9]` in Python's re matches
    ASCII digits only, so full-width or Arabic-Indic digits do not pass)."""
    schema: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS}
    if pattern:
        schema["pattern"] = pattern
        inner = parse

        def parse(raw: str) -> Any:
            if not re.fullmatch(pattern, raw):
                raise ValueError(pattern_message)
            return inner(raw)
    return Param(name, schema, description, parse)


# Whole-second rounding and a date's end must stay inside Python's calendar (years 1 to 9999).
EARLIEST_INSTANT = datetime(1, 1, 2, tzinfo=UTC)
LATEST_INSTANT = datetime(9999, 12, 30, tzinfo=UTC)


def parse_instant(raw: str, *, end_of_day: bool) -> datetime:
    """`YYYY-MM-DD` or an ISO 8601 time with an offset; a date alone covers the whole UTC day."""
    try:
        value = _instant(raw, end_of_day=end_of_day)
    except OverflowError:
        value = None
    if value is None or not EARLIEST_INSTANT <= value <= LATEST_INSTANT:
        raise ValueError("must lie between 0001-01-02 and 9999-12-30")
    return value


def _instant(raw: str, *, end_of_day: bool) -> datetime:
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", raw):
        day = date.fromisoformat(raw)
        start = datetime.combine(day, time.min, tzinfo=UTC)
        return start + timedelta(days=1, microseconds=-1) if end_of_day else start
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError("must be YYYY-MM-DD or an ISO 8601 UTC time such as 2026-01-31T12:00:00Z") from exc
    if value.tzinfo is None:
        raise ValueError("a time must carry its offset, e.g. Z for UTC")
    return value.astimezone(UTC)


# Every paged collection takes it (api/areas.py); the representation is chosen by
# api/transport/csvpages.py. Not a filter: a cursor from a JSON page carries on in CSV and back.
FORMAT = replace(enum_param("format", ["json", "csv", "csv-raw"],
                            "`csv` for the page's items as CSV (as `Accept: text/csv`); the paging headers are "
                            "the same. A text cell that a spreadsheet would run as a formula (starting with "
                            "`=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, as the "
                            "dashboard's downloads do; `csv-raw` gives every cell exactly as served in JSON. "
                            "Default: JSON, or CSV when `Accept` prefers `text/csv`."), filter=False)
LIMIT = replace(int_param("limit", 1, MAX_LIMIT, "Items per page.", default=DEFAULT_LIMIT), filter=False)


def paging(valid_position: Callable[[Any], bool]) -> tuple[Param, Param]:
    """`limit` and a `cursor` whose decoded position must pass `valid_position` (the endpoint's key shape)."""

    def parse(raw: str) -> Cursor:
        cursor = decode_cursor(raw)
        if not valid_position(cursor.position):
            raise ValueError("is not a cursor of this endpoint")
        return cursor

    cursor = Param("cursor", {"type": "string", "minLength": 1, "maxLength": MAX_VALUE_CHARS,
                              "pattern": "^[A-Za-z0-9_-]+$"},
                   "The `next_cursor` of the previous page, sent with the same filters.", parse, filter=False)
    return LIMIT, cursor

Check = Callable[["Values"], list[dict[str, str]]]


class Values(dict[str, Any]):
    """The parsed parameters of a request, by name, with the rules they were parsed by (a page's
    cursor is bound to the values of the rules marked as filters) and the names that failed (a check
    that reads one of them has nothing to check: the name is listed already)."""

    params: tuple[Param, ...] = ()
    failed: frozenset[str] = frozenset()


def parse_args(args: Mapping[str, list[str]], params: Iterable[Param], *, checks: Iterable[Check] = (),
               required: Iterable[str] = ()) -> Values:
    """Parse query arguments (name -> every value given) or raise one 400 listing every problem: every
    bad or missing parameter, and what the checks across parameters find in the others."""
    rules = {p.name: p for p in params}
    values = Values({p.name: p.default for p in rules.values()})
    values.params = tuple(rules.values())
    errors = [error for name, given in args.items() if name not in ALWAYS_ALLOWED
              for error in _parse_one(name, given, rules, values)]
    errors += [{"parameter": name, "message": "is required"} for name in required if name not in args]
    values.failed = frozenset(e["parameter"] for e in errors)
    for check in checks:
        errors += [e for e in check(values) if e["parameter"] not in values.failed]
    if not errors and values.get("cursor") is not None:
        if values["cursor"].filters_digest != filters_digest(cursor_filters(values, rules.values())):
            errors.append({"parameter": "cursor", "message": "was issued for other filters; send the same filters"})
    if errors:
        raise InvalidParameters(errors)
    return values


def _parse_one(name: str, given: list[str], rules: Mapping[str, Param], values: Values) -> list[dict[str, str]]:
    """Parse one parameter into `values`; its problem, if any."""
    rule = rules.get(name)
    if rule is None:
        allowed = ", ".join(rules) or "none"
        return [{"parameter": name, "message": f"unknown parameter; this endpoint takes: {allowed}"}]
    if len(given) != 1:
        return [{"parameter": name, "message": "given more than once"}]
    raw = given[0]
    if len(raw) > MAX_VALUE_CHARS:
        return [{"parameter": name, "message": f"longer than {MAX_VALUE_CHARS} characters"}]
    if raw == "":
        return [{"parameter": name, "message": "is empty"}]
    if any(ord(c) < 32 or ord(c) == 127 for c in raw):
        # PostgreSQL refuses NUL in text; no parameter has a use for control characters.
        return [{"parameter": name, "message": "must not contain control characters"}]
    try:
        values[name] = rule.parse(raw)
    except ValueError as exc:
        return [{"parameter": name, "message": str(exc)}]
    return []


def schema_param(name: str, schema: dict[str, Any], description: str, noun: str = "") -> Param:
    """A parameter parsed by its documented schema alone: a whole number within its bounds, or text
    of its pattern and at most its `maxLength`."""

    def parse(raw: str) -> Any:
        if schema["type"] == "integer":
            if not re.fullmatch(r"[0-9]{1,10}", raw) or not schema["minimum"] <= int(raw) <= schema["maximum"]:
                raise ValueError(f"must be a whole number from {schema['minimum']} to {schema['maximum']}")
            return int(raw)
        if not re.fullmatch(schema["pattern"], raw) or len(raw) > schema.get("maxLength", MAX_VALUE_CHARS):
            raise ValueError("does not have the documented form")
        return raw

    return Param(name, schema, description, parse, noun=noun)


def path_param(name: str, schema: dict[str, Any], description: str, noun: str) -> Param:
    """A path parameter, parsed by its documented schema; a value outside it names no `noun` (the
    guard answers 404)."""
    return schema_param(name, schema, description, noun)
