"""A saved direct-procurement result (doğrudan temin) with a supplier and an amount is read into
direct_purchases.csv; a listing, or a contract missing either, is reported and never guessed. The
records are written from the fields documented for EKAP's `dtDetayGetir` answer
(DogrudanTeminBilgileri, IdareBilgileri, SozlesmeBilgileri.SozlesmeBilgisiList with IstekliAdi,
SozlesmeBedeli, SozlesmeTarihi) and ihale-mcp's outputs (`get_direct_procurement_details`:
basic, authority, contracts; `search_direct_procurements`: direct_procurements with dt_no, title,
authority, type, province_plate): ../shared/fixtures/ekap/README.md and docs/ekap.md."""

from __future__ import annotations

import json

from loaders.procurement.load import load_release
from tests.loaders.test_ekap_import import by_id, entries, run
from tests.loaders.test_ekap_records import search_output


def ihale_mcp_detail(*contracts: dict, number: str = "26DT507662", name: str = "KIRTASİYE MALZEMESİ ALIMI",
                     kind: str = "Mal", okas: list | None = None) -> dict:
    """ihale-mcp's get_direct_procurement_details: EKAP's contract list passed through as `contracts`."""
    return {"basic": {"dt_no": number, "name": name, "type": kind, "okas_codes": okas or [],
                      "dt_datetime": "10.04.2026 14:00", "status": "Doğrudan Temin Sonuçlandırıldı"},
            "authority": {"top_authority": "BELEDİYELER", "parent_authority": "GEMLİK BELEDİYESİ",
                          "name": "GEMLİK BELEDİYESİ DESTEK HİZMETLERİ MÜDÜRLÜĞÜ", "province": "BURSA"},
            "announcements": [], "contracts": list(contracts), "success": True}


def ekap_detail(*contracts: dict, number: str = "26DT600001") -> dict:
    """EKAP's own dtDetayGetir answer, as a tool that reads it saves it."""
    return {"dogrudanTeminDetayResult": {
        "DogrudanTeminBilgileri": {"Dtn": number, "IsinAdi": "HASTANE TEMİZLİK HİZMETİ", "Turu": "Hizmet",
                                   "BransKodList": ["90911200"], "DtTarihSaati": "02.03.2026 10:00"},
        "IdareBilgileri": {"EnUstIdare": "SAĞLIK BAKANLIĞI", "UstIdare": "HATAY İL SAĞLIK MÜDÜRLÜĞÜ",
                           "Idare": "ANTAKYA DEVLET HASTANESİ", "Ili": "HATAY"},
        "IlanBilgileri": {}, "SozlesmeBilgileri": {"SozlesmeBilgisiList": list(contracts)}}}


def contract(supplier: str | None = "ÖZ KAĞITÇILIK LİMİTED ŞİRKETİ", amount: object = "12.500,00 TRY",
             day: str | None = "15.04.2026") -> dict:
    return {"EncSozlesmeID": "x", "IstekliAdi": supplier, "SozlesmeBedeli": amount, "SozlesmeTarihi": day}


def imported(tmp_path, *records: dict, **kwargs):  # noqa: ANN001, ANN003
    """A batch of the direct-procurement records and ihale-mcp's search answer (a release needs a tender)."""
    path = tmp_path / "direct.json"
    path.write_text(json.dumps(list(records)), encoding="utf-8")
    tender = tmp_path / "search.json"
    tender.write_text(json.dumps(search_output()), encoding="utf-8")
    return run([path, tender], tmp_path, **kwargs)


def test_a_saved_result_with_supplier_and_amount_is_a_direct_purchase(tmp_path):
    result, t, report = imported(tmp_path, ihale_mcp_detail(contract()))
    (row,) = t["direct_purchases.csv"]
    assert (row["purchase_id"], row["purchase_date"], row["amount"], row["sector"]) == (
        "26DT507662/1", "2026-04-15", "12500.00", "10")  # kırtasiye: office supplies, CPV 30
    supplier = by_id(t["contractors.csv"], "contractor_id")[row["supplier_id"]]
    authority = by_id(t["authorities.csv"], "authority_id")[row["authority_id"]]
    assert supplier["name"] == "ÖZ KAĞITÇILIK LİMİTED ŞİRKETİ" and supplier["province"] == ""
    assert (authority["province"], authority["authority_type"]) == ("16", "municipality")
    assert report["summary"]["directPurchases"] == 1
    cited = by_id(t["manifest"]["datasets"], "file")["direct_purchases.csv"]["citation"]
    assert "No direct purchases" not in cited  # cites EKAP's records, not the empty file's note


def test_ekaps_own_answer_is_read_alike_one_row_per_contract(tmp_path):
    _, t, _ = imported(tmp_path, ekap_detail(contract(amount=8450.5, day="03.03.2026"),
                                             contract(supplier="TEMİZ A.Ş.", amount="1.200,00", day=None)))
    rows = by_id(t["direct_purchases.csv"], "purchase_id")
    assert {k: (r["amount"], r["purchase_date"], r["sector"]) for k, r in rows.items()} == {
        "26DT600001/1": ("8450.5", "2026-03-03", "41"),  # OKAS 90911200: cleaning services
        "26DT600001/2": ("1200.00", "2026-03-02", "41")}  # no contract date: the DT's own date


