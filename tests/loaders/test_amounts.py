"""Money amounts are exact to the kuruş as served: at most 2 decimals, and the parts add up exactly."""

from __future__ import annotations

import json
from decimal import Decimal

from loaders.procurement.load import load_release
from tests.helpers import write_release
from tests.loaders.test_procurement_statistics import TABLES

# Every field of a statistics item that is an amount in TRY (procurement-statistics.md).
MONEY_FIELDS = {"amount", "localAmount", "otherAmount", "median", "mean", "total", "p95", "p99", "max"}
PAGED = ["direct-procurement-indices?dimension=province", "direct-procurement-indices?dimension=sector",
         "direct-procurement-indices?dimension=authority-type", "direct-procurement-indices",
         "province-sectors", "supply-flows", "top-authorities?province=34", "top-authorities?province=6&method=direct",
         "top-authorities?sector=1", "top-contractors?province=34", "top-contractors?province=6&method=headquartered",
         "top-contractors?province=35&method=direct", "top-contractors?sector=1"]


def walk_exact(client, path: str, headers) -> list[dict]:  # noqa: ANN001
    """Every item of a collection, numbers read as the decimals written (no float rounding)."""
    items, url = [], f"/v1/public-procurement/{path}{'&' if '?' in path else '?'}limit=200"
    for _ in range(1000):
        body = json.loads(client.get(url, headers=headers).get_data(as_text=True), parse_float=Decimal)
        items += body["items"]
        if body["next_cursor"] is None:
            return items
        url = f"/v1/public-procurement/{path}{'&' if '?' in path else '?'}limit=200&cursor={body['next_cursor']}"
    raise AssertionError("paging did not end")


def test_every_served_amount_is_exact_to_the_kurus(loaded_app, auth):
    client = loaded_app.test_client()
    seen = 0
    for path in PAGED:
        for item in walk_exact(client, path, auth):
            for name in MONEY_FIELDS & item.keys():
                value = item[name]
                if value is None:
                    continue
                assert Decimal(value).as_tuple().exponent >= -2, (path, name, value)
                seen += 1
            if "localAmount" in item and item["amount"] is not None:
                assert item["amount"] == item["localAmount"] + item["otherAmount"], item
    assert seen > 1000


def test_parts_are_rounded_half_away_from_zero_and_summed(app, auth, tmp_path):
    # Values with more decimals than kuruş: local 800.004 + 0.004 = 800.008 -> 800.01; other 200.005 -> 200.01.
    awards = [dict(a) for a in TABLES["awards.csv"]]
    awards[0]["contract_value"], awards[1]["contract_value"] = "800.004", "200.005"
    awards.append({"tender_id": "2024/000002", "lot": 2, "bids": 1, "contractor_id": "C1", "contract_value": "0.004"})
    del awards[2]
    load_release(write_release(tmp_path / "r", {**TABLES, "awards.csv": awards}), app.extensions["gosterge.sessions"])
    client = app.test_client()
    text = client.get("/v1/public-procurement/province-sectors?province=6&sector=23", headers=auth).get_data(as_text=True)
    cell = json.loads(text, parse_float=Decimal)["items"][0]
    assert (cell["localAmount"], cell["otherAmount"], cell["amount"]) == (
        Decimal("800.01"), Decimal("200.01"), Decimal("1000.02"))
    top = json.loads(client.get("/v1/public-procurement/top-authorities?province=6", headers=auth).get_data(as_text=True),
                     parse_float=Decimal)["items"][0]
    assert top["amount"] == Decimal("1000.01")  # the exact 1000.013, rounded once
