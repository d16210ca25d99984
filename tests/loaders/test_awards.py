"""Awards, flags, profiles, benchmarks and national rankings of the demo release against an
independent reading of docs/awards-and-flags.md (tests/reference_awards.py), and a failed load
that leaves none of them behind."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from loaders.procurement import details
from loaders.procurement.load import load_release
from loaders.procurement.release_files import ReleaseFilesBuild
from store.awards import AwardFilters, list_awards
from store.benchmarks import list_discount_benchmarks
from store.db import session_scope
from store.details import detail_tables
from store.items import TOP_AUTHORITIES, TOP_CONTRACTORS
from store.models import Release, StatItem
from store.pages import Page
from store.parties import get_party_profile
from store.release_db import releases_folder
from store.releases import get_active_release, list_items
from tests import reference_awards, reference_stats
from tests.helpers import release_table_names


def same(served, expected, path: str = "") -> None:  # noqa: ANN001
    """Equal, with doubles compared to 1e-9 (the service sums in another order) and amounts exactly."""
    if isinstance(expected, dict):
        assert isinstance(served, dict) and list(served) == list(expected), (path, served, expected)
        for key in expected:
            same(served[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(served, list) and len(served) == len(expected), (path, served, expected)
        for i, (a, b) in enumerate(zip(served, expected, strict=True)):
            same(a, b, f"{path}[{i}]")
    elif isinstance(expected, float) and not isinstance(served, Decimal | int):
        assert served is not None and math.isclose(served, expected, rel_tol=1e-9, abs_tol=1e-12), (path, served, expected)
    elif isinstance(expected, float):
        assert math.isclose(float(served), expected, rel_tol=1e-9, abs_tol=1e-12), (path, served, expected)
    else:
        assert served == expected and type(served) is type(expected), (path, served, expected)


def walk(fetch: Callable[..., Page], *, limit: int = 97) -> list[dict]:
    """Every item, page after page by keyset, with a guard against paging that never ends."""
    items, after = [], None
    for _ in range(10_000):
        page = fetch(after=after, limit=limit)
        items += page.items
        if len(page.items) < limit:
            assert page.total == len(items)
            return items
        after = page.positions[-1]
    raise AssertionError("paging did not end")


def public(item: dict) -> dict:
    return {k: v for k, v in item.items() if not k.startswith("_")}


@pytest.fixture
def demo(loaded_app, demo_release):
    """The session's demo release, in a copy of the database its load wrote, and its reference awards."""
    sessions = loaded_app.extensions["gosterge.sessions"]
    d = reference_stats.read_release(demo_release)
    with session_scope(sessions) as session:
        yield session, get_active_release(session), d, reference_awards.awards(d)


def test_awards_newest_first_and_by_value_match_the_reference(demo):
    session, release, _, expected = demo
    served = walk(lambda **page: list_awards(session, release=release, **page))
    same(served, [public(i) for i in expected])
    by_value = walk(lambda **page: list_awards(session, release=release, sort="value", **page))
    same(by_value, [public(i) for i in reference_awards.by_value(expected)])
    assert {f for i in served for f in i["flags"]} == set(reference_awards.FLAG_ORDER)


@pytest.mark.parametrize("filters", [
    AwardFilters(province=34), AwardFilters(period=2024), AwardFilters(province=6, period=2023, sector=23),
    AwardFilters(supplier_province=34, procedure="open"), AwardFilters(authority_type="municipality", period=2025),
    AwardFilters(flags=("single-bid",)), AwardFilters(flags=("winner-share", "just-below-estimate"), period=2022),
    AwardFilters(procedure="negotiated-21f", flags=("negotiated-without-notice",)),
], ids=repr)
@pytest.mark.parametrize("sort", ["date", "value"])
def test_filtered_awards_match_the_reference(demo, filters, sort):
    session, release, _, expected = demo
    served = walk(lambda **page: list_awards(session, release=release, filters=filters, sort=sort, **page), limit=13)
    ordered = expected if sort == "date" else reference_awards.by_value(expected)

    def keep(i: dict) -> bool:
        checks = [(filters.province, i["authority"]["province"]), (filters.supplier_province, i["contractor"]["province"]),
                  (filters.sector, i["sector"]), (filters.procedure, i["procedure"]),
                  (filters.authority_type, i["authority"]["type"]),
                  (None if filters.period is None else str(filters.period), i["_year"])]
        return all(want is None or want == got for want, got in checks) and (
            not filters.flags or bool(set(filters.flags) & set(i["flags"])))

    same(served, [public(i) for i in ordered if keep(i)])


def test_awards_of_one_party_match_the_reference(demo):
    session, release, _, expected = demo
    authority, contractor = expected[0]["authority"]["id"], expected[-1]["contractor"]["id"]
    served = walk(lambda **page: list_awards(session, release=release, filters=AwardFilters(authority=authority), **page))
    same(served, [public(i) for i in expected if i["authority"]["id"] == authority])
    served = walk(lambda **page: list_awards(session, release=release, sort="value",
                                             filters=AwardFilters(contractor=contractor), **page))
    same(served, [public(i) for i in reference_awards.by_value(expected) if i["contractor"]["id"] == contractor])


