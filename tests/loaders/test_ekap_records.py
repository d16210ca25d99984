"""What the importer makes of records EKAP and the tools that save it really produce: multi-lot
notices in EKAP's own markup, joint ventures, ihale-mcp's search output, labels and files it does
not read, implausible dates and values, and authorities EKAP names in several ways. Nothing read
is dropped without a word in the report, and nothing the loader would refuse is written."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loaders.ekap.importer import ImportRefusedError, import_ekap
from loaders.procurement.release import open_release
from loaders.procurement.validate import check_release
from tests.helpers import FIXTURES
from tests.loaders.test_ekap_import import entries, run

MARKUP = FIXTURES / "ekap-markup"
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


def markdown_notice(ikn: str, contractor: str, address: str | None, *, nationality: str = "Türkiye",
                    tender_day: str = "12.03.2026", contract_day: str = "20.04.2026", value: str = "252.000,00 TRY",
                    bids: str = "3", extra: str = "") -> str:
    rows = [f"| **İhale kayıt numarası** | **:** | **{ikn}** |", "| **1- İhalenin** | | |",
            f"| **a)** Tarihi | : | {tender_day} |", "| **b)** Türü | : | Yapım işi |", "| **c)** Usulü | : | Açık |",
            "| **d)** Yaklaşık Maliyeti | : | 300.000,00 TRY |", "| **3- Teklifler** | | |",
            f"| **a)** Toplam Geçerli Teklif Sayısı | : | {bids} |", "| **4- Sözleşmenin** | | |",
            f"| **a)** Tarihi | : | {contract_day} |", f"| **b)** Bedeli | : | {value} |",
            f"| **c)** Yüklenicisi | : | {contractor} |", f"| **d)** Yüklenicinin uyruğu | : | {nationality} |"]
    if address is not None:
        rows.append(f"| **e)** Yüklenicinin adresi | : | {address} |")
    return "**SONUÇ İLANI****ONARIM İŞİ****ESENLER BELEDİYESİ**\n\n|  |  |  |\n| --- | --- | --- |\n" + "\n".join(
        rows) + extra + "\n\nKamuoyuna saygıyla duyurulur."


def bundle(*notices: str, **tender: object) -> list[dict]:
    return [{"tender": {"authority": "Esenler Belediyesi", "province": "İstanbul", "type": {"code": "2"}, **tender},
             "announcements": [{"type": {"code": "4"}, "markdown_content": n} for n in notices]}]


VENTURE = "ÖZDEN YEL, ATAŞ MÜHENDİSLİK İNŞAAT LİMİTED ŞİRKETİ İş Ortaklığı"


def test_joint_venture_keeps_the_province_its_notice_prints(tmp_path):
    folder = tmp_path / "in"
    write(folder, "a.json", bundle(markdown_notice("2026/700001", VENTURE, "ÇAKI MAH. NO: 1 YAYLADAĞI / HATAY "
                                                   "YAYLADAĞI/HATAY")))
    write(folder, "b.json", bundle(markdown_notice("2026/700002", "A, B İş Ortaklığı", "BERLIN/ALMANYA",
                                                   nationality="Almanya")))
    write(folder, "c.json", bundle(markdown_notice("2026/700003", "C, D İş Ortaklığı", None)))
    _, t, report = run([folder], tmp_path)
    provinces = {c["name"]: c["province"] for c in t["contractors.csv"]}
    assert provinces == {VENTURE: "31", "A, B İş Ortaklığı": "", "C, D İş Ortaklığı": ""}
    assert [e["ikn"] for e in entries(report, "joint-venture")] == ["2026/700001", "2026/700002", "2026/700003"]
    assert [e["ikn"] for e in entries(report, "foreign-contractor")] == ["2026/700002"]
    assert [e["ikn"] for e in entries(report, "no-address")] == ["2026/700003"]
    assert not entries(report, "joint-venture-province")


def test_every_shape_reports_every_label_it_does_not_map(tmp_path):
    extra = "\n| **e)** Ek Bilgi | : | Yok |"
    notice = markdown_notice("2026/700010", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY", extra=extra)
    for name, data in (("bare.md", notice), ("bundle.json", bundle(notice))):
        _, _, report = run([write(tmp_path / name, name, data)], tmp_path, name + ".zip")
        assert [(e["file"].endswith(name), e["message"]) for e in entries(report, "unknown-label")] == [
            (True, "row 'Ek Bilgi' is not a label the importer reads")], name
    html = goods_notice().replace("<tr><td><b>c)</b> Süresi</td>", "<tr><td><b>c)</b> Teslim Yeri Adresi</td><td>:"
                                  "</td><td>Depo</td></tr><tr><td><b>c)</b> Süresi</td>")
    _, _, report = run([write(tmp_path / "html", "n.html", html)], tmp_path, "html.zip")
    assert [e["message"] for e in entries(report, "unknown-label")] == [
        "row 'Teslim Yeri Adresi' is not a label the importer reads"]


def test_goods_template_rows_are_read(tmp_path):
    extra = ("\n| **f)** Teslim tarihi | : | 30.06.2026 |"
             "\n| **g)** Yerli malı teklif eden istekli lehine fiyat avantajı uygulaması | : | Uygulanmamıştır |")
    notice = markdown_notice("2026/700011", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY")
    notice = notice.replace("| **4- Sözleşmenin** | | |", extra.split("\n")[2] + "\n| **4- Sözleşmenin** | | |")
    notice = notice.replace("| **3- Teklifler** | | |", "| **2- İhale konusu malın** | | |\n" + extra.split("\n")[1]
                            + "\n| **3- Teklifler** | | |")
    _, _, report = run([write(tmp_path, "n.md", notice)], tmp_path)
    assert not entries(report, "unknown-label") and not entries(report, "notice-structure-unknown")


def search_output() -> dict:
    """ihale-mcp's `search_tenders` answer: EKAP's untranslated method keys, statuses in English."""
    def tender(ikn: str, method: str, status: str) -> dict:
        return {"id": 9001, "name": "YOL YAPIM İŞİ", "ikn": ikn, "type": {"code": 2, "description": "Yapım"},
                "method": method, "status": {"code": None, "description": status}, "authority": "ESENLER BELEDİYESİ",
                "province": "İSTANBUL", "tender_datetime": "12.03.2026 10:00", "document_count": 3,
                "has_announcement": True, "document_url": None}
    return {"tenders": [
        tender("2026/800001", "TENDER_SEARCH.ENUMERATIONS.SEARCH_METHOD.OPEN", "Result Announcement Published"),
        tender("2026/800002", "TENDER_SEARCH.ENUMERATIONS.SEARCH_METHOD.AMONG_CERTAIN_BIDDERS", "Tender Cancelled"),
        tender("2026/800003", "TENDER_SEARCH.MAIN.PAGEITEM.TENDER_TYPE 4734 / 3-g", "Result Announcement Published"),
        tender("2026/800004", "TENDER_SEARCH.ENUMERATIONS.SEARCH_METHOD.BARGAIN", "Bids Evaluated"),
    ], "total_count": 4, "returned_count": 4}


def test_search_tenders_output_is_read_as_tender_records(tmp_path):
    path = write(tmp_path, "search.json", search_output())
    _, t, report = run([path], tmp_path)
    procedures = {r["tender_id"]: r["procedure"] for r in t["tenders.csv"]}
    assert procedures == {"2026/800001": "open", "2026/800002": "restricted", "2026/800003": "exception-3g"}
    # "Pazarlık" without its article of Law 4734 art. 21 names no procedure id: reported, not guessed.
    assert [e["ikn"] for e in entries(report, "procedure-unknown")] == ["2026/800004"]
    statuses = {x["ikn"]: x["status"] for x in report["tenders"]}
    assert statuses["2026/800002"] == "cancelled" and statuses["2026/800001"] == "no-result"
    assert [e["ikn"] for e in entries(report, "result-not-in-input")] == ["2026/800001", "2026/800003"]
    assert report["inputs"][0]["shape"] == "search"


def test_tender_from_several_notices_lists_its_files(tmp_path):
    one = markdown_notice("2026/700020", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY")
    two = one.replace("252.000,00", "253.000,00")
    folder = tmp_path / "in"
    a, b = write(folder, "a.md", one), write(folder, "b.md", two)
    write(folder, "README.md", "# Notices saved on 20 March\n\nSaved from EKAP by hand.\n")
    _, _, report = run([folder], tmp_path)
    (tender,) = report["tenders"]
    assert tender["files"] == [str(a), str(b)]
    assert not entries(report, "no-accepted-shape")
    assert report["summary"]["filesSkipped"] == 1 and report["skipped"] == [str(folder / "README.md")]


@pytest.mark.parametrize(("tender_day", "contract_day"), [
    ("01.01.0001", "20.04.2026"), ("31.12.9999", "20.04.2026"), ("12.03.2026", "01.01.0001"),
    ("12.03.2026", "31.12.9999"), ("12.03.2026", "11.03.2026")])
def test_implausible_dates_are_reported_and_never_released(tmp_path, tender_day, contract_day):
    notice = markdown_notice("2026/700030", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY",
                             tender_day=tender_day, contract_day=contract_day)
    _, t, report = run([write(tmp_path, "n.json", bundle(notice))], tmp_path)
    reported = [e for e in report["entries"] if e["kind"] == "unmapped" and "date" in e["reason"]]
    assert reported and reported[0]["ikn"] == "2026/700030"
    # A tender kept out for its date leaves nothing to release: no release is written at all.
    assert t is None or [a["contractor_id"] for a in t["awards.csv"]] in ([], [""])


def loads(path: Path) -> None:
    """The written release passes the loader's own validation (raises ReleaseRejectedError if not)."""
    with open_release(path) as opened:
        check_release(opened)


