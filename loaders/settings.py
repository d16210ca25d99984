"""The loaders' settings, read from GOSTERGE_* environment variables in this one place."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class LoaderSettings:
    llm_base_url: str | None
    llm_model: str
    llm_api_key: str | None
    llm_timeout_seconds: float
    llm_attempts: int
    llm_concurrency: int
    contact_email: str
    http_timeout_seconds: float
    database_url: str | None = None  # set by the API for the release-loading process it starts
    # Releases kept after each load besides the one served (loaders/procurement/retention.py); 0 keeps all.
    keep_releases: int = 8

    @property
    def user_agent(self) -> str:
        # SEC and the others ask automated clients to say who they are and how to reach them.
        return f"Gosterge/0.1 (+{self.contact_email})"


def load_settings(environ: dict[str, str] | None = None) -> LoaderSettings:
    env = os.environ if environ is None else environ
    return LoaderSettings(
        llm_base_url=env.get("GOSTERGE_LLM_BASE_URL") or None,
        llm_model=env.get("GOSTERGE_LLM_MODEL", "gpt-4o-mini"),
        llm_api_key=env.get("GOSTERGE_LLM_API_KEY") or None,
        llm_timeout_seconds=float(env.get("GOSTERGE_LLM_TIMEOUT_SECONDS", "60")),
        llm_attempts=int(env.get("GOSTERGE_LLM_ATTEMPTS", "3")),
        llm_concurrency=int(env.get("GOSTERGE_LLM_CONCURRENCY", "4")),
        contact_email=env.get("GOSTERGE_CONTACT_EMAIL", "data@gosterge.example"),
        http_timeout_seconds=float(env.get("GOSTERGE_HTTP_TIMEOUT_SECONDS", "20")),
        database_url=env.get("GOSTERGE_DATABASE_URL") or None,
        keep_releases=_whole_number(env, "GOSTERGE_KEEP_RELEASES", 8),
    )


def _whole_number(env, name: str, default: int) -> int:  # noqa: ANN001
    value = env.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), not {value!r}")
    return int(value)
