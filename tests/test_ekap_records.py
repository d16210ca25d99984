"""What the importer makes of records EKAP and the tools that save it really produce: multi-lot
notices in EKAP's own markup, joint ventures, ihale-mcp's search output, labels and files it does
not read, implausible dates and values, and authorities EKAP names in several ways. Nothing read
is dropped without a word in the report, and nothing the loader would refuse is written."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest

from loaders.ekap.importer import ImportRefusedError, import_ekap
from loaders.procurement.release import open_release
from loaders.procurement.validate import validate_release
from tests.test_ekap_import import OWN, by_id, entries, run

MARKUP = Path(__file__).parent / "fixtures" / "ekap-markup"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def goods_notice() -> str:
    return (MARKUP / "multi-lot-goods.html").read_text(encoding="utf-8")


def detail(html: str, **item: object) -> dict:
    """A saved tender detail of EKAP's goods tender 2026/612345, with one result notice."""
    base = {"ikn": "2026/612345", "ihaleBilgi": {"ihaleTarihSaat": "2026-03-12T10:00:00", "ihaleUsulAciklama": "Açık",
                                                "ihaleTipiAciklama": "Mal"},
            "ihtiyacKalemiOkasList": [{"kodu": "33696500"}],
            "idare": {"id": 70011, "adi": "KONYA İL SAĞLIK MÜDÜRLÜĞÜ", "enUstIdareAdi": "SAĞLIK BAKANLIĞI",
                      "il": {"adi": "KONYA"}},
            "ilanList": [{"ilanTip": "4", "veriHtml": html}]}
    return {"item": {**base, **item}}


def write(folder: Path, name: str, data: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_multi_lot_notice_in_ekap_markup_keeps_its_estimate_out(tmp_path):
    path = write(tmp_path / "in", "d.json", detail(goods_notice()))
    _, t, report = run([path], tmp_path)
    (tender,) = t["tenders.csv"]
    # Read as a single lot, 252,000 TRY against the tender's 1,000,000 would be a 74.8 % discount.
    assert tender["estimated_cost"] == "" and [e["ikn"] for e in entries(report, "multi-lot-estimate")] == [
        "2026/612345"]
    assert t["awards.csv"][0]["contract_value"] == "252000.00"


def test_notice_of_unrecognised_structure_is_reported_and_its_estimate_left_out(tmp_path):
    html = goods_notice().replace("<td><b>e)</b> Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti</td><td>:</td>"
                                  "<td>1.000.000,00 TRY</td>",
                                  "<tr><td>Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti 1.000.000,00 TRY</td></tr>")
    path = write(tmp_path / "in", "d.json", detail(html))
    _, t, report = run([path], tmp_path)
    assert t["tenders.csv"][0]["estimated_cost"] == ""
    (entry,) = entries(report, "notice-structure-unknown")
    assert entry["kind"] == "unmapped" and entry["ikn"] == "2026/612345" and entry["file"] == str(path)
