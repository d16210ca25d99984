"""Which years the source covers completely, for each index endpoint: the one place a reader of the
statistics learns that a year is partial (public-procurement-api.md, "General facts" 3 and 4).

Competition results are robust for 2019 to 2024, and result details for 2025 and 2026 are partial in
the source; concentration and local-supplier shares come from the same award results. For direct
procurement 2025 is the reference year and earlier years are incomplete. A year outside its
statistic's complete span is partial: shown, but not compared with a complete year. The API serves
these spans in `/datasets` (`completeYears`).
"""

from __future__ import annotations

# index endpoint kind -> (first complete year, last complete year)
COMPLETE_YEARS: dict[str, tuple[int, int]] = {
    "competition": (2019, 2024),
    "concentration": (2019, 2024),
    "localization": (2019, 2024),
    "direct": (2025, 2025),
}
