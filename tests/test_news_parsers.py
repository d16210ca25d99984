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
    parse_sec_feed,
    parse_submission_text,
    primary_text,
)

OWN = Path(__file__).parent / "fixtures"


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
    text = primary_text(read(shared_sources, "sec/nvda-20260302.htm"))
    assert "FORM 8-K" in text and "ix:header" not in text


def test_sec_submission_text_names_items_by_title(shared_sources):
    filing = parse_submission_text(read(shared_sources, "sec/0001213900-25-032135.txt"))
    assert (filing["company"], filing["cik"], filing["form"]) == ("ABVC BIOPHARMA, INC.", 1173313, "8-K")
    assert filing["items"][0] == "2.02 Results of Operations and Financial Condition"
    assert len(filing["items"]) == 4
    assert "ABVC" in filing["text"] and "begin 644" not in filing["text"]


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
