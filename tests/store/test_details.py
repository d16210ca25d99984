"""The per-release tables (store/details.py) as the store serves them: paging to the end, releases
loaded before them, the schema step that records them, and the search's order across pages."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text, update

from store.awards import AwardFilters, list_awards
from store.benchmarks import list_discount_benchmarks
from store.db import create_store_engine, session_scope
from store.errors import DetailsMissingError, NotFoundError
from store.models import Release
from store.parties import get_party_profile, search_parties
from store.releases import get_active_release
from store.schema import CURRENT_VERSION, current_version, upgrade
from tests.loaders.test_awards import walk


@pytest.fixture
def demo(loaded_app):
    """The session's demo release, in a copy of the database its load wrote."""
    app = loaded_app
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        yield session, get_active_release(session)


def test_search_pages_follow_the_match_order_to_the_end(demo):
    session, release = demo
    whole = search_parties(session, release=release, kind="contractor", q="firma 1", limit=1000)
    paged = walk(lambda **page: search_parties(session, release=release, kind="contractor", q="firma 1", **page), limit=7)
    assert paged == whole.items and len(paged) == whole.total > 7
    ranks = [("exact", "prefix", "phrase", "words").index(i["match"]) for i in paged]
    assert ranks == sorted(ranks)
    assert all(i["name"].lower().startswith("firma 1") for i in paged)


def test_benchmark_pages_walk_every_group(demo):
    session, release = demo
    groups = walk(lambda **page: list_discount_benchmarks(session, release=release, sectors=[23, 13, 4],
                                                          provinces=list(range(1, 82)), period="all", **page), limit=50)
    assert [(g["sector"], g["province"]) for g in groups] == [(s, p) for s in (4, 13, 23) for p in range(1, 82)]


def test_unknown_party_is_not_found(demo):
    session, release = demo
    with pytest.raises(NotFoundError):
        get_party_profile(session, release=release, kind="authority", party_id="nobody")
    with pytest.raises(ValueError, match="kind"):
        search_parties(session, release=release, kind="firm", q="x")


def test_a_release_loaded_before_the_tables_is_refused_not_served_empty(demo):
    session, release = demo
    session.execute(update(Release).where(Release.id == release.id).values(details=0))
    session.flush()
    session.refresh(release)
    for call in (lambda: list_awards(session, release=release), lambda: list_discount_benchmarks(session, release=release),
                 lambda: search_parties(session, release=release, kind="authority", q="kurum")):
        with pytest.raises(DetailsMissingError):
            call()


def test_upgrade_from_version_eight_records_releases_without_tables(database_url):
    engine = create_store_engine(database_url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE releases DROP COLUMN details"))
        conn.execute(text("ALTER TABLE releases DROP COLUMN tender_names"))
        conn.execute(text("UPDATE schema_version SET version = 8"))
        conn.execute(text("INSERT INTO releases (id, name, published_at, loaded_at, synthetic, is_active, uploaded_by, "
                          "latest_year, total_rows, complete) VALUES (7, '2025-W01', '2025-01-01', '2025-01-02', "
                          "FALSE, TRUE, 'cli', 2024, 0, TRUE)"))
    assert current_version(engine) == 8
    assert upgrade(engine) == (8, CURRENT_VERSION)
    assert {"details", "tender_names"} <= {c["name"] for c in inspect(engine).get_columns("releases")}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT details, tender_names FROM releases WHERE id = 7")).one() == (0, False)
    engine.dispose()


def test_filters_without_a_kept_count_are_counted(demo):
    session, release = demo
    both = list_awards(session, release=release, filters=AwardFilters(province=34, sector=23), limit=1)
    assert both.total == len(walk(lambda **page: list_awards(
        session, release=release, filters=AwardFilters(province=34, sector=23), **page)))
    assert list_awards(session, release=release, filters=AwardFilters(period=2018)).total == 0
