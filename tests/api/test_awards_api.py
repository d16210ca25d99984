"""The awards, parties, benchmarks and red-flag endpoints over HTTP: answers equal to an independent
reading of docs/awards-and-flags.md (tests/reference_awards.py), walked page by page with the
cursors a client gets, Turkish spellings in search, and the shared behaviour of paid endpoints."""

from __future__ import annotations

import json
import math
from decimal import Decimal

import pytest

from tests import reference_awards, reference_stats
from tests.helpers import assert_problem

PP = "/v1/public-procurement"


@pytest.fixture
def demo(loaded_app, demo_release, auth):
    d = reference_stats.read_release(demo_release)
    return loaded_app.test_client(), auth, d, reference_awards.awards(d)


def walk(client, auth, path: str, **query: str) -> list[dict]:  # noqa: ANN001
    """Every item of a paged endpoint, following `next_cursor` with the same filters."""
    items, cursor = [], None
    for _ in range(1000):
        params = {**query, "limit": "200", **({"cursor": cursor} if cursor else {})}
        response = client.get(path, query_string=params, headers=auth)
        assert response.status_code == 200, response.get_json()
        body = json.loads(response.get_data(as_text=True), parse_float=Decimal)
        items += body["items"]
        cursor = body["next_cursor"]
        if cursor is None:
            assert body["total"] == len(items)
            return items
    raise AssertionError("paging did not end")