def test_a_contract_missing_its_amount_or_supplier_is_reported_not_guessed(tmp_path):
    _, t, report = imported(tmp_path, ihale_mcp_detail(contract(amount=None), contract(supplier="  "),
                                                       contract(supplier=None, amount="")))
    assert t["direct_purchases.csv"] == [] and t["contractors.csv"] == []
    messages = sorted(e["message"] for e in entries(report, "direct-purchase-incomplete"))
    assert [m.split(":")[0] for m in messages] == [f"direct purchase 26DT507662/{i}" for i in (1, 2, 3)]
    assert "no amount (SozlesmeBedeli)" in messages[0] and "no supplier (IstekliAdi)" in messages[1]
    assert "no supplier (IstekliAdi) and no amount (SozlesmeBedeli)" in messages[2]
    assert {e["kind"] for e in entries(report, "direct-purchase-incomplete")} == {"kept-out"}


def test_a_listing_gives_no_contract_and_is_reported(tmp_path):
    """ihale-mcp's search_direct_procurements names no supplier and no amount."""
    listing = {"direct_procurements": [{"dt_no": "26DT507663", "title": "TONER ALIMI", "authority": "GEMLİK "
                                        "BELEDİYESİ", "type": {"code": 1, "description": "Mal"}, "province_plate": 16,
                                        "due_datetime": "20.04.2026 14:00"}], "returned_count": 1}
    _, t, report = imported(tmp_path, listing)
    (entry,) = entries(report, "direct-purchase-incomplete")
    assert "26DT507663" in entry["message"] and "no amount and no supplier" in entry["message"]
    assert t["direct_purchases.csv"] == [] and report["inputs"][0]["shape"] == "direct-listing"


def test_an_amount_in_another_notation_or_currency_is_reported_not_converted(tmp_path):
    _, t, report = imported(tmp_path, ihale_mcp_detail(contract(amount="116,750.00 TRY"),
                                                       contract(amount="5.000,00 USD")))
    assert t["direct_purchases.csv"] == []
    assert [e["field"] for e in entries(report, "unparseable-value")] == ["amount"]
    assert [e["field"] for e in entries(report, "currency")] == ["amount"]


def test_goods_bought_directly_are_placed_by_their_name_or_the_goods_fallback_sector(tmp_path):
    """As a tender's: a name the table does not place goes to the goods fallback sector (18), noted;
    under --goods-unplaced keep-out it is kept out."""
    details = (ihale_mcp_detail(contract(), name="MUHTELİF MALZEME ALIMI"),
               ihale_mcp_detail(contract(), number="26DT507664", name="MOTORİN ALIMI"))
    _, t, report = imported(tmp_path, *details)
    assert [(r["purchase_id"], r["sector"]) for r in t["direct_purchases.csv"]] == [
        ("26DT507662/1", "18"), ("26DT507664/1", "2")]
    assert [e["ikn"] for e in entries(report, "sector-by-kind-fallback")] == ["26DT507662"]
    (tmp_path / "k").mkdir()
    _, t, report = imported(tmp_path / "k", *details, goods_unplaced="keep-out")
    assert [(r["purchase_id"], r["sector"]) for r in t["direct_purchases.csv"]] == [("26DT507664/1", "2")]
    assert [e["ikn"] for e in entries(report, "sector-not-given")] == ["26DT507662"]


def test_a_release_with_direct_purchases_loads(app, tmp_path):
    result, t, _ = imported(tmp_path, ihale_mcp_detail(contract()), ekap_detail(contract()))
    loaded = load_release(result.out, app.extensions["gosterge.sessions"])
    assert loaded.rows["direct_purchases.csv"] == 2


def test_the_base_releases_purchases_stay_and_one_saved_again_replaces_its_row(tmp_path):
    first, _, _ = imported(tmp_path, ihale_mcp_detail(contract()), release="2026-W46")
    later = tmp_path / "later"
    later.mkdir()
    path = later / "direct.json"
    path.write_text(json.dumps([ihale_mcp_detail(contract(amount="13.000,00")), ekap_detail(contract())]),
                    encoding="utf-8")
    _, t, _ = run([path], later, base=first.out)
    rows = by_id(t["direct_purchases.csv"], "purchase_id")
    assert {k: r["amount"] for k, r in rows.items()} == {"26DT507662/1": "13000.00", "26DT600001/1": "12500.00"}


def test_a_supplier_or_amount_that_is_not_a_single_value_is_missing(tmp_path):
    _, t, report = imported(tmp_path, ihale_mcp_detail(contract(supplier={"Adi": "X"}), contract(amount=[1])))
    assert t["direct_purchases.csv"] == [] and len(entries(report, "direct-purchase-incomplete")) == 2


def test_each_record_naming_no_dt_number_is_reported(tmp_path):
    unnumbered = ihale_mcp_detail(contract(), number="")
    unnumbered["basic"].pop("dt_no")
    unnumbered["dogrudanTeminDetayResult"] = {"DogrudanTeminBilgileri": {}}
    _, t, report = imported(tmp_path, unnumbered, unnumbered)
    assert t["direct_purchases.csv"] == [] and len(entries(report, "no-direct-number")) == 2
