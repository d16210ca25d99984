"""Problems recorded by parts below the API (an upload's outcome, say) and shown later by it: the
slug, title, status and detail of RFC 9457, kept as JSON in the store. The API alone turns a slug
into the problem's `type` URL (api/problems.py), so the base URL is configured in one place."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ProblemRecord:
    status: int
    slug: str
    title: str
    detail: str
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"slug": self.slug, "title": self.title, "status": self.status, "detail": self.detail,
                           **self.extra}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> ProblemRecord:
        data = json.loads(text)
        return cls(status=data.pop("status"), slug=data.pop("slug"), title=data.pop("title"),
                   detail=data.pop("detail", ""), extra=data)


def refused(detail: str, **extra: Any) -> ProblemRecord:
    """A release refused by the loader: a 400 listing every problem, as for a bad request."""
    return ProblemRecord(400, "invalid_parameters", "Invalid parameters", detail, extra)


def internal(detail: str) -> ProblemRecord:
    return ProblemRecord(500, "internal_error", "Internal error", detail)
