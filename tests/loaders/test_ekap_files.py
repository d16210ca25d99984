"""The folder given to `gosterge ekap import` is not trusted: regular files only, no symlink
followed out of the folder, a size cap per file, every file not read listed; `--exclude` leaves
files out and `--strict` names the files it refuses the batch for."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from loaders.ekap import files
from loaders.ekap.importer import import_ekap
from loaders.ekap.notice import parse_notice
from tests.helpers import FIXTURES
from tests.loaders.test_ekap_import import NOW, OWN

NOTICE = FIXTURES / "ekap" / "foreign-contractor.md"
GOOD = OWN / "detail-multi-lot-html.json"


def report_of(paths, tmp_path, **kwargs) -> dict:  # noqa: ANN001, ANN003
    result = import_ekap(paths, tmp_path / "r.zip", release="2026-W47", now=NOW, workers=1, **kwargs)
    return json.loads(result.report_path.read_text(encoding="utf-8"))


def reasons(report: dict) -> dict[str, str]:
    return {os.path.basename(e["file"]): e["reason"] for e in report["entries"] if e["kind"] == "unmapped"}


def gosterge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "ekap", "import", *args], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_or_a_device_is_refused_not_waited_on(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / "pipe.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "good.json").write_bytes(GOOD.read_bytes())
    done = gosterge(str(folder), "--out", str(tmp_path / "r.zip"), "--release", "2026-W47")
    assert done.returncode == 0, done.stderr  # used to hang on the FIFO, or run out of memory on /dev/zero
    report = json.loads((tmp_path / "r.report.json").read_text(encoding="utf-8"))
    assert reasons(report) == {"pipe.json": "not-a-regular-file", "zero.json": "symlink-out-of-folder"}
    assert report["summary"]["tenders"] == 1
    named = gosterge("/dev/zero", "--out", str(tmp_path / "z.zip"))  # named on the command line: still a device
    assert named.returncode == 2 and "no tender could be released" in named.stderr


def test_symlinks_are_followed_only_inside_the_folder(tmp_path):
    outside, folder = tmp_path / "outside", tmp_path / "in"
    outside.mkdir()
    (folder / "sub").mkdir(parents=True)
    (outside / "secret.md").write_bytes(NOTICE.read_bytes())
    (folder / "sub" / "real.json").write_bytes(GOOD.read_bytes())
    (folder / "out.md").symlink_to(outside / "secret.md")
    (folder / "linked-folder").symlink_to(outside, target_is_directory=True)
    (folder / "same.json").symlink_to(folder / "sub" / "real.json")
    report = report_of([folder], tmp_path)
    assert reasons(report) == {"out.md": "symlink-out-of-folder", "linked-folder": "symlink-out-of-folder"}
    assert [os.path.basename(i["file"]) for i in report["inputs"] if i["shape"] != "none"] == ["same.json", "real.json"]


def test_a_file_past_the_size_cap_is_refused_and_named(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    (tmp_path / "big.json").write_bytes(GOOD.read_bytes())  # a few KB
    (tmp_path / "small.md").write_bytes(b"# notes\n")
    report = report_of([tmp_path / "big.json", tmp_path / "small.md"], tmp_path)
    assert reasons(report)["big.json"] == "file-too-large"
    (entry,) = [e for e in report["entries"] if e["reason"] == "file-too-large"]
    assert entry["message"].startswith("larger than 1000 bytes")
    assert report["summary"]["filesRefused"] == 2


def test_a_heading_of_nested_bold_is_read_once(tmp_path):
    """The heading scan reads each outermost bold element, not each level of `<b><b><b>…` again."""
    depth = 2000
    html = ("<b>SONUÇ İLANI</b><b>" + "<b>" * depth + "ESENLER BELEDİYESİ" + "</b>" * depth + "</b>"
            "<table><tr><td>İhale kayıt numarası</td><td>:</td><td>2026/612345</td></tr></table>")
    notice = parse_notice(html, html=True)
    assert notice.heading == ["SONUÇ İLANI", "ESENLER BELEDİYESİ"] and notice.authority == "ESENLER BELEDİYESİ"


def test_strict_names_the_unmapped_file_and_exclude_leaves_it_out(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.json").write_bytes(GOOD.read_bytes())
    (folder / "notes.txt").write_text("kept by the operator", encoding="utf-8")
    strict = gosterge(str(folder), "--out", str(tmp_path / "s.zip"), "--release", "2026-W47", "--strict")
    assert strict.returncode == 1
    assert f"--strict: 1 unmapped item(s) in {folder / 'notes.txt'}; no release written" in strict.stderr
    done = gosterge(str(folder), "--out", str(tmp_path / "e.zip"), "--release", "2026-W47", "--strict",
                    "--exclude", "*.txt", "--exclude", "*/nothing/*")
    assert done.returncode == 0, done.stderr
    assert "left out by --exclude: 1" in done.stderr
    report = json.loads((tmp_path / "e.report.json").read_text(encoding="utf-8"))
    assert report["excluded"] == [str(folder / "notes.txt")] and report["summary"]["filesExcluded"] == 1
