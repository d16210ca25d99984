"""The raw query string, read without parsing it: whether it may name a parameter at all, so that a
request need not parse its query to learn that a parameter is absent."""

from __future__ import annotations


def may_name(query: str, name: str) -> bool:
    """Whether the raw query string may hold parameter `name` (a plain name): False only when parsing it
    certainly would not find it."""
    return name in query or "%" in query
