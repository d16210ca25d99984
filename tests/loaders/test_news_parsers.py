"""Each source's parser on the real documents in ../shared/fixtures/sources and on our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from loaders.news.documents import Entry
from loaders.news.ecb import ACKNOWLEDGEMENT, canonical_ecb_url, parse_ecb_feed, parse_ecb_page
from loaders.news.fed import parse_fed_feed, parse_fed_release
from loaders.news.resmi_gazete import is_economic, parse_gazette_index, parse_gazette_text
from loaders.news.sec import (
    build_filing,
    item_from_title,
    load_tickers,
    parse_filing_index,
    parse_primary_document,
    parse_sec_feed,
    parse_submission_text,
    primary_text,
)
from tests.helpers import FIXTURES

OWN = FIXTURES


def read(shared_sources: Path, name: str) -> bytes:
    return (shared_sources / name).read_bytes()


def test_fed_feed_with_bom_cdata_and_gmt_dates(shared_sources):
    entries = parse_fed_feed(read(shared_sources, "fed/press_all_2026-08-01.xml"))
    assert len(entries) == 20
    first = entries[0]
    assert first.url == "https://www.federalreserve.gov/newsevents/pressreleases/bcreg20260731b.htm"
    assert first.published_at == datetime(2026, 7, 31, 14, tzinfo=UTC)
    assert first.section == "Banking and Consumer Regulatory Policy"
    assert '"insiders"' in first.title and "&quot;" not in first.title


def test_fed_release_page(shared_sources):
    entry = next(e for e in parse_fed_feed(read(shared_sources, "fed/press_all_2026-08-01.xml"))
                 if e.url.endswith("monetary20260729a.htm"))
    document = parse_fed_release(read(shared_sources, "fed/monetary20260729a.htm"), entry)
    assert document.title == "Federal Reserve issues FOMC statement"
    assert document.published_at == datetime(2026, 7, 29, 18, tzinfo=UTC)  # 2:00 p.m. EDT
    assert document.section == "Monetary Policy"
    assert "3-1/2 to 3-3/4 percent" in document.text
    assert "For release at" not in document.text and "<script" not in document.text


def test_ecb_feed_fixes_double_slash_and_zone(shared_sources):
    entries = parse_ecb_feed(read(shared_sources, "ecb/press_rss_2026-08-01.xml"))
    assert len(entries) == 15
    assert all("europa.eu//" not in e.url and not e.title.startswith(" ") for e in entries)
    assert entries[0].published_at == datetime(2026, 7, 30, 8, tzinfo=UTC)  # 10:00 +0200
    sections = {e.section for e in entries}
    assert {"Press release", "Monetary policy decision", "Speech"} <= sections


def test_ecb_page_written_to_the_documented_structure():
    entry = Entry("ecb", canonical_ecb_url("https://www.ecb.europa.eu//press/pr/date/2026/html/ecb.pr260729~4ad7508d8a.en.html"),
                  "feed title", None)
    document = parse_ecb_page((OWN / "ecb_press_release.html").read_bytes(), entry)
    assert document.title.startswith("ECB wage tracker at 2.7%")
    assert document.published_at == datetime(2026, 7, 29, tzinfo=UTC)
    assert document.section == "Press release"
    assert "85% of employees" in document.text
    assert "media queries" not in document.text and "tracking" not in document.text and "Home" not in document.text
    assert document.text.endswith(ACKNOWLEDGEMENT + ".")


def test_sec_feed_keeps_8k_filers_with_items(shared_sources):
    entries = parse_sec_feed(read(shared_sources, "sec/getcurrent_atom_2025-12-12_start3500.xml"))
    assert len(entries) == 25 and all(e.section in ("8-K", "8-K/A") for e in entries)
    earnings = [e for e in entries if "2.02 Results of Operations and Financial Condition" in e.extra["items"]]
    assert len(earnings) == 6
    merus = entries[0]
    assert (merus.extra["company"], merus.extra["cik"]) == ("Merus N.V.", 1651311)
    assert merus.published_at.tzinfo is UTC


def test_sec_filing_index_and_primary_document(shared_sources):
    index = parse_filing_index(read(shared_sources, "sec/0001045810-26-000024-index.html"),
                               "https://www.sec.gov/Archives/edgar/data/1045810/0001045810-26-000024-index.html")
    assert index["primary_url"] == "https://www.sec.gov/Archives/edgar/data/1045810/000104581026000024/nvda-20260302.htm"
    assert (index["company"], index["cik"]) == ("NVIDIA CORP", 1045810)
    assert [i[:4] for i in index["items"]] == ["5.02", "9.01"]
    assert index["documents"]["nvda-20260302.htm"] == "8-K"
    assert index["documents"]["formxex101xfy27variablecom.htm"] == "EX-10.1"
    text = primary_text(read(shared_sources, "sec/nvda-20260302.htm"))
    assert "FORM 8-K" in text and "ix:header" not in text


def test_sec_filing_index_filed_at_acceptance_time_in_utc(shared_sources):
    index = parse_filing_index(read(shared_sources, "sec/0001045810-26-000024-index.html"),
                               "https://www.sec.gov/Archives/edgar/data/1045810/0001045810-26-000024-index.html")
    # "Accepted 2026-03-06 16:11:25" is New York time; 6 March 2026 is before the switch to summer time.
    assert index["filed"] == datetime(2026, 3, 6, 21, 11, 25, tzinfo=UTC)


def index_page(*, filed: str, accepted: str | None) -> str:
    """A filing index page cut down to the parts the parser reads, in EDGAR's layout."""
    acceptance = f'<div class="infoHead">Accepted</div><div class="info">{accepted}</div>' if accepted else ""
    return f"""<html><body><div class="companyName">Example Corp (Filer) CIK: <a href="#">0000000042</a></div>
<div class="formGrouping"><div class="infoHead">Filing Date</div><div class="info">{filed}</div>{acceptance}</div>
<div class="formGrouping"><div class="infoHead">Items</div><div class="info">Item 8.01: Other Events<br /></div></div>
<table class="tableFile"><tr><td>1</td><td>8-K</td><td><a href="/Archives/edgar/data/42/000000004225000001/ex-8k.htm">
ex-8k.htm</a></td><td>8-K</td><td>1000</td></tr></table></body></html>"""


