"""The synthetic demo looks like the real distribution where an analyst looks first: works hold about three
quarters of the amounts, volume follows population (İstanbul, Ankara, İzmir on top, the least populous
provinces far from the top twenty), no firm wins thousands of contracts; and it stays seeded."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest

from loaders.procurement.generate import SCALES, SMALL_PROVINCES, WORKS_SECTOR, generate_tables

PUBLISHED = datetime(2026, 11, 27, 3, tzinfo=UTC)


def _awarded(seed: int) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    tables = generate_tables(SCALES["demo"], seed=seed, published=PUBLISHED)
    awards = (tables["awards.csv"].merge(tables["tenders.csv"], on="tender_id")
              .merge(tables["authorities.csv"][["authority_id", "province"]], on="authority_id"))
    awards["value"] = pd.to_numeric(awards["contract_value"])
    return awards.dropna(subset=["value"]), tables


@pytest.mark.parametrize("seed", [2026, 7, 11])
def test_the_demo_resembles_the_real_distribution(seed):
    awards, tables = _awarded(seed)
    total = awards["value"].sum()
    assert 0.6 <= awards.loc[awards["sector"] == WORKS_SECTOR, "value"].sum() / total <= 0.85
    by_province = awards.groupby("province")["value"].sum().sort_values(ascending=False)
    assert {34, 6} <= set(by_province.index[:3]) and 35 in by_province.index[:6]  # İstanbul, Ankara, İzmir
    assert not SMALL_PROVINCES & set(by_province.index[:20])  # Bayburt, Tunceli, Ardahan … are not near the top
    wins = awards.groupby("contractor_id").size()
    assert wins.max() < 0.01 * len(awards)  # a few hundred of a demo's contracts at most, not thousands
    assert awards.groupby("contractor_id")["value"].sum().max() < 0.1 * total
    assert tables["direct_purchases.csv"].groupby("supplier_id").size().max() < 0.01 * len(tables["direct_purchases.csv"])


def test_the_same_seed_gives_the_same_release():
    first, second = (generate_tables(SCALES["tiny"], seed=7, published=PUBLISHED) for _ in range(2))
    for name, table in first.items():
        pd.testing.assert_frame_equal(table, second[name], obj=name)
