"""Tender announcements (İhale İlanı, type 2 in a bundle) and the correction notices repeating them
are read for procedure, kind of work, tender date and authority with its address; a result
notice's figures win where both exist; an announced tender with no result is released with no
awarded lot. One test per rule of docs/ekap.md, on announcements written from a
description of real ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.ekap.goods import GOODS_WORDS, goods_sector
from loaders.ekap.importer import ImportRefusedError
from loaders.ekap.mapping import sector_of_division
from tests.loaders.test_ekap_import import by_id, entries, gosterge, run
from tests.loaders.test_ekap_records import markdown_notice


def announcement(*, ikn: str = "2026/412345", article: str = "19 uncu maddesine göre açık",
                 kind: str = "Yol yapım işi", day: str = "14.04.2026", html: bool = False) -> str:
    if html:
        return (f"<p><b>İHALE İLANI</b></p><p>{kind} 4734 sayılı Kamu İhale Kanununun {article} ihale usulü ile "
                "ihale edilecektir.</p><table><tr><td>İhale Kayıt Numarası</td><td>:</td>"
                f"<td>{ikn}</td></tr><tr><td>1.1. Adı</td><td>:</td><td>OSMANGAZİ BELEDİYESİ FEN İŞLERİ "
                "MÜDÜRLÜĞÜ</td></tr><tr><td>1.2. Adresi</td><td>:</td><td>ALTINOVA MAH. NO:1 OSMANGAZİ/BURSA</td>"
                f"</tr><tr><td>2.1. Tarih ve Saati</td><td>:</td><td>{day} - 10:30</td></tr></table>")
    return (f"**İHALE İLANI**\n\n**OSMANGAZİ BELEDİYESİ**\n\n{kind} 4734 sayılı Kamu İhale Kanununun {article} "
            "ihale usulü ile ihale edilecektir.\n\n| | | |\n| --- | --- | --- |\n"
            f"| **İhale Kayıt Numarası** | **:** | {ikn} |\n| **1- İdarenin** | | |\n"
            "| 1.1. Adı | : | OSMANGAZİ BELEDİYESİ FEN İŞLERİ MÜDÜRLÜĞÜ |\n"
            "| 1.2. Adresi | : | ALTINOVA MAH. NO:1 OSMANGAZİ/BURSA |\n| **2- İhalenin** | | |\n"
            f"| 2.1. Tarih ve Saati | : | {day} - 10:30 |\n")


def bundle(*announcements: tuple[str, str, bool]) -> list[dict]:
    """One bundle entry whose tender names nothing; (announcement type code, text, html) each."""
    return [{"tender": {},
             "announcements": [{"type": {"code": code}, ("veriHtml" if html else "markdown_content"): text}
                               for code, text, html in announcements]}]


def imported(tmp_path, *announcements: tuple[str, str, bool]):  # noqa: ANN001
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle(*announcements)), encoding="utf-8")
    return run([path], tmp_path)


def test_an_announced_tender_with_no_result_is_released_without_an_awarded_lot(tmp_path):
    _, t, report = imported(tmp_path, ("2", announcement(), False))
    (tender,) = t["tenders.csv"]
    assert (tender["tender_id"], tender["procedure"], tender["tender_date"]) == ("2026/412345", "open", "2026-04-14")
    assert tender["sector"] == "23" and t["awards.csv"] == []  # works: the fallback sector of yapım işi
    (authority,) = t["authorities.csv"]
    assert (authority["name"], authority["province"], authority["authority_type"]) == (
        "OSMANGAZİ BELEDİYESİ FEN İŞLERİ MÜDÜRLÜĞÜ", "16", "municipality")
    assert report["tenders"][0]["status"] == "no-result"
    assert [e["ikn"] for e in entries(report, "authority-province-from-announcement")] == ["2026/412345"]


def test_an_announcement_saved_as_html_is_read_alike(tmp_path):
    _, t, _ = imported(tmp_path, ("2", announcement(html=True), True))
    (tender,) = t["tenders.csv"]
    assert (tender["procedure"], tender["tender_date"], tender["sector"]) == ("open", "2026-04-14", "23")


def test_the_kind_of_work_gives_the_sector(tmp_path):
    _, t, _ = imported(tmp_path, ("2", announcement(kind="Temizlik hizmet alımı"), False))
    services = t["tenders.csv"][0]["sector"]
    _, works, _ = imported(tmp_path / "w", ("2", announcement(kind="Okul binası yapım işi"), False))
    assert services != works["tenders.csv"][0]["sector"] == "23"


def test_goods_announced_without_okas_codes_get_the_sector_their_name_names(tmp_path):
    """The CPV has no goods catch-all: the words before "mal alımı" place the tender (akaryakıt is
    CPV 09, sector 2; kırtasiye CPV 30, sector 10), and the report says which words did."""
    _, t, report = imported(tmp_path, ("2", announcement(kind="2026 Yılı Akaryakıt mal alımı"), False))
    assert t["tenders.csv"][0]["sector"] == "2" and report["tenders"][0]["sectorRule"] == "goods-name:akaryakit"
    assert [e["ikn"] for e in entries(report, "sector-by-goods-name")] == ["2026/412345"]
    _, office, _ = imported(tmp_path / "k", ("2", announcement(kind="KIRTASİYE MALZEMESİ mal alımı"), False))
    assert office["tenders.csv"][0]["sector"] == "10"


def test_goods_announced_with_a_name_naming_no_sector_are_released_in_the_goods_fallback_sector(tmp_path):
    """Every announced goods tender is released: a name the table does not place ("Muhtelif
    malzeme") goes to CPV 39's sector (18), with its announced date and procedure, and the report
    notes it (a note, not a kept-out) so the admin sees how many."""
    _, t, report = imported(tmp_path, ("2", announcement(kind="Muhtelif malzeme mal alımı"), False))
    (tender,) = t["tenders.csv"]
    assert (tender["tender_id"], tender["procedure"], tender["tender_date"], tender["sector"]) == (
        "2026/412345", "open", "2026-04-14", "18")
    (entry,) = entries(report, "sector-by-kind-fallback")
    assert entry["kind"] == "note" and entry["ikn"] == "2026/412345" and "muhtelif malzeme" in entry["message"]
    assert report["tenders"][0]["sectorRule"] == "kind-fallback:goods"
    assert not entries(report, "sector-not-given") and report["summary"]["notes"]["sector-by-kind-fallback"] == 1


def test_goods_announced_as_what_is_bought_alimi_are_goods_placed_by_those_words(tmp_path):
    """An announcement may name no "mal alımı": "2026 Yılı Akaryakıt alımı 4734 sayılı …" is goods
    placed by akaryakıt; an unknown name so announced still gets the fallback sector; "Güvenlik
    Hizmeti alımı" stays a service."""
    _, t, report = imported(tmp_path, ("2", announcement(kind="2026 Yılı Akaryakıt alımı"), False))
    (tender,) = t["tenders.csv"]
    assert (tender["procedure"], tender["tender_date"], tender["sector"]) == ("open", "2026-04-14", "2")
    _, t, report = imported(tmp_path / "m", ("2", announcement(kind="Muhtelif Malzeme Alımı alımı"), False))
    assert t["tenders.csv"][0]["sector"] == "18" and entries(report, "sector-by-kind-fallback")
    _, t, _ = imported(tmp_path / "s", ("2", announcement(kind="Güvenlik Hizmeti alımı"), False))
    assert t["tenders.csv"][0]["sector"] == "43"  # services: CPV 98, not a goods sector


def test_goods_announced_under_the_heading_ihale_konusu_malin_are_goods(tmp_path):
    """Section 2's heading says the kind when the sentence names none (here no sentence at all)."""
    text = announcement(kind="").replace("| **2- İhalenin** | | |", "| **2- İhale konusu malın** | | |")
    _, t, report = imported(tmp_path, ("2", text, False))
    assert t["tenders.csv"][0]["sector"] == "18"
    assert report["tenders"][0]["sectorRule"] == "kind-fallback:goods"


def test_goods_whose_name_names_two_sectors_go_to_the_fallback_sector_too(tmp_path):
    """Akaryakıt (09) and kırtasiye (30): counting the whole tender in either would put the other's
    part in the wrong sector; the fallback is one documented place for every goods tender the
    name does not place, and the note names both words."""
    _, t, report = imported(tmp_path, ("2", announcement(kind="Akaryakıt ve kırtasiye mal alımı"), False))
    assert t["tenders.csv"][0]["sector"] == "18"
    (entry,) = entries(report, "sector-by-kind-fallback")
    assert "akaryakit" in entry["message"] and "kirtasiye" in entry["message"]


def test_goods_unplaced_keep_out_keeps_them_out_as_before(tmp_path):
    """`--goods-unplaced keep-out`, for an admin who prefers no goods tender in a sector its name
    does not name: the unplaced ones, by no word or by two, are kept out; a goods tender its name
    places is released as ever."""
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle(("2", announcement(kind="Akaryakıt ve kırtasiye mal alımı"), False)) + bundle(
        ("2", announcement(ikn="2026/412346", kind="Muhtelif malzeme mal alımı"), False)) + bundle(
        ("2", announcement(ikn="2026/412347", kind="Akaryakıt mal alımı"), False))), encoding="utf-8")
    _, kept, report = run([path], tmp_path, goods_unplaced="keep-out")
    assert [(r["tender_id"], r["sector"]) for r in kept["tenders.csv"]] == [("2026/412347", "2")]
    assert sorted(e["ikn"] for e in entries(report, "sector-not-given")) == ["2026/412345", "2026/412346"]
    assert not entries(report, "sector-by-kind-fallback")


