"""The dashboard's settings, read from the environment in this one place."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class DashboardSettings:
    api_url: str
    api_key: str
    timeout_seconds: float
    # How many reverse proxies in front of the dashboard may name the visitor in X-Forwarded-For.
    trusted_proxies: int = 0


def load_settings() -> DashboardSettings:
    return DashboardSettings(
        api_url=os.environ.get("GOSTERGE_API_URL", "http://127.0.0.1:8000").rstrip("/"),
        api_key=os.environ.get("GOSTERGE_API_KEY", ""),
        timeout_seconds=float(os.environ.get("GOSTERGE_API_TIMEOUT_SECONDS", "15")),
        trusted_proxies=int(os.environ.get("GOSTERGE_DASHBOARD_TRUSTED_PROXIES", "0")),
    )
