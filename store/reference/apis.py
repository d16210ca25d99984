"""The APIs a key may be allowed to call."""

from __future__ import annotations

APIS = ("finance-news", "public-procurement")
