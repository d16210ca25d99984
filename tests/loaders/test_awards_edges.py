"""A small handwritten release that walks the edges of docs/awards-and-flags.md: several lots, unknown
bids, a zero and an empty estimate, a group of four tenders, a winner share of exactly one half,
an award at exactly 0.99 of its estimate, Turkish names, a tender without a name."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from loaders.procurement.load import load_release
from store.awards import AwardFilters, list_awards
from store.benchmarks import list_discount_benchmarks
from store.db import session_scope
from store.parties import empty_figures, get_party_profile, search_parties
from store.releases import get_active_release
from tests import reference_awards, reference_stats
from tests.conftest import release_template
from tests.helpers import write_release
from tests.loaders.test_awards import public, same

AUTHORITIES = [
    {"authority_id": "A1", "name": "İSTANBUL BÜYÜKŞEHİR BELEDİYESİ", "authority_type": "municipality", "province": 34},
    {"authority_id": "A2", "name": "Ankara Üniversitesi Rektörlüğü", "authority_type": "university", "province": 6},
    {"authority_id": "A3", "name": "Çankaya Belediyesi", "authority_type": "municipality", "province": 6},
]
CONTRACTORS = [
    {"contractor_id": "C1", "name": "ŞAHİN İnşaat A.Ş.", "province": 34},
    {"contractor_id": "C2", "name": "Öztürk Ltd. Şti.", "province": 6},
    {"contractor_id": "C3", "name": "Yabancı GmbH", "province": None},
    {"contractor_id": "C4", "name": "Istanbul Gıda", "province": 34},
    {"contractor_id": "C5", "name": "Işık Yapı", "province": 7},
]


def tender(tid, authority, day, procedure, sector, est, lots, name):  # noqa: ANN001, ANN201
    return {"tender_id": tid, "authority_id": authority, "tender_date": day, "procedure": procedure, "sector": sector,
            "estimated_cost": est, "lots": lots, "name": name}


TENDERS = [
    tender("2024/1", "A1", "2024-03-01", "open", 23, "1000", 1, "Okul yapımı"),  # value = estimate
    tender("2024/2", "A1", "2024-03-01", "open", 23, "1000", 1, ""),  # exactly 0.99 of the estimate; no name
    tender("2024/3", "A1", "2024-05-01", "negotiated-21b", 23, None, 2, "Deprem onarımı"),  # two lots, no estimate
    tender("2024/4", "A1", "2024-06-01", "restricted", 23, "0", 1, "Sıfır tahmin"),  # estimate 0
    tender("2025/1", "A2", "2025-01-10", "open", 13, "200", 1, "İlaç alımı"),
    tender("2025/2", "A2", "2025-01-10", "negotiated-21a", 13, "100", 1, "Tıbbi cihaz"),
    tender("2025/3", "A2", "2025-02-01", "open", 13, "400", 2, "Lab malzemesi"),  # a lot not awarded
    tender("2025/4", "A2", "2025-03-01", "open", 13, "1000", 1, "Hizmet"),  # bids unknown
    tender("2025/5", "A2", "2025-04-01", "open", 13, "500", 1, "Sarf"),
]


def award(tid, lot, bids, contractor, value):  # noqa: ANN001, ANN201
    return {"tender_id": tid, "lot": lot, "bids": bids, "contractor_id": contractor, "contract_value": value}


AWARDS = [
    award("2024/1", 1, 1, "C1", "1000"), award("2024/2", 1, 2, "C2", "990"), award("2024/3", 1, None, "C2", "500"),
    award("2024/3", 2, 3, "C1", "300"), award("2024/4", 1, 1, "C3", "100"), award("2025/1", 1, 1, "C4", "100"),
    award("2025/2", 1, 1, "C2", "100"), award("2025/3", 1, 2, "C4", "100"), award("2025/3", 2, 0, None, None),
    award("2025/4", 1, None, "C1", "800"), award("2025/5", 1, 4, "C2", "450"),
]
TABLES = {"authorities.csv": AUTHORITIES, "contractors.csv": CONTRACTORS, "tenders.csv": TENDERS, "awards.csv": AWARDS}


@pytest.fixture(scope="module")
def edges_release(tmp_path_factory) -> Path:
    return write_release(tmp_path_factory.mktemp("edges") / "edges", TABLES, optional=True)


@pytest.fixture(scope="module")
def database_template(request, tmp_path_factory, edges_release):
    """The edge cases loaded once for the module: the database of each test using `edges` is a copy of it."""
    yield from release_template(request, tmp_path_factory, edges_release, tmp_path_factory.mktemp("edges-files"))


@pytest.fixture
def edges(app, database_template, edges_release):
    d = reference_stats.read_release(edges_release)
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        yield session, get_active_release(session), d, reference_awards.awards(d)


def by_tender(session, release, **filters):  # noqa: ANN001, ANN201
    items = list_awards(session, release=release, filters=AwardFilters(**filters), limit=200).items
    return {(i["tenderId"], i["lot"]): i for i in items}


def test_edge_awards_flags_and_names(edges):
    session, release, _, expected = edges
    a = by_tender(session, release)
    assert len(a) == 10  # the lot without a contractor is no award
    assert a[("2024/1", 1)]["flags"] == ["at-or-above-estimate", "single-bid"]
    assert a[("2024/1", 1)]["discount"] == 0.0 and a[("2024/1", 1)]["tenderName"] == "Okul yapımı"
    assert a[("2024/2", 1)]["flags"] == ["just-below-estimate", "winner-share"]  # C2 won 1490 of A1's 2890
    assert a[("2024/2", 1)]["tenderName"] is None
    several = a[("2024/3", 1)]
    assert (several["estimatedCost"], several["discount"], several["bids"], several["lots"]) == (None, None, None, 2)
    assert several["flags"] == ["negotiated-without-notice", "winner-share"]
    zero = a[("2024/4", 1)]
    assert (zero["estimatedCost"], zero["discount"], zero["flags"]) == (Decimal("0.00"), None, ["single-bid"])
    assert a[("2025/4", 1)]["flags"] == ["winner-share"]  # bids unknown: no single-bid; C1 800 of 1550
    assert a[("2025/2", 1)]["flags"] == ["at-or-above-estimate"]  # 21/a: neither competitive nor without notice
    assert a[("2025/4", 1)]["contractValue"] == Decimal("800.00") and a[("2025/4", 1)]["discount"] == pytest.approx(0.2)
    same(list_awards(session, release=release, limit=200).items, [public(i) for i in expected])


def test_a_winner_share_of_exactly_half_is_not_flagged(app, tmp_path):
    tables = {**TABLES, "awards.csv": [award("2025/1", 1, 1, "C4", "100"), award("2025/2", 1, 1, "C2", "100")]}
    load_release(write_release(tmp_path / "half", tables, optional=True), app.extensions["gosterge.sessions"])
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        items = list_awards(session, release=get_active_release(session)).items
    assert [i["flags"] for i in items] == [["single-bid"], ["at-or-above-estimate"]]  # same day: by tender id


def test_a_release_without_names_serves_no_tender_name(app, tmp_path):
    no_names = {**TABLES, "tenders.csv": [{k: v for k, v in t.items() if k != "name"} for t in TENDERS]}
    load_release(write_release(tmp_path / "plain", no_names), app.extensions["gosterge.sessions"])
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        items = list_awards(session, release=get_active_release(session)).items
    assert items and all("tenderName" not in i for i in items)


def test_edge_profiles(edges):
    session, release, d, expected = edges
    a1 = get_party_profile(session, release=release, kind="authority", party_id="A1")
    assert (a1["contracts"], a1["value"], a1["tenders"]) == (5, Decimal("2890.00"), 4)
    assert (a1["singleBidShare"], a1["lotsWithBids"]) == (Decimal("0.5"), 4)
    assert (a1["averageDiscount"], a1["discountTenders"]) == (pytest.approx(Decimal("0.005")), 2)
    assert (a1["localShare"], a1["localShareContracts"]) == (Decimal("0.5"), 4)
    assert [c["id"] for c in a1["topContractors"]] == ["C2", "C1", "C3"]
    assert a1["provinces"][-1] == {"province": None, "contracts": 1, "value": Decimal("100.00")}
    assert a1["years"] == [{"period": "2024", "contracts": 5, "value": Decimal("2890.00"), "tenders": 4}]
    for kind, party in (("authority", "A1"), ("authority", "A2"), ("contractor", "C1"), ("contractor", "C2"),
                        ("contractor", "C3"), ("contractor", "C4")):
        for period in ("all", "2024", "2025"):
            served = get_party_profile(session, release=release, kind=kind, party_id=party, period=period)
            figures = {k: v for k, v in served.items() if k not in ("id", "name", "type", "province", "years")}
            same(figures, reference_awards.profile(d, expected, kind, party, period), f"{party} {period}")
    c3 = get_party_profile(session, release=release, kind="contractor", party_id="C3")
    assert (c3["localShare"], c3["localShareContracts"]) == (None, 0)  # its province is unknown


def test_a_party_without_records_has_empty_figures_of_the_same_shape(edges):
    session, release, _, _ = edges
    idle = get_party_profile(session, release=release, kind="authority", party_id="A3", period="2024")
    busy = get_party_profile(session, release=release, kind="authority", party_id="A1", period="2024")
    assert list(idle) == list(busy)
    assert {k: idle[k] for k in idle if k not in ("id", "name", "type", "province", "years")} == empty_figures(
        "authority", "2024")
    assert idle["years"] == []
    c5 = get_party_profile(session, release=release, kind="contractor", party_id="C5")
    assert list(c5) == list(get_party_profile(session, release=release, kind="contractor", party_id="C1"))


def test_edge_benchmarks_hide_groups_of_fewer_than_five(edges):
    session, release, _, _ = edges
    group = list_discount_benchmarks(session, release=release, sectors=[13], period="2025").items
    # 2025/1 0.5, 2025/2 0, 2025/4 0.2, 2025/5 0.1; 2025/3 has a lot not awarded
    assert group == [{"sector": 13, "procedure": None, "province": None, "period": "2025", "n": 4, "p10": None,
                      "p25": None, "median": None, "p75": None, "p90": None, "mean": None}]
    pooled = list_discount_benchmarks(session, release=release).items[0]
    # with 2024/1 (0) and 2024/2 (0.01): [0, 0, 0.01, 0.1, 0.2, 0.5]
    assert pooled["n"] == 6 and pooled["median"] == pytest.approx(0.055) and pooled["p10"] == pytest.approx(0.0)
    assert pooled["p90"] == pytest.approx(0.35) and pooled["mean"] == pytest.approx(0.81 / 6)
    empty = list_discount_benchmarks(session, release=release, sectors=[1], provinces=[34, 6], period="2019")
    assert empty.total == 2 and [g["n"] for g in empty.items] == [0, 0]
    assert [(g["province"], g["mean"]) for g in empty.items] == [(6, None), (34, None)]


@pytest.mark.parametrize("q", ["istanbul", "İSTANBUL", "Istanbul", "ıstanbul", "  IsTaNbUl "])
def test_search_folds_turkish_letters_and_case(edges, q):
    session, release, _, _ = edges
    authorities = search_parties(session, release=release, kind="authority", q=q)
    assert [(i["id"], i["match"]) for i in authorities.items] == [("A1", "prefix")]
    contractors = search_parties(session, release=release, kind="contractor", q=q)
    assert [(i["id"], i["match"]) for i in contractors.items] == [("C4", "prefix")]


def test_search_ranks_exact_prefix_phrase_then_words(edges):
    session, release, _, _ = edges

    def found(q: str, kind: str = "contractor") -> list[tuple[str, str]]:
        return [(i["id"], i["match"]) for i in search_parties(session, release=release, kind=kind, q=q).items]

    assert found("şahin inşaat a.ş.") == [("C1", "exact")]
    assert found("SAHIN") == [("C1", "prefix")]
    assert found("insaat a") == [("C1", "phrase")]
    assert found("gıda istanbul") == [("C4", "words")]
    assert found("belediye", "authority") == [("A1", "phrase"), ("A3", "phrase")]  # by value: A3 has none
    assert found("ISIK") == [("C5", "prefix")]
    assert found("stanbul") == [] and found("...") == []
    idle = search_parties(session, release=release, kind="contractor", q="ışık yapı").items[0]
    assert idle == {"id": "C5", "name": "Işık Yapı", "province": 7, "contracts": 0, "value": None, "match": "exact"}
    a1 = search_parties(session, release=release, kind="authority", q="büyükşehir").items[0]
    assert (a1["type"], a1["contracts"], a1["value"], a1["tenders"]) == ("municipality", 5, Decimal("2890.00"), 4)
