"""The procurement endpoints' parameter rules (decisions.md) and paging to the end."""

from __future__ import annotations

import pytest

from tests.helpers import assert_problem, error_parameters, walk_pages
from tests.loaders.test_procurement_statistics import fetch_all

BASE = "/v1/public-procurement"

BAD = [
    ("competition-indices?dimension=planet", ["dimension"]),
    ("concentration-indices?dimension=procedure", ["dimension"]),
    ("localization-indices?dimension=authority-type", ["dimension"]),
    ("competition-indices?subject=34", ["subject"]),
    ("competition-indices?dimension=province&subject=Atlantis", ["subject"]),
    ("competition-indices?dimension=sector&subject=99", ["subject"]),
    ("competition-indices?dimension=procedure&subject=auction", ["subject"]),
    ("direct-procurement-indices?dimension=authority-type&subject=army", ["subject"]),
    ("competition-indices?period=2018", ["period"]),
    ("competition-indices?period=2999", ["period"]),
    ("competition-indices?period=last", ["period"]),
    ("competition-indices?limit=0", ["limit"]),
    ("competition-indices?limit=201", ["limit"]),
    ("competition-indices?limit=-3", ["limit"]),
    ("competition-indices?limit=ten", ["limit"]),
    ("competition-indices?cursor=garbage", ["cursor"]),
    ("province-sectors?province=99", ["province"]),
    ("province-sectors?sector=Uzay", ["sector"]),
    ("province-sectors?sort=name", ["sort"]),
    ("supply-flows?buyerProvince=Gotham&supplierProvince=0", ["buyerProvince", "supplierProvince"]),
    ("top-authorities?province=6&sector=23", ["province", "sector"]),
    ("top-authorities?sector=23&method=direct", ["method"]),
    ("top-authorities?province=6&method=headquartered", ["method"]),
    ("top-contractors?sector=23&method=headquartered", ["method"]),
    ("top-contractors?province=6&method=auction", ["method"]),
]


@pytest.mark.parametrize(("query", "parameters"), BAD, ids=[b[0] for b in BAD])
def test_invalid_parameters_are_named(loaded_app, auth, query, parameters):
    body = assert_problem(loaded_app.test_client().get(f"{BASE}/{query}", headers=auth), 400, "invalid_parameters")
    assert sorted(error_parameters(body)) == sorted(parameters)


@pytest.mark.parametrize("ref", ["34", "İstanbul", "istanbul", "ISTANBUL", "Istanbul"])
def test_province_references_match_loosely(loaded_app, auth, ref):
    items = loaded_app.test_client().get(f"{BASE}/province-sectors?province={ref}", headers=auth).get_json()["items"]
    assert items and all(i["province"] == 34 for i in items)


@pytest.mark.parametrize(("ref", "plate"), [("6", 6), ("06", 6), ("Iğdır", 76), ("igdir", 76), ("Şanlıurfa", 63),
                                            ("sanliurfa", 63)])
def test_plate_codes_and_turkish_names(loaded_app, auth, ref, plate):
    body = loaded_app.test_client().get(f"{BASE}/competition-indices?dimension=province&subject={ref}&period=all",
                                        headers=auth).get_json()
    assert [i["subject"] for i in body["items"]] == [plate]


@pytest.mark.parametrize("ref", ["23", "Yapım işleri", "YAPIM ISLERI", "construction work"])
def test_sector_references(loaded_app, auth, ref):
    items = loaded_app.test_client().get(f"{BASE}/top-contractors?sector={ref}", headers=auth).get_json()["items"]
    assert 0 < len(items) <= 10


PAGED = [
    "competition-indices?dimension=province", "concentration-indices?dimension=sector",
    "direct-procurement-indices?dimension=authority-type", "localization-indices?dimension=overall",
    "province-sectors", "province-sectors?sort=tenders", "supply-flows", "supply-flows?buyerProvince=6",
    "top-authorities?province=34", "top-contractors?province=34&method=headquartered",
]


@pytest.mark.parametrize("path", PAGED)
def test_paging_walks_every_item_once(loaded_app, auth, path):
    client = loaded_app.test_client()
    whole = fetch_all(client, f"{BASE}/{path}", auth)
    walked = walk_pages(client, f"{BASE}/{path}", auth, limit=7)
    assert walked == whole
    assert len({repr(sorted(i.items())) for i in walked}) == len(walked)


def test_province_sectors_sort_by_tenders(loaded_app, auth):
    items = fetch_all(loaded_app.test_client(), f"{BASE}/province-sectors?sort=tenders", auth)
    keys = [(-i["tenders"], i["province"], i["sector"]) for i in items]
    assert keys == sorted(keys)


def test_cursor_bound_to_filters(loaded_app, auth):
    client = loaded_app.test_client()
    cursor = client.get(f"{BASE}/supply-flows?limit=2", headers=auth).get_json()["next_cursor"]
    body = assert_problem(client.get(f"{BASE}/supply-flows?limit=2&buyerProvince=6&cursor={cursor}", headers=auth),
                          400, "invalid_parameters")
    assert error_parameters(body) == ["cursor"]
    tampered = cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB")
    assert_problem(client.get(f"{BASE}/supply-flows?limit=2&cursor={tampered}", headers=auth), 400, "invalid_parameters")


def test_cursor_from_an_older_release_is_refused(loaded_app, auth, demo_release):
    from loaders.procurement.load import load_release

    client = loaded_app.test_client()
    cursor = client.get(f"{BASE}/supply-flows?limit=2", headers=auth).get_json()["next_cursor"]
    load_release(demo_release, loaded_app.extensions["gosterge.sessions"])
    assert_problem(client.get(f"{BASE}/supply-flows?limit=2&cursor={cursor}", headers=auth), 400, "invalid_parameters")


def test_etag_changes_with_the_release(loaded_app, auth, demo_release):
    from loaders.procurement.load import load_release

    client = loaded_app.test_client()
    first = client.get(f"{BASE}/competition-indices?period=all", headers=auth)
    load_release(demo_release, loaded_app.extensions["gosterge.sessions"])
    second = client.get(f"{BASE}/competition-indices?period=all", headers={**auth, "If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200
    assert second.get_json() == first.get_json()
    assert second.headers["ETag"] != first.headers["ETag"]


def test_reference_lists_are_free_and_complete(loaded_app, make_key):
    client = loaded_app.test_client()
    headers = {"Authorization": f"Bearer {make_key(credits=0)}"}
    sectors = client.get(f"{BASE}/sectors", headers=headers).get_json()
    assert sectors["total"] == 43 and len({s["id"] for s in sectors["items"]}) == 43
    assert all(s["nameTr"] and s["nameEn"] and s["cpvDivisions"] for s in sectors["items"])
    types = client.get(f"{BASE}/authority-types", headers=headers).get_json()["items"]
    assert {"ministry", "municipality", "university", "state-enterprise", "health", "other"} <= {t["id"] for t in types}
    datasets = client.get(f"{BASE}/datasets", headers=headers).get_json()
    assert datasets["synthetic"] is True and len(datasets["datasets"]) == 5
    assert all(d["rows"] >= 0 and d["citation"] for d in datasets["datasets"])


def test_no_release_yet(client, auth):
    assert client.get(f"{BASE}/datasets", headers=auth).get_json()["release"] is None
    body = client.get(f"{BASE}/supply-flows", headers=auth).get_json()
    assert body == {"items": [], "total": 0, "next_cursor": None}
