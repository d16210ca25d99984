"""A synthetic weekly release that behaves like the real platform's data (marked "synthetic": true).

Heavy-tailed amounts that rise with inflation, a few provinces and firms dominating, a local-supplier
bias that differs by province and sector, single-bid shares that differ by sector and procedure, many
small direct purchases, and partial result details in the last two years.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from loaders.procurement.release import COLUMNS
from loaders.procurement.writer import Source, write_release
from store.reference.lists import authority_types, procedures, provinces, sectors

# Consumer-price level by year, 2019 = 1 (TÜİK CPI, annual averages, rounded): amounts follow it.
PRICE_LEVEL = {2019: 1.0, 2020: 1.12, 2021: 1.35, 2022: 2.42, 2023: 3.67, 2024: 5.84, 2025: 7.9, 2026: 9.6}
EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
PROCEDURE_WEIGHTS = {"open": 70, "restricted": 1.5, "negotiated-21a": 4, "negotiated-21b": 5, "negotiated-21c": 1,
                     "negotiated-21d": 0.5, "negotiated-21e": 2, "negotiated-21f": 8, "design-contest": 0.3,
                     "framework": 2}
# Where the volume is: approximate shares of Türkiye's population, in percent (TÜİK ADNKS, rounded), of the
# twenty most populous provinces; the others share the rest, the least populous less (SMALL_PROVINCES).
# Ankara's public investment is added through the ministries, which sit there.
BIG_PROVINCES = {34: 18.3, 6: 6.9, 35: 5.2, 16: 3.7, 7: 3.1, 42: 2.7, 1: 2.6, 63: 2.6, 27: 2.5, 41: 2.4, 33: 2.2,
                 21: 2.1, 31: 1.9, 45: 1.7, 38: 1.7, 55: 1.6, 10: 1.5, 46: 1.3, 65: 1.3, 9: 1.3}
REST_SHARE = 0.55  # each other province, in percent
# The least populous provinces (under about 300,000 people), with a fraction of REST_SHARE.
SMALL_PROVINCES = frozenset({69, 62, 75, 79, 29, 8, 76, 74, 18, 57, 78, 11, 40, 24, 13, 56, 12, 30, 71})
SMALL_FACTOR = 0.35
WORKS_SECTOR = 23  # construction work: about three quarters of the amounts awarded (KİK's yearly figures)
WORKS_TENDERS = 0.12  # share of the tenders that are works
WORKS_SCALE = 22  # how much larger a works tender is than a goods or services one, before the spread
# A firm's share of the wins, drawn from a Pareto law, is capped: the largest firms win a few hundred
# contracts of a demo release, as the largest do in a year of the real one, not thousands.
FIRM_SIZE_CAP = 60.0
# Authorities' sizes are drawn with a log-normal spread, then flattened (an exponent below 1), so that no
# single authority of a small province puts it among the provinces with the largest volume.
AUTHORITY_SIZE_EXPONENT = 0.6
PLACE_EXPONENT = 0.4


@dataclass(frozen=True)
class Scale:
    authorities: int
    contractors: int
    tenders: int
    direct_purchases: int


SCALES = {
    "tiny": Scale(120, 300, 600, 1500),
    "demo": Scale(1500, 5000, 8000, 30000),
    "national": Scale(45000, 400000, 1_000_000, 10_000_000),
}


def _province_weights() -> np.ndarray:
    """Each province's share of the authorities (and, raised to a power, of the firms): its population."""
    plates = np.array(sorted(provinces()))
    weights = np.array([BIG_PROVINCES.get(p, REST_SHARE * (SMALL_FACTOR if p in SMALL_PROVINCES else 1.0))
                        for p in plates])
    return weights / weights.sum()


