"""Examples of every answer and problem, recorded from the demo data by docs/openapi_examples.py into
api/data/openapi-examples.json, and placed in the OpenAPI document beside their schemas (a test
validates each against its schema, so they stay true)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

EXAMPLES_FILE = Path(__file__).parent.parent / "data" / "openapi-examples.json"
PROBLEM_MEDIA_TYPE = "application/problem+json"


@cache
def recorded_examples() -> dict[str, Any]:
    """{"operations": {operationId: {status: {"summary", "value"}}}, "problems": {slug: body}}."""
    return json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))


def _problem_examples(status: str, problem_base: str) -> dict[str, Any]:
    # The recorded `type` carries the base of the recording; the document shows this server's.
    return {slug: {"summary": body["title"], "value": {**body, "type": f"{problem_base.rstrip('/')}/{slug}"}}
            for slug, body in recorded_examples()["problems"].items() if str(body["status"]) == status}


def add_examples(document: dict[str, Any], *, problem_base: str) -> None:
    """Put the recorded examples into the document's responses, by operation and status."""
    answers = recorded_examples()["operations"]
    for operations in document["paths"].values():
        for operation in operations.values():
            recorded = answers.get(operation.get("operationId"), {})
            for status, response in operation.get("responses", {}).items():
                for media, content in response.get("content", {}).items():
                    if media == PROBLEM_MEDIA_TYPE:
                        examples = _problem_examples(status, problem_base)
                    elif status in recorded and "json" in media:  # the recording is the JSON answer
                        examples = {"demo": recorded[status]}
                    else:
                        continue
                    if examples:
                        content["examples"] = examples