def test_one_authority_row_per_ekap_id_with_the_latest_name(tmp_path):
    folder = tmp_path / "in"
    first = detail(goods_notice())
    later = detail(goods_notice().replace("2026/612345", "2026/612346"), ikn="2026/612346")
    later["item"]["idare"] = {"id": 70011, "adi": "KONYA İL SAĞLIK MÜDÜRLÜĞÜ SATIN ALMA BİRİMİ",
                              "enUstIdareAdi": "SAĞLIK BAKANLIĞI", "il": {"adi": "KARAMAN"}}
    write(folder, "1.json", first)
    write(folder, "2.json", later)
    result, t, report = run([folder], tmp_path)
    assert [(a["authority_id"], a["name"], a["province"]) for a in t["authorities.csv"]] == [
        ("70011", "KONYA İL SAĞLIK MÜDÜRLÜĞÜ SATIN ALMA BİRİMİ", "70")]
    (note,) = entries(report, "authority-renamed")
    assert "KONYA İL SAĞLIK MÜDÜRLÜĞÜ" in note["message"] and "SATIN ALMA BİRİMİ" in note["message"]
    loads(result.out)


@pytest.mark.parametrize(("value", "bids", "field"), [
    ("1" + ".000" * 13 + ",00 TRY", "3", "contract_value"), ("252.000,00 TRY", "1" + "0" * 23, "bids")])