def test_sec_filing_index_acceptance_time_follows_new_york_daylight_saving():
    url = "https://www.sec.gov/Archives/edgar/data/42/0000000042-25-000001-index.html"
    summer = parse_filing_index(index_page(filed="2025-07-01", accepted="2025-07-01 17:00:37"), url)
    winter = parse_filing_index(index_page(filed="2025-12-19", accepted="2025-12-19 17:00:37"), url)
    assert summer["filed"] == datetime(2025, 7, 1, 21, 0, 37, tzinfo=UTC)  # EDT, UTC-4
    assert winter["filed"] == datetime(2025, 12, 19, 22, 0, 37, tzinfo=UTC)  # EST, UTC-5


def test_sec_filing_index_without_acceptance_time_starts_the_new_york_filing_day():
    index = parse_filing_index(index_page(filed="2025-12-19", accepted=None),
                               "https://www.sec.gov/Archives/edgar/data/42/0000000042-25-000001-index.html")
    assert index["filed"] == datetime(2025, 12, 19, 5, tzinfo=UTC)


def test_sec_submission_text_filed_at_acceptance_time_in_utc(shared_sources):
    filing = parse_submission_text(read(shared_sources, "sec/0001213900-25-032135.txt"))
    # <ACCEPTANCE-DATETIME>20250415163025, New York summer time (UTC-4).
    assert filing["filed"] == datetime(2025, 4, 15, 20, 30, 25, tzinfo=UTC)


def test_sec_submission_text_without_acceptance_time_starts_the_new_york_filing_day(shared_sources):
    text = read(shared_sources, "sec/0001213900-25-032135.txt").replace(b"<ACCEPTANCE-DATETIME>20250415163025\n", b"")
    assert parse_submission_text(text)["filed"] == datetime(2025, 4, 15, 4, tzinfo=UTC)


def test_sec_submission_text_names_items_by_title(shared_sources):
    filing = parse_submission_text(read(shared_sources, "sec/0001213900-25-032135.txt"))
    assert (filing["company"], filing["cik"], filing["form"]) == ("ABVC BIOPHARMA, INC.", 1173313, "8-K")
    assert filing["items"][0] == "2.02 Results of Operations and Financial Condition"
    assert len(filing["items"]) == 4
    assert filing["documents"]["ea0238372-8k_abvcbio.htm"] == "8-K"
    assert filing["documents"]["ea023837201ex99-1_abvcbio.htm"] == "EX-99.1"
    assert "ABVC" in filing["text"] and "begin 644" not in filing["text"]


