"""What each index endpoint breaks its statistics down by (public-procurement-api.md, "Allowed
`dimension` values per endpoint"), keyed by the endpoint's kind."""

from __future__ import annotations

INDEX_DIMENSIONS: dict[str, list[str]] = {
    "competition": ["overall", "province", "sector", "procedure", "authority-type"],
    "concentration": ["overall", "province", "sector"],
    "direct": ["overall", "province", "sector", "authority-type"],
    "localization": ["overall", "province", "sector"],
}
