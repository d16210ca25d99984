"""The EKAP import end to end on files: every shape, every decided case, cumulative releases,
the report, --strict, and the command as a person runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loaders.ekap.files import InputError
from loaders.ekap.importer import ImportRefusedError, import_ekap, release_week
from loaders.procurement.release import COLUMNS
from tests.conftest import SHARED
from tests.helpers import FIXTURES

OWN = FIXTURES / "ekap"
EKAP = SHARED / "fixtures" / "ekap"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def tables_of(path: Path) -> dict[str, list[dict[str, str]]]:
    with zipfile.ZipFile(path) as zf:
        return {f: list(csv.DictReader(io.TextIOWrapper(zf.open(f), encoding="utf-8"))) for f in COLUMNS} | {
            "manifest": json.loads(zf.read("manifest.json"))}


def run(paths: list[Path], tmp_path: Path, name: str = "r.zip", **kwargs):  # noqa: ANN003
    result = import_ekap(paths, tmp_path / name, now=NOW, **{"release": "2026-W47", **kwargs})
    report = json.loads(result.report_path.read_text(encoding="utf-8"))
    return result, (tables_of(result.out) if result.written else None), report


def entries(report: dict, reason: str) -> list[dict]:
    return [e for e in report["entries"] if e["reason"] == reason]


def by_id(rows: list[dict], key: str) -> dict[str, dict]:
    return {r[key]: r for r in rows}


@pytest.fixture(scope="module")
def shared_ekap() -> Path:
    if not EKAP.is_dir():
        pytest.skip("../shared/fixtures/ekap is not beside the project")
    return EKAP


def test_import_shared_fixtures(shared_ekap, tmp_path):
    result, t, report = run([shared_ekap], tmp_path)
    tenders = by_id(t["tenders.csv"], "tender_id")
    assert set(tenders) == {"2025/2174700", "2025/2198370", "2026/729693", "2026/1300262", "2026/1343415", "2026/1373608"}
    # The multi-lot tender: one lot per notice, in order; no per-lot estimate invented.
    kismi = tenders["2026/729693"]
    assert (kismi["lots"], kismi["estimated_cost"], kismi["procedure"]) == ("3", "", "negotiated-21b")
    lots = [a for a in t["awards.csv"] if a["tender_id"] == "2026/729693"]
    assert [(a["lot"], a["contract_value"], a["bids"]) for a in lots] == [
        ("1", "8313805.64", "2"), ("2", "10034893.28", "2"), ("3", "8713601.52", "2")]
    assert [e["ikn"] for e in entries(report, "multi-lot-estimate")] == ["2026/729693"]
    # Exceptions keep ids of their own; the tender date is section 1's.
    assert (tenders["2026/1343415"]["procedure"], tenders["2026/1343415"]["tender_date"]) == ("exception-3e", "2026-07-22")
    assert tenders["2026/1300262"]["estimated_cost"] == "5169417.32"
    # Esenler: the bundle names the authority and its province, the loose notice the procedure.
    esenler = tenders["2025/2174700"]
    authority = by_id(t["authorities.csv"], "authority_id")[esenler["authority_id"]]
    assert (authority["name"], authority["province"], authority["authority_type"]) == ("Esenler Belediyesi", "34", "municipality")
    assert esenler["procedure"] == "open" and esenler["sector"] == "23"
    contractors = {c["name"]: c["province"] for c in t["contractors.csv"]}
    assert contractors["MEHMET ÇAKIR HAFRİYAT NAKLİYE İNŞAAT VE TİCARET LİMİTED ŞİRKETİ"] == "31"
    assert contractors["TARSUS ÖĞRETMENEVİ MÜDÜRLÜĞÜ"] == ""  # an empty address gives no province
    kept_out = {e["ikn"] for e in entries(report, "tender-kept-out")}
    assert kept_out == {"2026/1351626", "2026/1359939", "2026/1309463", "2025/2337797", "2025/2388267",
                        "2025/2467498", "2025/2346700", "2025/2384731", "2025/2427741", "2025/2212206"}
    assert {e["ikn"] for e in entries(report, "procedure-not-given")} == {
        "2025/2467498", "2025/2346700", "2025/2384731", "2025/2427741", "2025/2212206"}
    refused = {Path(e["file"]).name for e in entries(report, "no-accepted-shape")}
    assert refused == {"sample-awards.jsonl"} and [Path(f).name for f in report["skipped"]] == ["README.md"]
    assert t["manifest"]["synthetic"] is False and "EKAP" in t["manifest"]["datasets"][0]["citation"]
    # DSİ's regional directorate names its seat in its heading; a joint venture is one contractor,
    # named as published, with valid bids as printed (20 bids, 12 valid) and no address row.
    dsi = tenders["2025/2198370"]
    assert by_id(t["authorities.csv"], "authority_id")[dsi["authority_id"]]["province"] == "34"
    (award,) = [a for a in t["awards.csv"] if a["tender_id"] == "2025/2198370"]
    assert (award["bids"], award["contract_value"]) == ("12", "19709997.40")
    venture = by_id(t["contractors.csv"], "contractor_id")[award["contractor_id"]]
    assert venture["name"].endswith("LİMİTED ŞİRKETİ İş Ortaklığı") and venture["province"] == ""
    assert t["direct_purchases.csv"] == [] and report["summary"]["tenders"] == 6


def test_import_own_records_every_decided_case(tmp_path):
    _, t, report = run([OWN], tmp_path)
    tenders = by_id(t["tenders.csv"], "tender_id")
    awards = {(a["tender_id"], a["lot"]): a for a in t["awards.csv"]}
    authorities = by_id(t["authorities.csv"], "authority_id")
    contractors = by_id(t["contractors.csv"], "contractor_id")
    # HTML from veriHtml, two lots; EKAP's authority id; sector from the OKAS codes (CPV 90).
    multi = tenders["2026/311001"]
    assert (multi["lots"], multi["estimated_cost"], multi["sector"], multi["authority_id"]) == ("2", "", "41", "48213")
    assert authorities["48213"]["authority_type"] == "municipality" and authorities["48213"]["province"] == "6"
    parlak = {awards[("2026/311001", lot)]["contractor_id"] for lot in ("1", "2")}
    assert len(parlak) == 1  # "SAN. VE TİC. LTD. ŞTİ." and "Sanayi ve Ticaret Limited Şirketi" are one firm
    # A foreign contractor has no province; an amount in USD is not converted: the lot is not awarded.
    foreign = awards[("2026/322002", "1")]
    assert contractors[foreign["contractor_id"]]["province"] == "" and foreign["contract_value"] == "11050000.00"
    assert (awards[("2026/322003", "1")]["contractor_id"], awards[("2026/322003", "1")]["contract_value"]) == ("", "")
    assert [e["field"] for e in entries(report, "currency")] == ["contract_value"]
    # A cancelled tender is a tender with no awarded lot; OKAS 09 is fuel.
    assert tenders["2026/344004"]["sector"] == "2" and not [k for k in awards if k[0] == "2026/344004"]
    # A correction (Düzeltme İlanı) replaces the lot; nothing is counted twice.
    assert [a["contract_value"] for k, a in awards.items() if k[0] == "2026/355005"] == ["589000.00"]
    assert tenders["2026/355005"]["procedure"] == "exception-3g"
    assert authorities[tenders["2026/355005"]["authority_id"]]["province"] == "35"  # EKAP province id 285
    # Bundle by ihale-mcp's names: one authority however written; an İKN missing there comes from the notice.
    keciören = {tenders[i]["authority_id"] for i in ("2026/366006", "2026/366007", "2026/366008")}
    assert len(keciören) == 1
    assert not [k for k in awards if k[0] == "2026/366008"]
    assert [e["ikn"] for e in entries(report, "result-not-in-input")] == ["2026/366008"]
    assert "2018/400400" not in tenders and entries(report, "tender-date-out-of-range")[0]["ikn"] == "2018/400400"
    assert [Path(e["file"]).name for e in entries(report, "no-accepted-shape")] == ["operator-notes.txt"]
    statuses = {x["ikn"]: x["status"] for x in report["tenders"]}
    assert statuses["2026/344004"] == "cancelled" and statuses["2018/400400"] == "kept-out"


def test_import_later_save_replaces_the_lot_and_copies_count_once(tmp_path):
    first, second = sorted((OWN / "correction").iterdir())
    _, t, _ = run([first], tmp_path, "a.zip")
    assert [a["contract_value"] for a in t["awards.csv"]] == ["598000.00"]
    _, t, _ = run([first, second, first], tmp_path, "b.zip")
    assert [a["contract_value"] for a in t["awards.csv"]] == ["598000.00"]  # the first save came last
    _, t, _ = run([first, second], tmp_path, "c.zip")
    assert [a["contract_value"] for a in t["awards.csv"]] == ["589000.00"] and len(t["tenders.csv"]) == 1


def test_import_base_release_is_cumulative(tmp_path):
    first, second = sorted((OWN / "correction").iterdir())
    week1, t1, _ = run([first, OWN / "foreign-contractor.md"], tmp_path, "w1.zip", release="2026-W45")
    week2, t2, report = run([second, OWN / "detail-multi-lot-html.json"], tmp_path, "w2.zip", base=week1.out,
                            release="2026-W46")
    assert {r["tender_id"] for r in t2["tenders.csv"]} == {"2026/355005", "2026/322002", "2026/311001"}
    assert [a["contract_value"] for a in t2["awards.csv"] if a["tender_id"] == "2026/355005"] == ["589000.00"]
    assert t1["authorities.csv"][0] in t2["authorities.csv"] and t1["contractors.csv"][0] in t2["contractors.csv"]
    assert [e["ikn"] for e in entries(report, "replaces-base")] == ["2026/355005"]
    # The same records again on top of week 2 change nothing.
    _, t3, _ = run([second], tmp_path, "w3.zip", base=week2.out)
    assert {k: v for k, v in t3.items() if k != "manifest"} == {k: v for k, v in t2.items() if k != "manifest"}


def test_import_cancellation_date_with_result_keeps_the_award(tmp_path):
    detail = json.loads((OWN / "detail-multi-lot-html.json").read_text(encoding="utf-8"))
    detail["item"]["ihaleBilgi"]["iptalTarihi"] = "2026-04-10T00:00:00"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "d.json").write_text(json.dumps(detail), encoding="utf-8")
    _, t, report = run([tmp_path / "in"], tmp_path)
    assert len(t["awards.csv"]) == 2 and [e["ikn"] for e in entries(report, "cancelled-with-result")] == ["2026/311001"]
    detail["item"]["ihaleBilgi"]["ihaleDurumAciklama"] = "İptal Edilmiş"
    (tmp_path / "in" / "d.json").write_text(json.dumps(detail), encoding="utf-8")
    _, t, report = run([tmp_path / "in"], tmp_path, "s.zip")
    assert t["awards.csv"] == [] and len(t["tenders.csv"]) == 1 and entries(report, "cancelled-status-with-result")


def test_import_single_lot_tender_keeps_the_last_of_its_notices(tmp_path):
    detail = json.loads((OWN / "detail-multi-lot-html.json").read_text(encoding="utf-8"))
    detail["item"]["kismiIhale"] = False
    (tmp_path / "d.json").write_text(json.dumps(detail), encoding="utf-8")
    _, t, report = run([tmp_path / "d.json"], tmp_path)
    assert [(a["lot"], a["contract_value"]) for a in t["awards.csv"]] == [("1", "1950500.25")]
    assert t["tenders.csv"][0]["lots"] == "1" and entries(report, "notice-replaced")


def test_import_strict_writes_only_the_report(tmp_path):
    result, t, report = run([OWN], tmp_path, strict=True)
    assert not result.written and t is None and not result.out.exists()
    assert report["written"] is False and report["summary"]["unmapped"]["currency"] == 1
    clean, t, _ = run([OWN / "detail-multi-lot-html.json"], tmp_path, "clean.zip", strict=True)
    assert clean.written and len(t["tenders.csv"]) == 1


def test_import_refuses_missing_paths_and_weeks_to_come(tmp_path):
    with pytest.raises(InputError):
        import_ekap([tmp_path / "nowhere"], tmp_path / "r.zip", now=NOW)
    with pytest.raises(ImportRefusedError):
        release_week("2026-W49", NOW)
    with pytest.raises(ImportRefusedError):
        release_week("2026-47", NOW)
    assert release_week("2026-W40", NOW)[1] == datetime(2026, 10, 4, 23, 59, 59, tzinfo=UTC)
    assert release_week(None, NOW) == ("2026-W47", NOW)


def test_import_release_week_keeps_later_records_out(tmp_path):
    result = import_ekap([OWN / "detail-multi-lot-html.json"], tmp_path / "r.zip", release="2026-W10", now=NOW)
    report = json.loads(result.report_path.read_text(encoding="utf-8"))
    assert [e["ikn"] for e in entries(report, "tender-date-out-of-range")] == ["2026/311001"]


def gosterge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_ekap_import_command_prints_the_summary(tmp_path):
    out = tmp_path / "release.zip"
    done = gosterge("ekap", "import", str(OWN), "--out", str(out), "--release", "2026-W47")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    assert "tenders: 8 (kept out: 1), awarded lots: 6, authorities: 5, contractors: 4" in done.stderr
    assert "unmapped by reason: award-incomplete 1, currency 1" in done.stderr
    assert (tmp_path / "release.report.json").is_file()
    strict = gosterge("ekap", "import", str(OWN), "--out", str(tmp_path / "s.zip"), "--strict",
                      "--report", str(tmp_path / "s.json"))
    assert strict.returncode == 1 and "no release written" in strict.stderr and (tmp_path / "s.json").is_file()
    missing = gosterge("ekap", "import", str(tmp_path / "nowhere"), "--out", str(tmp_path / "m.zip"))
    assert missing.returncode == 2 and "no such file or directory" in missing.stderr
