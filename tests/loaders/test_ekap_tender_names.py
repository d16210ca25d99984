"""The EKAP import fills the optional `name` of tenders.csv from İhale Adı: EKAP's `ihaleAdi`, a saved
record's `name`, or the result notice's "2- İhale konusu … a) Adı"; the release loads with them."""

from __future__ import annotations

from datetime import UTC, datetime

from loaders.ekap.importer import import_ekap
from loaders.procurement.load import load_release
from store.awards import AwardFilters, list_awards
from store.db import session_scope
from store.releases import get_active_release
from tests.helpers import FIXTURES
from tests.loaders.test_ekap_import import by_id, tables_of

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def test_imported_tenders_carry_their_names_and_awards_serve_them(app, tmp_path):
    result = import_ekap([FIXTURES / "ekap"], tmp_path / "r.zip", now=NOW, release="2026-W47")
    tenders = by_id(tables_of(result.out)["tenders.csv"], "tender_id")
    assert tenders["2026/311001"]["name"] == "ÇANKAYA HİZMET BİNALARI TEMİZLİK HİZMETİ ALIMI"  # ihaleAdi
    assert tenders["2026/366006"]["name"] == "Park bakım"  # a bundle's `name`
    assert tenders["2026/322002"]["name"] == "METRO İSTASYONU YÜRÜYEN MERDİVEN YENİLEME İŞİ"
    load_release(result.out, app.extensions["gosterge.sessions"])
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        release = get_active_release(session)
        assert release.tender_names
        items = list_awards(session, release=release, filters=AwardFilters(period=2026), limit=200).items
    assert {i["tenderId"]: i["tenderName"] for i in items}["2026/366006"] == "Park bakım"


def test_a_bare_notice_names_its_tender_by_the_work_it_describes(tmp_path):
    notice = FIXTURES / "ekap" / "foreign-contractor.md"
    result = import_ekap([notice], tmp_path / "r.zip", now=NOW, release="2026-W47")
    assert result.written
    (row,) = tables_of(result.out)["tenders.csv"]
    assert (row["tender_id"], row["name"]) == ("2026/322002", "METRO İSTASYONU YÜRÜYEN MERDİVEN YENİLEME İŞİ")
