"""The shared vocabulary and the free reference endpoints that serve it."""

from __future__ import annotations

import json

from store.reference.lists import fold, province_boundaries, provinces, resolve_province

BASE = "/v1/public-procurement"


def _inside(point: tuple[float, float], ring: list[list[float]]) -> bool:
    """Even-odd rule: a ray from the point crosses the ring an odd number of times."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:], strict=False):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _in_geometry(point: tuple[float, float], geometry: dict) -> bool:
    polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    return any(_inside(point, rings[0]) and not any(_inside(point, hole) for hole in rings[1:]) for rings in polygons)


def test_reference_every_province_point_lies_in_its_own_province_only():
    features = json.loads(province_boundaries())["features"]
    assert sorted(f["properties"]["plate"] for f in features) == list(range(1, 82))
    for province in provinces().values():
        point = (province.longitude, province.latitude)
        holders = [f["properties"]["plate"] for f in features if _in_geometry(point, f["geometry"])]
        assert holders == [province.plate], (province.name, holders)


def test_reference_boundary_names_are_the_official_names():
    features = json.loads(province_boundaries())["features"]
    assert {f["properties"]["plate"]: f["properties"]["name"] for f in features} == {
        p.plate: p.name for p in provinces().values()}
    assert provinces()[30].name == "Hakkâri" and resolve_province("Hakkari") == 30
    assert all(fold(p.name) == p.ascii_name for p in provinces().values())


def test_reference_endpoints_are_free(loaded_app, make_key):
    client = loaded_app.test_client()
    headers = {"Authorization": f"Bearer {make_key(credits=0)}"}
    listed = client.get(f"{BASE}/provinces", headers=headers).get_json()
    assert listed["total"] == 81 and listed["next_cursor"] is None
    ankara = next(p for p in listed["items"] if p["plate"] == 6)
    assert ankara == {"plate": 6, "name": "Ankara", "asciiName": "ankara", "capital": "Ankara",
                      "latitude": provinces()[6].latitude, "longitude": provinces()[6].longitude}
    shapes = client.get(f"{BASE}/provinces/boundaries", headers=headers)
    assert shapes.status_code == 200 and shapes.mimetype == "application/geo+json" and shapes.headers["ETag"]
    collection = shapes.get_json(force=True)
    assert collection["type"] == "FeatureCollection" and len(collection["features"]) == 81
    assert "Natural Earth" in collection["attribution"]
    procedures = client.get(f"{BASE}/procedures", headers=headers).get_json()["items"]
    assert {"open", "restricted", "negotiated-21b", "design-contest", "framework"} <= {p["id"] for p in procedures}
    assert all(p["nameTr"] and p["nameEn"] and p["legalBasis"] for p in procedures)
    prices = client.get(f"{BASE}/price-index", headers=headers).get_json()
    assert "TÜİK" in prices["source"]
    assert {"year": 2024, "decemberIndex": 2684.55, "decemberChangePercent": 44.38} in prices["items"]
    # 2025, the only complete direct-procurement year, can be shown in real terms, and the answer says how far
    # the index runs and that its last level was computed from TÜİK's published change.
    assert {"year": 2025, "decemberIndex": 3513.81, "decemberChangePercent": 30.89} in prices["items"]
    assert prices["coversThrough"] == "2025-12"
    assert "December 2025 computed from" in prices["source"]


def test_reference_datasets_names_the_complete_years(loaded_app, auth):
    body = loaded_app.test_client().get(f"{BASE}/datasets", headers=auth).get_json()
    assert body["completeYears"]["competition"] == {"from": 2019, "to": 2024}
    assert body["completeYears"]["direct"] == {"from": 2025, "to": 2025}