def same(served, expected, path: str = "") -> None:  # noqa: ANN001
    """Equal; doubles to 1e-9 (the service sums in another order), amounts digit for digit."""
    if isinstance(expected, dict):
        assert list(served) == list(expected), (path, served, expected)
        for key in expected:
            same(served[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert len(served) == len(expected), (path, served, expected)
        for i, (a, b) in enumerate(zip(served, expected, strict=True)):
            same(a, b, f"{path}[{i}]")
    elif isinstance(expected, float):
        assert served is not None and math.isclose(float(served), expected, rel_tol=1e-9, abs_tol=1e-12), \
            (path, served, expected)
    elif isinstance(expected, Decimal):
        assert Decimal(str(served)) == expected, (path, served, expected)
    else:
        assert served == expected, (path, served, expected)


def public(item: dict) -> dict:
    return {k: v for k, v in item.items() if not k.startswith("_")}


@pytest.mark.parametrize(("query", "keep"), [
    ({"province": "istanbul", "period": "2024"}, lambda i: i["authority"]["province"] == 34 and i["_year"] == "2024"),
    ({"flag": "single-bid,winner-share", "sort": "value"},
     lambda i: {"single-bid", "winner-share"} & set(i["flags"])),
    ({"supplierProvince": "06", "sector": "23", "procedure": "open"},
     lambda i: i["contractor"]["province"] == 6 and i["sector"] == 23 and i["procedure"] == "open"),
])
def test_awards_walked_page_by_page_equal_the_reference(demo, query, keep):
    client, auth, _, items = demo
    expected = [public(i) for i in (reference_awards.by_value(items) if query.get("sort") == "value" else items)
                if keep(i)]
    assert expected, "the filter must select awards of the demo release"
    same(walk(client, auth, f"{PP}/awards", **query), expected)


def test_search_finds_the_same_authorities_whatever_the_turkish_spelling(demo):
    client, auth, *_ = demo
    found = [{i["id"] for i in walk(client, auth, f"{PP}/authorities", q=q)}
             for q in ("İSTANBUL", "istanbul", "Istanbul", "ıstanbul", "ISTANBUL")]
    assert found[0] and all(ids == found[0] for ids in found)
    names = {i["name"] for i in walk(client, auth, f"{PP}/authorities", q="istanbul")}
    assert all("İstanbul" in name for name in names)


def test_search_puts_the_best_match_first(demo):
    client, auth, d, _ = demo
    name = d["co"]["name"].iloc[0]
    first = walk(client, auth, f"{PP}/contractors", q=name.upper())[0]
    assert first["name"] == name and first["match"] == "exact"


def test_profiles_equal_the_reference(demo):
    client, auth, d, items = demo
    authority = items[0]["authority"]["id"]
    contractor = items[0]["contractor"]["id"]
    for kind, party, period in (("authority", authority, "all"), ("contractor", contractor, "all"),
                                ("authority", authority, items[0]["_year"])):
        response = client.get(f"{PP}/{'authorities' if kind == 'authority' else 'contractors'}/{party}",
                              query_string={"period": period}, headers=auth)
        assert response.status_code == 200
        served = json.loads(response.get_data(as_text=True), parse_float=Decimal)
        expected = reference_awards.profile(d, items, kind, party, period)
        same({k: served[k] for k in expected}, expected)


def test_an_unknown_party_is_404(demo):
    client, auth, *_ = demo
    assert_problem(client.get(f"{PP}/contractors/F-none", headers=auth), 404, "not_found")


def test_benchmarks_give_quantiles_only_from_five_tenders(demo):
    client, auth, d, _ = demo
    groups = walk(client, auth, f"{PP}/discount-benchmarks", sector=",".join(str(s) for s in range(1, 44)),
                  procedure="open,negotiated-21b", period="2024")
    assert len(groups) == 43 * 2
    for group in groups:
        expected = reference_awards.benchmark(d, sector=group["sector"], procedure=group["procedure"], province=None,
                                              period="2024")
        same({k: group[k] for k in expected}, expected)
    assert any(0 < g["n"] < 5 and g["median"] is None for g in groups)
    assert any(g["n"] >= 5 and g["median"] is not None for g in groups)


def test_red_flags_are_a_free_list_naming_every_flag_an_award_carries(demo, client, make_key):
    key = make_key(credits=3)
    response = client.get(f"{PP}/red-flags", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200 and "X-Credits-Remaining" not in response.headers
    ids = {flag["id"] for flag in response.get_json()["items"]}
    assert {"single-bid", "at-or-above-estimate", "just-below-estimate", "negotiated-without-notice",
            "winner-share"} <= ids
    assert {f for i in demo[3] for f in i["flags"]} <= ids


@pytest.mark.parametrize(("kind", "method"), [("top-authorities", "tender"), ("top-authorities", "direct"),
                                              ("top-contractors", "tender"), ("top-contractors", "direct")])
def test_national_top_ten_without_province_or_sector(demo, kind, method):
    client, auth, *_ = demo
    items = walk(client, auth, f"{PP}/{kind}", method=method)
    assert [i["rank"] for i in items] == list(range(1, 11))
    assert [i["amount"] for i in items] == sorted((i["amount"] for i in items), reverse=True)


def test_both_province_and_sector_or_a_method_without_its_scope_is_400(demo):
    client, auth, *_ = demo
    assert_problem(client.get(f"{PP}/top-contractors?province=6&sector=1", headers=auth), 400, "invalid_parameters")
    body = assert_problem(client.get(f"{PP}/top-contractors?method=headquartered", headers=auth), 400,
                          "invalid_parameters")
    assert body["errors"][0]["parameter"] == "method"


@pytest.mark.parametrize("path", ["/awards", "/authorities?q=kurum", "/discount-benchmarks"])
def test_new_paid_endpoints_cost_a_credit_answer_304_for_free_then_402(demo, client, make_key, path):
    headers = {"Authorization": f"Bearer {make_key(credits=2)}"}
    first = client.get(PP + path, headers=headers)
    assert first.status_code == 200 and first.headers["X-Credits-Remaining"] == "1"
    again = client.get(PP + path, headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["X-Credits-Remaining"] == "1"
    other = PP + path + ("&" if "?" in path else "?") + "limit=3"
    assert client.get(other, headers=headers).headers["X-Credits-Remaining"] == "0"
    assert_problem(client.get(other, headers=headers), 402, "payment_required")
