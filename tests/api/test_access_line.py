"""The access line is the JSON object of its fields, exactly as `json.dumps` writes it (ensure_ascii
off), whatever text a client put in the path, the query or its address."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from api.logs import access_line

TEXT = st.text()  # any code point: quotes, backslashes, control characters, separators, surrogates
OPTIONAL_TEXT = st.one_of(st.none(), TEXT)


@settings(max_examples=500)
@given(request_id=OPTIONAL_TEXT, method=TEXT, path=TEXT, query=TEXT, status=st.integers(100, 599),
       ms=st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(lambda x: round(x, 2)),
       key_id=st.one_of(st.none(), st.integers(min_value=0, max_value=2**63)), remote=OPTIONAL_TEXT)
def test_the_access_line_is_json_dumps_of_its_fields(request_id, method, path, query, status, ms, key_id, remote):
    fields = {"request_id": request_id, "method": method, "path": path, "query": query, "status": status,
              "ms": ms, "key_id": key_id, "remote": remote}
    line = access_line(**fields)
    assert line == json.dumps(fields, ensure_ascii=False)
    assert json.loads(line) == fields


def test_a_line_of_a_request_without_key_or_id():
    assert access_line(None, "GET", "/v1/health", "", 200, 0.5, None, None) == (
        '{"request_id": null, "method": "GET", "path": "/v1/health", "query": "", "status": 200, "ms": 0.5, '
        '"key_id": null, "remote": null}')