def _sorted_dates(rng: np.random.Generator, first: int, last: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """`size` dates between two ordinals, in order, with their years."""
    days = pd.to_datetime(np.sort(rng.integers(first, last + 1, size)) - EPOCH_ORDINAL, unit="D")
    return days.date, days.year.to_numpy()


def _price_level(years: np.ndarray) -> np.ndarray:
    """PRICE_LEVEL by year; years past the table keep its last level."""
    table = np.array([PRICE_LEVEL[y] for y in sorted(PRICE_LEVEL)])
    return table[np.clip(years - min(PRICE_LEVEL), 0, len(table) - 1)]


def _pick(rng: np.random.Generator, values: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    return rng.choice(values, size=size, p=weights / weights.sum())


def generate_tables(scale: Scale, *, seed: int, published: datetime) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    plates = np.array(sorted(provinces()))
    prov_w = _province_weights()
    sector_ids = np.array(sorted(sectors()))
    sector_w = rng.gamma(1.2, 1.0, len(sector_ids))
    works = sector_ids == WORKS_SECTOR  # a set share of the tenders, whatever the other sectors drew
    sector_w[works] = WORKS_TENDERS / (1 - WORKS_TENDERS) * sector_w[~works].sum()
    sector_w[sector_ids == 13] *= 4  # medical
    type_ids = np.array(list(authority_types()))
    type_w = np.array([15, 35, 5, 8, 7, 15, 3, 12], dtype=float)[: len(type_ids)]
    # Tender procedures only: awards under the Law 4734 art. 3 exceptions are left to real records.
    proc_ids = np.array([p for p in PROCEDURE_WEIGHTS if p in procedures()])
    proc_w = np.array([PROCEDURE_WEIGHTS[p] for p in proc_ids], dtype=float)

    # Authorities: ministries sit mostly in Ankara.
    n_au = scale.authorities
    au_type = _pick(rng, type_ids, type_w, n_au)
    au_prov = _pick(rng, plates, prov_w, n_au)
    au_prov = np.where((au_type == "ministry") & (rng.random(n_au) < 0.7), 6, au_prov)
    au_ids = np.array([f"A{i:06d}" for i in range(1, n_au + 1)])
    au_size = rng.lognormal(0, 1.2, n_au) ** AUTHORITY_SIZE_EXPONENT
    authorities = pd.DataFrame({"authority_id": au_ids, "name": [f"Kurum {i} ({provinces()[p].name})" for i, p in
                                                                  enumerate(au_prov, 1)],
                                "authority_type": au_type, "province": au_prov})

    # Contractors: head offices concentrate further in the big cities; a few are abroad or unknown.
    n_co = scale.contractors
    co_prov = _pick(rng, plates, prov_w**1.3, n_co).astype(object)
    co_prov[rng.random(n_co) < 0.03] = None
    co_ids = np.array([f"F{i:07d}" for i in range(1, n_co + 1)])
    co_size = np.minimum(rng.pareto(1.1, n_co), FIRM_SIZE_CAP) + 0.05
    suffix = np.array(["İnşaat A.Ş.", "Ltd. Şti.", "Tic. A.Ş.", "Sağlık Ürünleri A.Ş.", "Bilişim Ltd. Şti."])
    contractors = pd.DataFrame({"contractor_id": co_ids,
                                "name": [f"Firma {i} {suffix[i % len(suffix)]}" for i in range(1, n_co + 1)],
                                "province": co_prov})

    # Tenders.
    first, last = date(2019, 1, 1).toordinal(), published.date().toordinal()
    n_t = scale.tenders
    t_au = _pick(rng, np.arange(n_au), au_size, n_t)
    t_dates, t_years = _sorted_dates(rng, first, last, n_t)
    t_sector = _pick(rng, sector_ids, sector_w, n_t)
    t_proc = _pick(rng, proc_ids, proc_w, n_t)
    t_lots = np.minimum(1 + rng.geometric(0.55, n_t) - 1 + (rng.random(n_t) < 0.15) * rng.integers(1, 8, n_t), 30)
    level = _price_level(t_years)
    sector_scale = 1 + WORKS_SCALE * (t_sector == WORKS_SECTOR) + 1.5 * (t_sector == 13)
    # Larger tenders where more people live (and the ministries invest): a province's weight, damped.
    place_scale = (prov_w[au_prov[t_au] - 1] / np.median(prov_w)) ** PLACE_EXPONENT
    est = rng.lognormal(13.0, 1.4, n_t) * level * sector_scale * place_scale
    est_missing = rng.random(n_t) < 0.05
    est_str = np.round(est, 2).astype(object)
    est_str[est_missing] = None
    counters: dict[int, int] = {}
    tender_ids = []
    for y in t_years:
        counters[y] = counters.get(y, 0) + 1
        tender_ids.append(f"{y}/{counters[y]:06d}")
    tender_ids = np.array(tender_ids)
    # Names (the optional column) from the sector and the year, so that no draw of the generator changes.
    sector_names = {s.id: s.name_tr for s in sectors().values()}
    names = [f"{sector_names[s]} ihalesi {y}" for s, y in zip(t_sector, t_years, strict=True)]
    tenders = pd.DataFrame({"tender_id": tender_ids, "authority_id": au_ids[t_au], "tender_date": t_dates,
                            "procedure": t_proc, "sector": t_sector, "estimated_cost": est_str, "lots": t_lots,
                            "name": names})

    # Awards: one row per lot; recent years miss results (partial source), unawarded lots happen.
    idx = np.repeat(np.arange(n_t), t_lots)
    lot_no = np.concatenate([np.arange(1, k + 1) for k in t_lots]) if n_t else np.array([], dtype=int)
    recent = t_years[idx] >= published.year - 1
    keep = ~(recent & (rng.random(len(idx)) < 0.35))
    idx, lot_no, recent = idx[keep], lot_no[keep], recent[keep]
    n_l = len(idx)
    awarded = rng.random(n_l) < 0.93
    sector_single = {s: 0.08 + 0.35 * rng.random() for s in sector_ids}
    proc_factor = {p: (2.2 if p.startswith("negotiated") else 0.8 if p == "open" else 1.2) for p in proc_ids}
    p_single = np.clip(np.array([sector_single[s] for s in t_sector[idx]]) *
                       np.array([proc_factor[p] for p in t_proc[idx]]), 0.01, 0.95)
    bids = np.where(rng.random(n_l) < p_single, 1, 2 + rng.geometric(0.35, n_l) - 1).astype(object)
    bids[(rng.random(n_l) < 0.02) | (recent & (rng.random(n_l) < 0.4))] = None
    bids[~awarded & (rng.random(n_l) < 0.5)] = 0

    # Local bias differs by province and sector.
    buyer_prov = au_prov[t_au[idx]]
    local_p = np.clip(np.array([0.15 + 0.5 * ((p * 37) % 11) / 10 for p in buyer_prov]) +
                      np.array([0.2 if s in (23, 4, 41) else -0.1 for s in t_sector[idx]]), 0.02, 0.95)
    go_local = rng.random(n_l) < local_p
    winner = _pick(rng, np.arange(n_co), co_size, n_l)
    by_prov = {p: np.flatnonzero(co_prov == p) for p in plates}
    for p in plates:
        pool = by_prov[p]
        rows = np.flatnonzero(go_local & (buyer_prov == p))
        if len(pool) and len(rows):
            winner[rows] = _pick(rng, pool, co_size[pool], len(rows))
    lot_est = np.where(est_missing[idx], rng.lognormal(12.5, 1.3, n_l) * level[idx], est[idx] / t_lots[idx])
    value = np.round(lot_est * rng.uniform(0.55, 1.08, n_l), 2).astype(object)
    contractor = co_ids[winner].astype(object)
    contractor[~awarded] = None
    value[~awarded] = None
    awards = pd.DataFrame({"tender_id": tender_ids[idx], "lot": lot_no, "bids": bids, "contractor_id": contractor,
                           "contract_value": value})

    # Direct purchases: many, small, mostly local.
    n_d = scale.direct_purchases
    d_au = _pick(rng, np.arange(n_au), au_size, n_d)
    d_dates, d_years = _sorted_dates(rng, first, last, n_d)
    amount = np.round(rng.lognormal(8.6, 1.5, n_d) * _price_level(d_years), 2)
    d_prov = au_prov[d_au]
    d_supplier = _pick(rng, np.arange(n_co), co_size, n_d)
    local_d = rng.random(n_d) < 0.7
    for p in plates:
        pool = by_prov[p]
        rows = np.flatnonzero(local_d & (d_prov == p))
        if len(pool) and len(rows):
            d_supplier[rows] = _pick(rng, pool, co_size[pool], len(rows))
    direct = pd.DataFrame({"purchase_id": [f"DT{i:08d}" for i in range(1, n_d + 1)], "authority_id": au_ids[d_au],
                           "purchase_date": d_dates, "sector": _pick(rng, sector_ids, sector_w, n_d),
                           "supplier_id": co_ids[d_supplier], "amount": amount})
    return {"authorities.csv": authorities, "contractors.csv": contractors, "tenders.csv": tenders,
            "awards.csv": awards, "direct_purchases.csv": direct}


def generate_release(scale: str, *, seed: int, out: Path, published: datetime | None = None) -> Path:
    published = published or datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    iso = published.isocalendar()
    tables = generate_tables(SCALES[scale], seed=seed, published=published)
    citation = f"Synthetic data generated by Gösterge (seed {seed}); not real procurement records."
    sources = dict.fromkeys(COLUMNS, Source(citation, "https://gosterge.example/synthetic"))
    return write_release(tables, out, release=f"{iso.year}-W{iso.week:02d}", published=published, synthetic=True,
                         sources=sources)