def test_figures_the_loader_would_refuse_leave_their_lot_unawarded(tmp_path, value, bids, field):
    notice = markdown_notice("2026/700040", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY", value=value,
                             bids=bids)
    path = write(tmp_path, "n.json", bundle(notice))
    result, t, report = run([path], tmp_path)
    (entry,) = entries(report, "value-out-of-range")
    assert (entry["file"], entry["ikn"], entry["field"]) == (str(path), "2026/700040", field)
    assert [(a["contractor_id"], a["contract_value"]) for a in t["awards.csv"]] == [("", "")]
    loads(result.out)


def test_unreadable_file_is_reported_and_the_rest_imported(tmp_path):
    folder = tmp_path / "in"
    write(folder, "deep.json", "[" * 200_000 + "]" * 200_000)
    write(folder, "n.md", markdown_notice("2026/700050", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY"))
    _, t, report = run([folder], tmp_path)
    (entry,) = entries(report, "unreadable-file")
    assert entry["file"] == str(folder / "deep.json") and entry["kind"] == "unmapped"
    assert [x["ikn"] for x in report["tenders"]] == ["2026/700050"]


def test_second_release_of_a_served_week_is_refused_with_its_way_out(tmp_path):
    path = write(tmp_path / "in", "d.json", detail(goods_notice()))
    first = import_ekap([path], tmp_path / "w47.zip", release="2026-W47", now=NOW)
    with pytest.raises(ImportRefusedError, match="2026-W47 is already.*--base") as refused:
        import_ekap([path], tmp_path / "again.zip", release="2026-W47", base=first.out, now=NOW)
    assert "w47.zip" in str(refused.value)


def test_a_release_the_loader_would_refuse_is_not_written(tmp_path, monkeypatch):
    """The net under the mapping rules: with the amount rule switched off, a contract value of
    10^39 TRY reaches the tables, and the import reports the loader's refusal instead of writing."""
    monkeypatch.setattr("loaders.ekap.tables.amount_fits", lambda value: True)
    notice = markdown_notice("2026/700060", "KAYA YAPI LİMİTED ŞİRKETİ", "MERKEZ / HATAY MERKEZ/HATAY",
                             value="1" + ".000" * 13 + ",00 TRY")
    path = write(tmp_path, "n.json", bundle(notice))
    result, _, report = run([path], tmp_path)
    assert not result.written and not result.out.exists() and not list(tmp_path.glob(".checking-*"))
    (entry,) = entries(report, "release-refused")
    assert (entry["file"], entry["ikn"], entry["field"]) == (str(path), "2026/700060", "contract_value")