def test_the_command_counts_the_fallback_goods_and_passes_goods_unplaced_on(tmp_path):
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle(("2", announcement(kind="Muhtelif malzeme mal alımı"), False))), encoding="utf-8")
    done = gosterge("ekap", "import", str(path), "--out", str(tmp_path / "r.zip"), "--release", "2026-W47")
    assert done.returncode == 0, done.stderr
    assert "sector-by-kind-fallback 1" in done.stderr
    kept = gosterge("ekap", "import", str(path), "--out", str(tmp_path / "k.zip"), "--release", "2026-W47",
                    "--goods-unplaced", "keep-out")
    assert kept.returncode == 2 and "kept out by reason: sector-not-given 1" in kept.stderr
    wrong = gosterge("ekap", "import", str(path), "--out", str(tmp_path / "w.zip"), "--goods-unplaced", "guess")
    assert wrong.returncode == 2 and "--goods-unplaced" in wrong.stderr


def test_goods_unplaced_takes_only_its_two_choices(tmp_path):
    with pytest.raises(ImportRefusedError, match="--goods-unplaced 'guess'"):
        run([tmp_path], tmp_path, goods_unplaced="guess")


def test_a_goods_records_name_places_it_and_an_okas_code_still_wins(tmp_path):
    """The name of a search or detail record (ihaleAdi) is read as an announcement's words are; a
    published OKAS code is the sector whatever the name says."""
    record = {"ikn": "2026/500001", "ihaleAdi": "Hastane İlaç Alımı", "ihaleTip": "1", "idareAdi": "ADANA İL SAĞLIK "
              "MÜDÜRLÜĞÜ", "ihaleIlAdi": "ADANA", "ihaleUsulAciklama": "Açık", "ihaleTarihSaat": "2026-04-14T10:00:00"}
    coded = {**record, "ikn": "2026/500002", "ihtiyacKalemiOkasList": [{"kodu": "15800000"}]}
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "search.json").write_text(json.dumps({"list": [record, coded], "totalCount": 2}), encoding="utf-8")
    _, t, _ = run([tmp_path / "search.json"], tmp_path)
    assert {r["tender_id"]: r["sector"] for r in t["tenders.csv"]} == {"2026/500001": "13", "2026/500002": "4"}


