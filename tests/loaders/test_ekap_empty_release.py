"""Nothing the importer writes fails to load: a batch whose every tender is kept out writes no
release (exit 2, one line saying why and where the report is), and a release of search records
alone, none with a result, loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from loaders.procurement.load import load_release
from tests.helpers import FIXTURES
from tests.loaders.test_ekap_records import search_output

HTML = (FIXTURES / "ekap-markup" / "multi-lot-goods.html").read_text(encoding="utf-8")


def gosterge(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def test_bare_html_notices_naming_no_province_write_no_release(tmp_path):
    """The reported batch: result notices saved as bare .html whose authority names no province, so
    every tender is kept out; the import used to write an empty release the loader could not load."""
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        notice = HTML.replace("KONYA İL SAĞLIK MÜDÜRLÜĞÜ", "ESENLER BELEDİYESİ").replace("2026/612345", f"2026/61234{i}")
        (folder / f"n{i}.html").write_text(notice, encoding="utf-8")
    out = tmp_path / "r.zip"
    done = gosterge("ekap", "import", str(folder), "--out", str(out), "--release", "2026-W47", env={})
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("error:")]
    report = tmp_path / "r.report.json"
    assert "no tender could be released (3 kept out" in line and str(report) in line
    assert not out.exists() and json.loads(report.read_text(encoding="utf-8"))["refused"] == "no tender could be released"
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["keptOut"]["authority-province-not-given"] == 3


def test_search_tenders_output_alone_imports_and_loads(app, tmp_path):
    """ihale-mcp's `search_tenders` answer alone: tenders, none with a result, no contractor."""
    path = tmp_path / "search.json"
    path.write_text(json.dumps(search_output()), encoding="utf-8")
    out = tmp_path / "r.zip"
    done = gosterge("ekap", "import", str(path), "--out", str(out), "--release", "2026-W47", env={})
    assert done.returncode == 0, done.stderr
    result = load_release(out, app.extensions["gosterge.sessions"])
    assert result.rows["tenders.csv"] == 3 and result.rows["contractors.csv"] == 0


def test_an_import_of_only_unreadable_files_writes_no_release(tmp_path):
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    done = gosterge("ekap", "import", str(tmp_path / "notes.txt"), "--out", str(tmp_path / "r.zip"), env={})
    assert done.returncode == 2 and "no tender could be released" in done.stderr
    assert not Path(tmp_path / "r.zip").exists()