def test_sec_primary_document_alone_gives_filer_form_items_and_its_own_date(shared_sources):
    buckle = parse_primary_document(read(shared_sources, "sec/bke-20241122_8-K_item2.02.htm"))
    assert (buckle["company"], buckle["cik"], buckle["form"]) == ("BUCKLE, INC", 885245, "8-K")
    assert buckle["items"] == ("2.02 Results of Operations and Financial Condition",
                               "9.01 Financial Statements and Exhibits")
    assert buckle["dated"] == datetime(2024, 11, 22, 5, tzinfo=UTC)  # signed 22 November: midnight EST
    assert "announced financial results" in buckle["text"] and "ix:header" not in buckle["text"]
    flowers = parse_primary_document(read(shared_sources, "sec/flws20231214_8k_item5.07.htm"))
    assert (flowers["company"], flowers["cik"]) == ("1 800 FLOWERS COM INC", 1084869)
    assert flowers["items"] == ("5.07 Submission of Matters to a Vote of Security Holders",)
    # The report is of 14 December (dei:DocumentPeriodEndDate); it was signed on the 15th.
    assert flowers["dated"] == datetime(2023, 12, 15, 5, tzinfo=UTC)


def test_sec_primary_document_signed_in_summer_starts_the_new_york_day(shared_sources):
    nvidia = parse_primary_document(read(shared_sources, "sec/nvda-20260302.htm"))
    assert nvidia["dated"] == datetime(2026, 3, 6, 5, tzinfo=UTC)  # still EST on 6 March
    cover_only = parse_primary_document((OWN / "sec_8k_cover_page_only.htm").read_bytes())
    assert cover_only["dated"] == datetime(2018, 7, 2, 4, tzinfo=UTC)  # EDT


def test_sec_primary_document_without_xbrl_reads_the_cover_page():
    document = parse_primary_document((OWN / "sec_8k_cover_page_only.htm").read_bytes())
    assert (document["company"], document["cik"], document["form"]) == ("EXAMPLE HOLDINGS, INC.", None, "8-K")
    assert document["items"] == ("8.01 Other Events", "9.01 Financial Statements and Exhibits")


def test_sec_primary_document_falls_back_to_the_date_of_report():
    markup = (OWN / "sec_8k_cover_page_only.htm").read_text().replace("Dated: July 2, 2018", "")
    assert parse_primary_document(markup)["dated"] == datetime(2018, 6, 28, 4, tzinfo=UTC)


def test_sec_primary_document_tells_an_exhibit_from_an_8k(shared_sources):
    block = read(shared_sources, "sec/bke-20241122_8-K_ex99.1_document-block.txt").decode()
    exhibit = parse_primary_document(block.split("<TEXT>", 1)[1])
    assert exhibit["form"] is None


def test_ticker_comes_from_the_sec_list_for_the_filer_only(shared_sources):
    tickers = load_tickers(read(shared_sources, "sec/company_tickers_2024-05.json"))
    assert tickers[1045810] == "NVDA" and tickers[885245] == "BKE" and tickers[1084869] == "FLWS"
    entry = Entry("sec", "https://x.test/index.htm", "8-K - Unlisted Co", None, "8-K",
                  extra={"company": "Unlisted Co", "cik": 999999999, "items": ()})
    document = build_filing(entry, text="t", items=("8.01 Other Events",), tickers=tickers)
    assert document.companies[0].ticker is None
    assert item_from_title("Regulation FD Disclosure") == "7.01 Regulation FD Disclosure"


def test_gazette_index_keeps_economic_texts(shared_sources):
    entries = parse_gazette_index(read(shared_sources, "resmi-gazete/20260916.htm"),
                                  "https://www.resmigazete.gov.tr/eskiler/2026/09/20260916.htm")
    titles = [e.title for e in entries]
    assert any("Teknik Düzenlemelere" in t for t in titles)
    assert not any("Hava Kalitesinin" in t or "İlân" in t or "Döviz Kurları" in t for t in titles)
    assert all(e.url.startswith("https://www.resmigazete.gov.tr/eskiler/2026/09/") for e in entries)
    assert entries[0].published_at == datetime(2026, 9, 15, 21, tzinfo=UTC)  # midnight in Türkiye


def test_gazette_text_windows_1254(shared_sources):
    document = parse_gazette_text(read(shared_sources, "resmi-gazete/20161123-2.htm"),
                                  "https://www.resmigazete.gov.tr/eskiler/2016/11/20161123-2.htm")
    assert document.title == "DOĞAL GAZ PİYASASI LİSANS YÖNETMELİĞİNDE DEĞİŞİKLİK YAPILMASINA DAİR YÖNETMELİK"
    assert document.section == "YÖNETMELİK" and document.language == "tr"
    assert document.text.startswith("Enerji Piyasası Düzenleme Kurumundan:")
    assert "24869 sayılı" in document.text


def test_economic_filter():
    assert is_economic("TEBLİĞLER", "Gümrük Genel Tebliği (Tarife Sınıflandırması)")
    assert not is_economic("YÖNETMELİKLER", "Hava Kalitesinin Korunması Yönetmeliği")
    assert not is_economic("ATAMA KARARLARI", "Merkez Bankası Başkanlığına atama")
