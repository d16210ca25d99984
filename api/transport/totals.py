"""Collection totals remembered per data version: counting a large filtered set is the costliest part
of a list page, and a total only changes when the data behind it does."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from api.context import this_app
from api.transport.paging import filters_digest

MAX_ENTRIES = 4096


class TotalCache:
    """A bounded, thread-safe map from (data version, filters) to the total; oldest entries leave first."""

    def __init__(self, max_entries: int = MAX_ENTRIES):
        self._entries: OrderedDict[tuple[str, str], int] = OrderedDict()
        self._lock = threading.Lock()
        self.max_entries = max_entries

    def get(self, version: str, filters: dict[str, Any]) -> int | None:
        key = (version, filters_digest(filters))
        with self._lock:
            total = self._entries.get(key)
            if total is not None:
                self._entries.move_to_end(key)
            return total

    def put(self, version: str, filters: dict[str, Any], total: int) -> None:
        with self._lock:
            self._entries[(version, filters_digest(filters))] = total
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


def totals() -> TotalCache:
    return this_app().extensions["gosterge.totals"]
