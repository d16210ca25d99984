"""The served OpenAPI document lints clean with the linters consumers run: Spectral's `spectral:oas`
(.spectral.yaml) and Redocly's `recommended` rules (redocly.yaml, which explains the one rule it
switches off). Both run from npm at pinned versions; without npx or the registry the test skips."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT

SPECTRAL = "@stoplight/spectral-cli@6.16.3"
REDOCLY = "@redocly/cli@2.77.0"
NPX = shutil.which("npx")
INSTALL_SECONDS = 300
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NPX is None, reason="npx is not installed")]


def _npx(package: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([NPX, "--yes", package, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=INSTALL_SECONDS)


def _installed(package: str, cwd: Path) -> None:
    try:
        probe = _npx(package, "--version", cwd=cwd)
    except subprocess.TimeoutExpired:
        pytest.skip(f"{package} could not be installed in {INSTALL_SECONDS} s")
    if probe.returncode != 0:
        pytest.skip(f"{package} could not be installed: {probe.stderr.strip()[-300:]}")


@pytest.fixture
def document(app, tmp_path) -> Path:  # noqa: ANN001
    path = tmp_path / "openapi.json"
    # As a consumer fetches it from a deployed server: `servers` names the address it was asked at.
    served = app.test_client().get("/v1/openapi.json", base_url="https://gosterge.test")
    path.write_text(json.dumps(served.get_json()), encoding="utf-8")
    return path


def test_openapi_lints_clean_with_spectral(document, tmp_path):
    _installed(SPECTRAL, tmp_path)
    result = _npx(SPECTRAL, "lint", "--ruleset", str(ROOT / ".spectral.yaml"), "--format", "json", "--quiet",
                  "--fail-severity", "hint", str(document), cwd=tmp_path)
    findings = json.loads(result.stdout or "[]")
    assert [f"{f['code']} {'.'.join(map(str, f['path']))}: {f['message']}" for f in findings] == []
    assert result.returncode == 0, result.stderr[-2000:]


def test_openapi_lints_clean_with_redocly(document, tmp_path):
    _installed(REDOCLY, tmp_path)
    result = _npx(REDOCLY, "lint", "--config", str(ROOT / "redocly.yaml"), "--format", "json", str(document),
                  cwd=tmp_path)
    report = json.loads(result.stdout[result.stdout.index("{"):])
    problems = [f"{p['ruleId']} {p['location'][0]['pointer']}: {p['message']}" for p in report["problems"]]
    assert problems == []
    assert report["totals"]["errors"] == report["totals"]["warnings"] == 0
