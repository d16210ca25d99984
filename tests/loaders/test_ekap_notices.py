"""Result notices read by label: every shared EKAP notice, against the values it prints (the
expected values are copied from the notices by hand, and for the bundle from ihalent's own
sample-awards.jsonl), and the Turkish notation of amounts, counts and dates."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.ekap.mapping import procedure_id
from loaders.ekap.names import is_joint_venture
from loaders.ekap.notice import parse_html, parse_markdown
from loaders.ekap.places import province_from_address
from loaders.ekap.values import amount_fits, parse_amount, parse_count, parse_date
from loaders.procurement.validate import DECIMAL
from tests.conftest import SHARED
from tests.helpers import FIXTURES

EKAP = SHARED / "fixtures" / "ekap"
OWN = FIXTURES / "ekap"

# file -> (İKN, tender date, procedure, estimate, valid bids, contract value, contractor, address province)
NOTICES = {
    "ihale-mcp/hizmet_2026-1343415_0.md": ("2026/1343415", date(2026, 7, 22), "exception-3e", "3195598.09", 1,
                                           "2140893.30", "TARSUS ÖĞRETMENEVİ MÜDÜRLÜĞÜ", None),
    "ihale-mcp/hizmet_2026-1373608_0.md": ("2026/1373608", date(2026, 7, 23), "exception-3e", "796659.20", 1,
                                           "784800.00", "HASAN AKBUDAK BORSA İSTANBUL (BİST) MESLEKİ VE TEKNİK "
                                           "ANADOLU LİSESİ MÜDÜRLÜĞÜ", None),
    "ihale-mcp/kismi_2026-729693_0.md": ("2026/729693", date(2026, 4, 22), "negotiated-21b", "27172470.53", 2,
                                         "8313805.64", "İKRAMTUR TURİZM TAŞIMACILIK OTOMOTİV TEMİZLİK VE İNŞAAT "
                                         "SANAYİ TİCARET LİMİTED ŞİRKETİ", 34),
    "ihale-mcp/kismi_2026-729693_1.md": ("2026/729693", date(2026, 4, 22), "negotiated-21b", "27172470.53", 2,
                                         "10034893.28", "İKRAMTUR TURİZM TAŞIMACILIK OTOMOTİV TEMİZLİK VE İNŞAAT "
                                         "SANAYİ TİCARET LİMİTED ŞİRKETİ", 34),
    "ihale-mcp/kismi_2026-729693_2.md": ("2026/729693", date(2026, 4, 22), "negotiated-21b", "27172470.53", 2,
                                         "8713601.52", "İKRAMTUR TURİZM TAŞIMACILIK OTOMOTİV TEMİZLİK VE İNŞAAT "
                                         "SANAYİ TİCARET LİMİTED ŞİRKETİ", 34),
    "ihale-mcp/mal_2026-1351626_0.md": ("2026/1351626", date(2026, 7, 23), "exception-3g", "5292982.80", 1,
                                        "4090249.00", "UNİPROM TEKSTİL İTHALAT İHRACAT SANAYİ VE TİCARET LİMİTED "
                                        "ŞİRKETİ", 68),
    "ihale-mcp/mal_2026-1359939_0.md": ("2026/1359939", date(2026, 7, 23), "exception-3g", "9798166.67", 3,
                                        "8500000.00", "ALMET TEDARİK ORGANİZASYON TİCARET LİMİTED ŞİRKETİ", 34),
    "ihale-mcp/yapim_2026-1300262_0.md": ("2026/1300262", date(2026, 7, 16), "negotiated-21b", "5169417.32", 1,
                                          "3750001.50", "MEHMET ÇAKIR HAFRİYAT NAKLİYE İNŞAAT VE TİCARET LİMİTED "
                                          "ŞİRKETİ", 31),
    "ihale-mcp/yapim_2026-1309463_0.md": ("2026/1309463", date(2026, 7, 16), "exception-3b", "2916665.56", 5,
                                          "2640000.00", "MEHMET NURİ ÇELİKYAY", 65),
    "ihalent/notices/2025-2174700.md": ("2025/2174700", date(2025, 12, 30), "open", "29163718.39", 5, "22750523.38",
                                        "KATAR KENTSEL YAPI VE İNŞAAT TİCARET LİMİTED ŞİRKETİ", None),
    "ihalent/notices/2025-2198370.md": ("2025/2198370", date(2025, 12, 31), "open", "29802943.48", 12, "19709997.40",
                                        "ÖZDEN YEL, ATAŞ MÜHENDİSLİK HARİTA İMAR PLANLAMA İNŞAAT GIDA HAYVANCILIK "
                                        "SANAYİ VE TİCARET LİMİTED ŞİRKETİ İş Ortaklığı", None),
    "ihalent/notices/2025-2337797.md": ("2025/2337797", date(2025, 12, 31), "open", "2783270.09", 3, "2227000.00",
                                        "MUHAMMED HANEFİ YILDIRIM, BEDKURT GIDA İNŞAAT OTOMOTİV NAKLİYE TEKSTİL "
                                        "MADENCİLİK İTHALAT İHRACAT SANAYİ VE TİCARET LİMİTED ŞİRKETİ İş Ortaklığı", None),
    "ihalent/notices/2025-2388267.md": ("2025/2388267", date(2025, 12, 30), "negotiated-21b", "614980866.63", 3,
                                        "633190545.70", "TAŞ İNŞAAT TAAHHÜT VE TİCARET LİMİTED ŞİRKETİ", None),
}


@pytest.fixture(scope="module")
def shared_ekap() -> Path:
    if not EKAP.is_dir():
        pytest.skip("../shared/fixtures/ekap is not beside the project")
    return EKAP


@pytest.mark.parametrize("name", sorted(NOTICES))
def test_parse_notice_reads_every_shared_notice(shared_ekap, name):
    ikn, day, procedure, estimate, bids, value, contractor, province = NOTICES[name]
    notice = parse_markdown((shared_ekap / name).read_text(encoding="utf-8"))
    f = notice.fields
    assert notice.is_result and notice.ikn == ikn and notice.unknown_labels == []
    # The tender date, not the contract date: both are labelled "Tarihi", in sections 1 and 4.
    assert parse_date(f["tender_date"]) == day
    assert procedure_id(f["procedure"]) == procedure
    assert parse_amount(f["estimate"]).value == Decimal(estimate)
    assert parse_count(f["bids_valid"]) == bids
    assert parse_amount(f["contract_value"]).value == Decimal(value)
    assert f["contractor"] == contractor
    assert province_from_address(f.get("address", "")) == province
    assert is_joint_venture(contractor) == contractor.endswith("İş Ortaklığı")


def test_parse_notice_tells_the_two_dates_apart(shared_ekap):
    f = parse_markdown((shared_ekap / "ihalent/notices/2025-2174700.md").read_text(encoding="utf-8")).fields
    assert (f["tender_date"], f["contract_date"]) == ("30.12.2025", "23.01.2026")


def test_parse_notice_multi_lot_row_survives_the_broken_table(shared_ekap):
    for i in range(3):
        notice = parse_markdown((shared_ekap / f"ihale-mcp/kismi_2026-729693_{i}.md").read_text(encoding="utf-8"))
        assert notice.multi_lot and notice.fields["lots_estimate"] == "27.172.470,53 TRY"
        assert notice.fields["subject"].startswith("2025/2026 EĞİTİM ÖĞRETİM YILI")
    single = parse_markdown((shared_ekap / "ihale-mcp/yapim_2026-1300262_0.md").read_text(encoding="utf-8"))
    assert not single.multi_lot


def test_parse_notice_bundle_matches_ihalent_sample_awards(shared_ekap):
    bundle = json.loads((shared_ekap / "ihalent/istanbul-yapim-2025.json").read_text(encoding="utf-8"))
    expected = {}
    for line in (shared_ekap / "ihalent/sample-awards.jsonl").read_text(encoding="utf-8").splitlines():
        award = json.loads(line)
        expected[award["ikn"]] = award
    assert len(bundle) == 6
    for entry in bundle:
        notice = parse_markdown(entry["announcements"][0]["markdown_content"])
        award = expected[notice.ikn]
        assert float(parse_amount(notice.fields["estimate"]).value) == award["estimate_try"]
        assert float(parse_amount(notice.fields["contract_value"]).value) == award["contract_try"]
        assert parse_count(notice.fields["bids_valid"]) == award["valid_bid_count"]
        assert parse_count(notice.fields["bids_total"]) == award["bid_count"]
        assert is_joint_venture(notice.fields["contractor"]) == award["is_joint_venture"]
        assert notice.fields["contractor"].startswith(award["winner"])


def test_parse_html_reads_ekap_veri_html_like_markdown():
    detail = json.loads((OWN / "detail-multi-lot-html.json").read_text(encoding="utf-8"))
    html = detail["item"]["ilanList"][1]["veriHtml"]
    notice = parse_html(html)
    assert notice.ikn == "2026/311001" and notice.is_result and notice.multi_lot
    assert notice.authority == "ÇANKAYA BELEDİYESİ DESTEK HİZMETLERİ MÜDÜRLÜĞÜ"
    # A no-break space and an HTML comment inside the amount do not change it.
    assert parse_amount(notice.fields["estimate"]).value == Decimal("4800000.00")
    assert notice.fields["contractor"] == "PARLAK TEMİZLİK SAN. VE TİC. LTD. ŞTİ."
    assert province_from_address(notice.fields["address"]) == 6


def test_parse_notice_same_notice_in_markdown_and_html_has_one_key():
    """A copy saved as Markdown and one saved as HTML are the same notice, so it counts once."""
    html = json.loads((OWN / "detail-multi-lot-html.json").read_text(encoding="utf-8"))["item"]["ilanList"][1]["veriHtml"]
    root = lxml.html.fromstring(html)
    heading = "**" + "****".join(b.text_content() for b in root.iter("b") if b.getparent().tag == "p") + "**"
    rows = ["| " + " | ".join(td.text_content() for td in tr) + " |" for tr in root.iter("tr")]
    markdown = parse_markdown(heading + "\n\n" + "\n".join(rows))
    assert markdown.fields == parse_html(html).fields
    assert markdown.key() == parse_html(html).key()
    assert markdown.key() != parse_html(html.replace("2.100.000,00", "2.100.001,00")).key()


@pytest.mark.parametrize(("text", "value", "currency"), [
    ("29.163.718,39 TRY", "29163718.39", "TRY"),
    ("5.169.417,32 TRY -->", "5169417.32", "TRY"),
    ("8.500.000,00\u00a0TRY", "8500000.00", "TRY"),
    ("784.800 TL", "784800", "TRY"),
    ("1.250.000,00 USD", "1250000.00", "USD"),
    ("12,5 EUR", "12.5", "EUR"),
    ("950 TRY", "950", "TRY"),
])
def test_parse_amount_turkish_notation_exactly(text, value, currency):
    amount = parse_amount(text)
    assert (amount.value, amount.currency) == (Decimal(value), currency)


@pytest.mark.parametrize("text", ["1.5 TRY", "12.34.567,00 TRY", "yaklaşık 5 milyon", "5,000.00 TRY", "--"])
def test_parse_amount_refuses_what_it_cannot_read_exactly(text):
    with pytest.raises(ValueError):
        parse_amount(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("22.07.2026", date(2026, 7, 22)), ("22.07.2026 10:00", date(2026, 7, 22)),
    ("2026-07-22T10:00:00", date(2026, 7, 22)), ("", None)])
def test_parse_date_accepts_ekap_forms(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["31.02.2026", "yarın", "2026/07/22"])
def test_parse_date_refuses_non_dates(text):
    with pytest.raises(ValueError):
        parse_date(text)


def test_parse_count_refuses_words():
    assert parse_count(" 12 ") == 12 and parse_count("") is None
    with pytest.raises(ValueError):
        parse_count("beş")


MARKUP = FIXTURES / "ekap-markup"


def test_parse_html_reads_cells_outside_a_row_as_a_browser_does():
    """EKAP prints a multi-lot notice's "Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti" as cells
    between a `</tr>` and the next `<tr>`: an HTML5 parser puts them in a row of their own."""
    notice = parse_html((MARKUP / "multi-lot-goods.html").read_text(encoding="utf-8"))
    assert notice.multi_lot and notice.fields["lots_estimate"] == "1.000.000,00 TRY"
    assert notice.unread_rows == [] and notice.unknown_labels == []
    # `<br>` is a line break between words, and a table nested in a cell is that cell's text.
    assert notice.fields["subject"] == "LABORATUVAR SARF MALZEMESİ ALIMI"
    assert notice.fields["contractor"] == "ANADOLU LABORATUVAR MALZEMELERİ TİCARET LİMİTED ŞİRKETİ"
    assert province_from_address(notice.fields["address"]) == 42
    assert parse_count(notice.fields["bids_valid"]) == 3 and notice.authority == "KONYA İL SAĞLIK MÜDÜRLÜĞÜ"


@pytest.mark.parametrize("html", [
    # a row of the notice that is not `label : value` nor a section
    "<p><b>SONUÇ İLANI</b></p><table><tr><td>İhale kayıt numarası</td><td>:</td><td>2026/1</td></tr>"
    "<tr><td>1- İhalenin</td></tr><tr><td>Yaklaşık Maliyeti</td><td>:</td><td>10,00 TRY</td></tr>"
    "<tr><td>Kısım 2</td><td>5,00 TRY</td></tr><tr><td>4- Sözleşmenin</td></tr>"
    "<tr><td>Bedeli</td><td>:</td><td>4,00 TRY</td></tr></table>",
    # the multi-lot row's words printed where no row of the importer's reads them
    "<p><b>SONUÇ İLANI</b></p><table><tr><td>İhale kayıt numarası</td><td>:</td><td>2026/1</td></tr>"
    "<tr><td>1- İhalenin</td></tr><tr><td>Yaklaşık Maliyeti</td><td>:</td><td>10,00 TRY</td></tr></table>"
    "<p>Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti: 10,00 TRY</p>"
    "<table><tr><td>4- Sözleşmenin</td></tr><tr><td>Bedeli</td><td>:</td><td>4,00 TRY</td></tr></table>",
])
def test_parse_html_notice_of_unrecognised_structure_says_so(html):
    notice = parse_html(html)
    assert notice.ikn == "2026/1" and notice.unread_rows


def test_parse_markdown_reports_rows_it_cannot_place():
    text = ("**SONUÇ İLANI**\n\n| **İhale kayıt numarası** | **:** | **2026/1** |\n| **1- İhalenin** | | |\n"
            "| Yaklaşık Maliyeti | : | 10,00 TRY |\n| Kısım 2 | 5,00 TRY |\n")
    assert parse_markdown(text).unread_rows == ["Kısım 2 | 5,00 TRY"]


@given(st.decimals(allow_nan=False, allow_infinity=False, min_value=0, max_value=Decimal(10) ** 40, places=None))
def test_amount_fits_exactly_what_the_loader_accepts(value):
    """An amount the importer writes is one the release validation's pattern accepts, and the
    importer leaves out no amount that pattern accepts."""
    written = format(value, "f")
    assert amount_fits(value) == bool(re.fullmatch(DECIMAL, written))
