"""Every statistic, against hand-worked answers and against an independent reading of the definitions."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loaders.procurement.load import load_release
from tests import reference_stats
from tests.conftest import release_template
from tests.helpers import walk_pages, write_release


def fetch_all(client, path: str, headers) -> list[dict]:  # noqa: ANN001
    return walk_pages(client, path, headers, limit=200)


# Amounts in TRY are served rounded to the kuruş (decisions.md, "Precision"): the independent
# computation does not round, so they may differ from it by half a kuruş.
KURUS_FIELDS = {"median", "mean", "total", "p95", "p99", "max"}


def close(a, b, *, money: bool = False) -> bool:  # noqa: ANN001
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.005 + 1e-9 if money else 1e-9)


AUTHORITIES = [
    {"authority_id": "A1", "name": "Ankara Kurum", "authority_type": "ministry", "province": 6},
    {"authority_id": "A2", "name": "İzmir Belediyesi", "authority_type": "municipality", "province": 35},
]
CONTRACTORS = [
    {"contractor_id": "C1", "name": "Bir A.Ş.", "province": 6},
    {"contractor_id": "C2", "name": "İki Ltd.", "province": 35},
    {"contractor_id": "C3", "name": "Yurtdışı GmbH", "province": None},
]
TENDERS = [
    # T1: single lot, one bid, estimated 1000, awarded 800 -> discount 0.2
    {"tender_id": "2024/000001", "authority_id": "A1", "tender_date": "2024-03-01", "procedure": "open", "sector": 23,
     "estimated_cost": 1000, "lots": 1},
    # T2: two lots, one unawarded -> excluded from discount
    {"tender_id": "2024/000002", "authority_id": "A1", "tender_date": "2024-05-01", "procedure": "negotiated-21b",
     "sector": 23, "estimated_cost": 500, "lots": 2},
    # T3: awarded above the estimate -> negative discount; unknown bids
    {"tender_id": "2025/000001", "authority_id": "A2", "tender_date": "2025-02-01", "procedure": "open", "sector": 13,
     "estimated_cost": 100, "lots": 1},
    # T4: no estimated cost
    {"tender_id": "2025/000002", "authority_id": "A2", "tender_date": "2025-06-01", "procedure": "open", "sector": 13,
     "estimated_cost": None, "lots": 3},
]
AWARDS = [
    {"tender_id": "2024/000001", "lot": 1, "bids": 1, "contractor_id": "C1", "contract_value": 800},
    {"tender_id": "2024/000002", "lot": 1, "bids": 3, "contractor_id": "C2", "contract_value": 200},
    {"tender_id": "2024/000002", "lot": 2, "bids": 0, "contractor_id": None, "contract_value": None},
    {"tender_id": "2025/000001", "lot": 1, "bids": None, "contractor_id": "C1", "contract_value": 150},
    {"tender_id": "2025/000002", "lot": 1, "bids": 1, "contractor_id": "C2", "contract_value": 50},
    {"tender_id": "2025/000002", "lot": 2, "bids": 2, "contractor_id": "C3", "contract_value": 30},
    {"tender_id": "2025/000002", "lot": 3, "bids": 1, "contractor_id": "C2", "contract_value": 20},
]
DIRECT = [
    {"purchase_id": "D1", "authority_id": "A1", "purchase_date": "2025-01-10", "sector": 4, "supplier_id": "C1", "amount": 10},
    {"purchase_id": "D2", "authority_id": "A1", "purchase_date": "2025-01-11", "sector": 4, "supplier_id": "C1", "amount": 20},
    {"purchase_id": "D3", "authority_id": "A2", "purchase_date": "2025-01-12", "sector": 4, "supplier_id": "C2", "amount": 30},
    {"purchase_id": "D4", "authority_id": "A2", "purchase_date": "2025-01-13", "sector": 13, "supplier_id": "C3", "amount": 40},
]
TABLES = {"authorities.csv": AUTHORITIES, "contractors.csv": CONTRACTORS, "tenders.csv": TENDERS,
          "awards.csv": AWARDS, "direct_purchases.csv": DIRECT}


@pytest.fixture(scope="module")
def database_template(request, tmp_path_factory):
    """TABLES loaded once for the module: the database of each test using `small` is a copy of it."""
    folder = tmp_path_factory.mktemp("small")
    yield from release_template(request, tmp_path_factory, write_release(folder / "small", TABLES), folder / "files")


@pytest.fixture
def small(app, auth, database_template):
    client = app.test_client()

    def get(path: str) -> dict:
        response = client.get(f"/v1/public-procurement/{path}", headers=auth)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    return get


def one(get, path: str) -> dict:
    items = get(path)["items"]
    assert len(items) == 1, items
    return items[0]


def test_competition_worked_example(small):
    all_years = one(small, "competition-indices?period=all")
    assert all_years["tenders"] == 4
    # awarded lots with known bids: T1(1), T2L1(3), T4L1(1), T4L2(2), T4L3(1) -> 3 of 5 single
    assert all_years["lotsWithBids"] == 5
    assert all_years["singleBidShare"] == pytest.approx(3 / 5)
    # single-lot tenders: T1 (bids 1) and T3 (bids unknown) -> 1 of 1
    assert all_years["singleBidShareSingleLot"] == pytest.approx(1.0)
    assert all_years["averageLots"] == pytest.approx((1 + 2 + 1 + 3) / 4)
    # T1: 1 - 800/1000 = 0.2; T3: 1 - 150/100 = -0.5; T2 has an unawarded lot, T4 no estimate
    assert all_years["averageDiscount"] == pytest.approx((0.2 - 0.5) / 2)
    y2024 = one(small, "competition-indices?period=2024")
    assert (y2024["tenders"], y2024["averageDiscount"]) == (2, pytest.approx(0.2))


def test_empty_sets_are_null_not_zero(small):
    y2019 = one(small, "competition-indices?period=2019")
    assert y2019["tenders"] == 0 and y2019["lotsWithBids"] == 0
    assert y2019["singleBidShare"] is None and y2019["averageLots"] is None and y2019["averageDiscount"] is None
    conc = one(small, "concentration-indices?period=2019")
    assert conc["contracts"] == 0 and conc["cr1"] is None and conc["hhi"] is None
    direct = one(small, "direct-procurement-indices?period=2024")
    assert direct["purchases"] == 0 and direct["total"] is None and direct["median"] is None


def test_every_subject_and_period_is_present(small):
    items = small("competition-indices?dimension=province&limit=200")
    latest_year = small("datasets")["latestYear"]
    periods = [str(y) for y in range(2019, latest_year + 1)] + ["all"]
    assert items["total"] == 81 * len(periods)
    first = items["items"][: len(periods)]
    assert [i["period"] for i in first] == periods
    assert all(i["subject"] == 1 for i in first)


def test_concentration_with_fewer_firms_than_four(small):
    c = one(small, "concentration-indices?period=all")
    # values: C1 800+150=950, C2 200+50+20=270, C3 30 -> total 1250
    assert (c["contracts"], c["firms"]) == (6, 3)
    assert c["cr1"] == pytest.approx(950 / 1250)
    assert c["cr4"] == 1 and c["cr10"] == 1
    shares = [950 / 1250, 270 / 1250, 30 / 1250]
    assert c["hhi"] == pytest.approx(sum((100 * s) ** 2 for s in shares))


def test_direct_quantiles_use_linear_interpolation(small):
    d = one(small, "direct-procurement-indices?period=all")
    assert d["purchases"] == 4
    assert d["median"] == pytest.approx(25.0)
    assert d["p95"] == pytest.approx(38.5)  # (n - 1) * 0.95 = 2.85 -> 30 + 0.85 * (40 - 30)
    assert d["p99"] == pytest.approx(39.7)
    assert (d["total"], d["max"], d["mean"]) == (100, 40, 25)
    assert d["largestShare"] == pytest.approx(0.4)


def test_localization_ignores_unknown_contractor_province(small):
    loc = one(small, "localization-indices?period=all")
    # known-province contracts: T1(C1@6, buyer 6: local 800), T2L1(C2@35, buyer 6: 200), T3(C1@6, buyer 35: 150),
    # T4L1(C2@35 local 50), T4L3(C2@35 local 20)
    assert loc["contracts"] == 5
    assert loc["localShareCount"] == pytest.approx(3 / 5)
    assert loc["localShareValue"] == pytest.approx((800 + 50 + 20) / (800 + 200 + 150 + 50 + 20))


def test_province_sectors_split_local_and_other(small):
    items = small("province-sectors")["items"]
    ankara = next(i for i in items if i["province"] == 6 and i["sector"] == 23)
    assert (ankara["tenders"], ankara["amount"], ankara["localAmount"], ankara["otherAmount"]) == (2, 1000, 800, 200)
    izmir = next(i for i in items if i["province"] == 35 and i["sector"] == 13)
    # C3 has no province: its 30 counts as other
    assert (izmir["tenders"], izmir["amount"], izmir["localAmount"], izmir["otherAmount"]) == (2, 250, 70, 180)
    assert [i["amount"] for i in items] == sorted((i["amount"] for i in items), reverse=True)


def test_supply_flows_only_known_provinces(small):
    flows = small("supply-flows")["items"]
    pairs = {(f["buyerProvince"], f["supplierProvince"]): (f["contracts"], f["amount"]) for f in flows}
    assert pairs == {(6, 6): (1, 800), (6, 35): (1, 200), (35, 6): (1, 150), (35, 35): (2, 70)}
    assert flows[0]["buyerProvinceName"] == "Ankara"


def test_rankings_by_amount_with_counts(small):
    authorities = small("top-authorities?province=ankara")["items"]
    assert [(a["authorityId"], a["amount"], a["count"], a["rank"]) for a in authorities] == [("A1", 1000, 2, 1)]
    direct = small("top-authorities?province=6&method=direct")["items"]
    assert [(a["authorityId"], a["amount"], a["count"]) for a in direct] == [("A1", 30, 2)]
    by_sector = small("top-contractors?sector=13")["items"]
    assert [(c["contractorId"], c["amount"]) for c in by_sector] == [("C1", 150), ("C2", 70), ("C3", 30)]
    hq = small("top-contractors?province=35&method=headquartered")["items"]
    # C2 won 200 + 50 + 20 in tenders and 30 by direct purchase
    assert [(c["contractorId"], c["amount"], c["count"]) for c in hq] == [("C2", 300, 4)]


def test_rankings_name_the_province(small):
    authorities = small("top-authorities?sector=13")["items"]
    assert [(a["province"], a["provinceName"]) for a in authorities] == [(35, "İzmir")]
    contractors = small("top-contractors?province=6")["items"]
    # C3 is abroad: no province, no name
    assert {(c["contractorId"], c["province"], c["provinceName"]) for c in contractors} == {
        ("C1", 6, "Ankara"), ("C2", 35, "İzmir")}
    assert small("top-contractors?sector=13")["items"][2]["provinceName"] is None


def test_ranking_ties_break_by_id(app, auth, tmp_path):
    tables = {**TABLES, "awards.csv": [
        {"tender_id": "2024/000001", "lot": 1, "bids": 1, "contractor_id": "C2", "contract_value": 100},
        {"tender_id": "2024/000002", "lot": 1, "bids": 1, "contractor_id": "C1", "contract_value": 100},
    ]}
    load_release(write_release(tmp_path / "ties", tables), app.extensions["gosterge.sessions"])
    items = app.test_client().get("/v1/public-procurement/top-contractors?province=6", headers=auth).get_json()["items"]
    assert [c["contractorId"] for c in items] == ["C1", "C2"]


INDEX_DIMENSIONS = {
    "competition-indices": ["overall", "province", "sector", "procedure", "authority-type"],
    "concentration-indices": ["overall", "province", "sector"],
    "direct-procurement-indices": ["overall", "province", "sector", "authority-type"],
    "localization-indices": ["overall", "province", "sector"],
}


def test_index_endpoints_match_an_independent_computation(loaded_app, auth, demo_release):
    client = loaded_app.test_client()
    data = reference_stats.read_release(demo_release)
    checked = 0
    for endpoint, dimensions in INDEX_DIMENSIONS.items():
        compute = reference_stats.INDEX[endpoint]
        for dimension in dimensions:
            items = fetch_all(client, f"/v1/public-procurement/{endpoint}?dimension={dimension}", auth)
            for item in items:
                expected = compute(data, dimension, item["subject"], item["period"])
                for name, value in expected.items():
                    assert close(item[name], reference_stats.none_if_nan(value), money=name in KURUS_FIELDS), (endpoint, dimension, item, name, value)
                checked += 1
    assert checked > 1000


def test_volumes_flows_and_rankings_match_independent_sums(loaded_app, auth, demo_release):
    client = loaded_app.test_client()
    d = reference_stats.read_release(demo_release)
    aw = d["aw"]
    cells = fetch_all(client, "/v1/public-procurement/province-sectors", auth)
    assert math.isclose(sum(c["amount"] or 0 for c in cells), aw["value"].sum(), rel_tol=1e-9)
    assert sum(c["tenders"] for c in cells) == len(d["te"])
    flows = fetch_all(client, "/v1/public-procurement/supply-flows", auth)
    loc = client.get("/v1/public-procurement/localization-indices?period=all", headers=auth).get_json()["items"][0]
    assert sum(f["contracts"] for f in flows) == loc["contracts"]
    for plate in (6, 34):
        expected = aw[aw["province"] == plate].groupby("authority_id")["value"].sum()
        expected = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        items = client.get(f"/v1/public-procurement/top-authorities?province={plate}", headers=auth).get_json()["items"]
        assert [i["authorityId"] for i in items] == [k for k, _ in expected]
        assert all(math.isclose(i["amount"], v, rel_tol=1e-9) for i, (_, v) in zip(items, expected, strict=True))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_statistics_properties_hold_on_generated_releases(make_app, make_key, tmp_path_factory, seed):
    from datetime import UTC, datetime

    from loaders.procurement.generate import generate_release

    app = make_app()
    headers = {"Authorization": f"Bearer {make_key(target_app=app)}"}
    path = generate_release("tiny", seed=seed, out=tmp_path_factory.mktemp("gen") / "r.zip",
                            published=datetime(2026, 3, 2, 6, tzinfo=UTC))
    load_release(path, app.extensions["gosterge.sessions"])
    client = app.test_client()
    for item in fetch_all(client, "/v1/public-procurement/concentration-indices?dimension=sector", headers):
        if item["contracts"]:
            assert item["cr1"] <= item["cr4"] + 1e-12 <= item["cr10"] + 2e-12 <= 1 + 3e-12
            assert 0 < item["hhi"] <= 10000 + 1e-6
    for item in fetch_all(client, "/v1/public-procurement/competition-indices?dimension=procedure", headers):
        for share in (item["singleBidShare"], item["singleBidShareSingleLot"]):
            assert share is None or 0 <= share <= 1
    for item in fetch_all(client, "/v1/public-procurement/direct-procurement-indices?dimension=province", headers):
        if item["purchases"]:
            assert item["median"] <= item["p95"] <= item["p99"] <= item["max"]
            assert 0 < item["largestShare"] <= 1
    for item in fetch_all(client, "/v1/public-procurement/localization-indices?dimension=province", headers):
        for share in (item["localShareCount"], item["localShareValue"]):
            assert share is None or 0 <= share <= 1
    for cell in fetch_all(client, "/v1/public-procurement/province-sectors", headers):
        if cell["amount"] is not None:
            # Exact in the decimals served; a reader adding the parsed doubles may be off by one ulp.
            assert Decimal(str(cell["amount"])) == Decimal(str(cell["localAmount"])) + Decimal(str(cell["otherAmount"]))


def test_datasets_say_what_the_release_holds(small):
    """Worked by hand from the tables above: the years with records and the fields behind the shares."""
    coverage = small("datasets")["coverage"]
    # Every year from 2019, the first any statistic covers completely: those the release has no record of are
    # "no records" (zeros), so that the source's complete years (completeYears) are not read as the release's.
    none = {"tenders": 0, "lots": 0, "awardedLots": 0, "purchases": 0}
    assert coverage["years"] == [{"year": year, **none} for year in range(2019, 2024)] + [
        {"year": 2024, "tenders": 2, "lots": 3, "awardedLots": 2, "purchases": 0},
        {"year": 2025, "tenders": 2, "lots": 4, "awardedLots": 4, "purchases": 4},
    ]
    assert small("datasets")["completeYears"]["competition"] == {"from": 2019, "to": 2024}
    assert coverage["awardedLots"] == 6
    # estimates: T1, T2's awarded lot and T3 (T4 has none); bids known on all but T3's; provinces: all but C3's
    assert coverage["withEstimate"] == {"count": 3, "share": round(3 / 6, 4)}
    assert coverage["withBids"] == {"count": 5, "share": round(5 / 6, 4)}
    assert coverage["withContractorProvince"] == {"count": 5, "share": round(5 / 6, 4)}