def test_article_21_with_its_clause_is_the_negotiated_procedure(tmp_path):
    _, t, _ = imported(tmp_path, ("2", announcement(article="21 inci maddesinin (b) bendine göre pazarlık"), False))
    assert t["tenders.csv"][0]["procedure"] == "negotiated-21b"


def test_a_correction_notice_repeating_the_announcement_replaces_its_date(tmp_path):
    _, t, _ = imported(tmp_path, ("2", announcement(), False), ("6", announcement(day="21.04.2026"), False))
    assert t["tenders.csv"][0]["tender_date"] == "2026-04-21"


def test_the_result_notices_figures_win_over_the_announcements(tmp_path):
    result = markdown_notice("2026/412345", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY")
    _, t, _ = imported(tmp_path, ("2", announcement(day="10.03.2026",
                                                     article="21 inci maddesinin (b) bendine göre pazarlık"), False),
                       ("4", result, False))
    tender = by_id(t["tenders.csv"], "tender_id")["2026/412345"]
    # The result notice prints Açık and 12.03.2026; the announcement's 21 (b) and 10.03.2026 give way.
    assert (tender["procedure"], tender["tender_date"]) == ("open", "2026-03-12")
    assert [a["contract_value"] for a in t["awards.csv"]] == ["252000.00"]


DIRECT = ("**DOĞRUDAN TEMİN İLANI**\n\n| | | |\n| --- | --- | --- |\n"
          "| **Doğrudan Temin Numarası** | **:** | 26DT507662 |\n| Alımın Adı | : | KIRTASİYE MALZEMESİ ALIMI |\n"
          "| Alımın Türü | : | Mal |\n| Yeri | : | GEMLİK/BURSA |\n"
          "| Son Teklif Verme Tarihi | : | 20.04.2026 - 14:00 |\n")


def test_direct_procurement_announcements_are_named_as_such_and_enter_no_table(tmp_path):
    """Reported as direct-procurement announcements (not records with no İKN): they print no amount
    and no supplier, so nothing of them can enter direct_purchases.csv."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "dt.md").write_text(DIRECT, encoding="utf-8")
    (folder / "dt.json").write_text(json.dumps([{"tender": {}, "announcements": [
        {"type": {"code": "2"}, "markdown_content": DIRECT.replace("507662", "507663")}]}]), encoding="utf-8")
    (folder / "z.json").write_text(json.dumps(bundle(("2", announcement(), False))), encoding="utf-8")
    _, t, report = run([folder], tmp_path)
    named = entries(report, "direct-procurement-announcement")
    assert sorted(e["message"].split("(")[1].split(")")[0] for e in named) == ["26DT507662", "26DT507663"]
    assert {e["kind"] for e in named} == {"kept-out"}
    assert not entries(report, "no-ikn") and not entries(report, "no-accepted-shape")
    assert t["direct_purchases.csv"] == [] and len(t["tenders.csv"]) == 1


def test_every_word_of_the_goods_table_names_one_of_the_43_sectors():
    assert all(sector_of_division(division) for division in GOODS_WORDS.values())


@given(st.lists(st.sampled_from(sorted(GOODS_WORDS)), min_size=1, max_size=4),
       st.sampled_from(["", "2026 Yılı ", "Muhtelif "]))
def test_a_goods_name_is_placed_exactly_when_its_words_name_one_division(words, prefix):
    sector, found = goods_sector(prefix + " ve ".join(words))
    divisions = {GOODS_WORDS[w] for w in words}
    assert sector == (sector_of_division(divisions.pop()) if len(divisions) == 1 else None)
    assert set(found) <= set(GOODS_WORDS)


def test_the_goods_names_measure_reads_the_goods_tenders_of_saved_records():
    """benchmarks/ekap_goods_names.py, whose figures docs/ekap.md records: on the test fixtures'
    goods tenders with OKAS codes (AKARYAKIT and KUMANYA ALIMI) the words give the codes' sector."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "ekap_goods_names.py"
    done = subprocess.run([sys.executable, str(script), str(script.parents[1] / "tests" / "fixtures" / "ekap")],
                          capture_output=True, text=True, timeout=120, check=True)
    assert "goods tenders: 2, with OKAS codes: 2" in done.stdout
    assert "precision (words give the codes' sector, of the coded ones placed): 2/2 (100 %)" in done.stdout