def test_profiles_match_the_reference(demo):
    session, release, d, expected = demo
    years = ["all", *sorted({i["_year"] for i in expected})]
    authorities = list(d["au"]["authority_id"][:12]) + [expected[0]["authority"]["id"]]
    contractors = list(d["co"]["contractor_id"][:12]) + [expected[0]["contractor"]["id"]]
    for kind, ids in (("authority", authorities), ("contractor", contractors)):
        for party_id in ids:
            for period in years:
                served = get_party_profile(session, release=release, kind=kind, party_id=party_id, period=period)
                figures = {k: v for k, v in served.items() if k not in ("id", "name", "type", "province", "years")}
                same(figures, reference_awards.profile(d, expected, kind, party_id, period), f"{kind} {party_id} {period}")


def test_benchmarks_match_the_reference(demo):
    session, release, d, _ = demo
    t = reference_awards.tender_discounts(d)
    sectors, procedures = sorted({int(s) for s in t["sector"]}), sorted(set(t["procedure"]))
    for period in ["all", "2021", "2024"]:
        pooled = list_discount_benchmarks(session, release=release, period=period).items
        groups = pooled + walk(lambda period=period, **page: list_discount_benchmarks(
            session, release=release, sectors=sectors, procedures=procedures, period=period, **page))
        groups += list_discount_benchmarks(session, release=release, provinces=[6, 34, 35], period=period).items
        assert len(groups) == 1 + len(sectors) * len(procedures) + 3
        for group in groups:
            keys = {k: group[k] for k in ("sector", "procedure", "province", "period")}
            figures = {k: v for k, v in group.items() if k not in keys}
            same(figures, reference_awards.benchmark(d, **keys), str(keys))
        assert any(g["n"] >= 5 for g in groups) and any(0 < g["n"] < 5 for g in groups)


@pytest.mark.parametrize(("kind", "method", "frame", "column", "amount"), [
    (TOP_AUTHORITIES, "tender", "aw", "authority_id", "value"), (TOP_AUTHORITIES, "direct", "dp", "authority_id", "amount"),
    (TOP_CONTRACTORS, "tender", "aw", "contractor_id", "value"), (TOP_CONTRACTORS, "direct", "dp", "supplier_id", "amount"),
])
def test_national_top_ten_matches_the_reference(demo, kind, method, frame, column, amount):
    session, release, d, _ = demo
    rows, total = list_items(session, release_id=release.id, kind=kind,
                             keys={"scope": "national", "scopeId": None, "method": method}, after=None, limit=50)
    sums = d[frame].groupby(column)[amount].agg(["sum", "size"]).reset_index()
    sums["rounded"] = sums["sum"].round(2)
    top = sums.sort_values(["rounded", column], ascending=[False, True]).head(10)
    assert total == 10
    served = [json.loads(body) for _, body in rows]
    assert [s["authorityId" if kind is TOP_AUTHORITIES else "contractorId"] for s in served] == list(top[column])
    assert [s["count"] for s in served] == list(top["size"])
    assert [s["amount"] for s in served] == pytest.approx(list(top["sum"]), abs=0.006)


def test_a_load_that_fails_while_indexing_leaves_no_tables_items_or_release(app, demo_release, monkeypatch):
    sessions = app.extensions["gosterge.sessions"]
    first = load_release(demo_release, sessions).release_id
    steps = details.index_steps

    def failing(release_id: int):
        real = steps(release_id)

        def boom(session):  # noqa: ANN001, ANN202
            raise RuntimeError("disk full")

        return [*real[:3], boom, *real[3:]]

    monkeypatch.setattr(details, "index_steps", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        load_release(demo_release, sessions)
    with session_scope(sessions) as session:
        assert [r.id for r in session.scalars(select(Release))] == [first]
        assert session.scalar(select(func.count()).select_from(StatItem).where(StatItem.release_id != first)) == 0
        engine = session.get_bind()
        assert release_table_names(engine, first) == {t.name for t in detail_tables(first).all}
        assert not release_table_names(engine, first + 1)
        assert get_active_release(session).id == first
        assert list_awards(session, release=get_active_release(session), limit=1).total > 0


def test_a_load_that_fails_once_its_tables_are_written_leaves_no_file(app, demo_release, monkeypatch):
    """On SQLite the release's file is complete and attached by every new connection before the
    release is: a failure after that (building its download files) removes the file and detaches it."""
    sessions = app.extensions["gosterge.sessions"]
    first = load_release(demo_release, sessions).release_id

    def failing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("disk full")

    monkeypatch.setattr(ReleaseFilesBuild, "publish", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        load_release(demo_release, sessions)
    engine = sessions.kw["bind"]
    assert not release_table_names(engine, first + 1)
    folder = releases_folder(engine)
    if folder is not None:
        assert sorted(p.name for p in folder.iterdir()) == [f"r{first}.sqlite"]
        with engine.connect() as connection:  # a new connection attaches the served release's file only
            attached = [r[1] for r in connection.exec_driver_sql("PRAGMA database_list") if r[1] != "temp"]
        assert attached == ["main", f"r{first}"]
    with session_scope(sessions) as session:
        assert [r.id for r in session.scalars(select(Release))] == [first]
        assert list_awards(session, release=get_active_release(session), limit=1).total > 0
