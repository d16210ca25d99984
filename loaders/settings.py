"""The loaders' settings, read from GOSTERGE_* environment variables in this one place."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.release_files import default_root

PROJECT_ROOT = Path(__file__).resolve().parents[1]
OCID_PREFIX = re.compile(r"ocds-[0-9a-z]{6}")
# Not registered with the Open Contracting Partnership: for demonstrations and tests only, so that no
# export of this software can pass for a registered publisher's (docs/ocds.md says how to get one).
DEFAULT_OCID_PREFIX = "ocds-gstrge"
DEFAULT_OCDS_LICENSE = "https://creativecommons.org/licenses/by/4.0/"


class SettingError(ValueError):
    """A setting's value is unusable; the message names the variable."""


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
    # OCDS export and the files each release offers for download (docs/ocds.md).
    ocid_prefix: str = DEFAULT_OCID_PREFIX
    public_base_url: str = "http://127.0.0.1:8000"
    ocds_license: str = DEFAULT_OCDS_LICENSE
    ocds_policy: str = "http://127.0.0.1:8000/v1/docs"
    release_files_dir: Path = default_root(PROJECT_ROOT / "var")
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
        **_ocds_settings(env),
    )


def _ocds_settings(env: Mapping[str, str]) -> dict[str, Any]:
    prefix = env.get("GOSTERGE_OCID_PREFIX") or DEFAULT_OCID_PREFIX
    if not OCID_PREFIX.fullmatch(prefix):
        raise SettingError(f"GOSTERGE_OCID_PREFIX must be 'ocds-' and six lower-case letters or digits, not {prefix!r}")
    base = (env.get("GOSTERGE_PUBLIC_BASE_URL") or "http://127.0.0.1:8000").rstrip("/")
    var_dir = Path(env.get("GOSTERGE_VAR_DIR") or PROJECT_ROOT / "var")
    return {
        "ocid_prefix": prefix, "public_base_url": base,
        "ocds_license": env.get("GOSTERGE_OCDS_LICENSE") or DEFAULT_OCDS_LICENSE,
        "ocds_policy": env.get("GOSTERGE_OCDS_POLICY_URL") or f"{base}/v1/docs",
        "release_files_dir": Path(env.get("GOSTERGE_RELEASE_FILES_DIR") or default_root(var_dir)),
    }


def _whole_number(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), not {value!r}")
    return int(value)
