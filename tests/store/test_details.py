"""The per-release tables (store/details.py) as the store serves them: paging to the end, releases
loaded before them, the schema step that records them, and the search's order across pages."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, event, inspect, select, text, update

from store.awards import AwardFilters, list_awards, release_tables
from store.benchmarks import list_discount_benchmarks
from store.db import create_store_engine, make_session_factory, session_scope
from store.details import create_detail_tables, detail_tables, insert_detail_rows
from store.errors import DetailsMissingError, NotFoundError, StoreConflictError
from store.models import Release
from store.parties import get_party_profile, search_parties
from store.profile_bodies import unpack_body
from store.release_db import release_file, releases_folder
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


AWKWARD_TEXT = ("tab\there", "line\nbreak", "back\\slash", "\\N", "", "İğüşöç — ₺", "quote \" and ' and ,")


def test_detail_rows_keep_every_value_and_skip_per_row_inserts(database_url):
    """The rows of a release's tables arrive as written, whatever their text holds (COPY's own escapes
    included) and however small or missing a number; on PostgreSQL they go through COPY, not one
    INSERT per row (measured: docs/benchmarks.md, "The national load on PostgreSQL")."""
    engine = create_store_engine(database_url)
    upgrade(engine)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda conn, cursor, statement, *rest: statements.append(statement))
    tables = detail_tables(991)
    parties = [(i, "contractor", f"c{i}", name, name.lower(), None if i % 2 else 34, None, i, None if i % 3 else "12.50",
                None, "2024") for i, name in enumerate(AWKWARD_TEXT)]
    benchmarks = [("all", "23", "open", "34", 3, 0.1, 1e-300, -0.0, 1 / 3, 2.5e10, None)]
    columns = tuple(c.name for c in tables.parties.columns)
    with session_scope(make_session_factory(engine)) as session:
        create_detail_tables(session, 991)
        insert_detail_rows(session, tables.parties, columns, parties)
        insert_detail_rows(session, tables.benchmarks, tuple(c.name for c in tables.benchmarks.columns), benchmarks)
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.execute(select(tables.parties).order_by(tables.parties.c.seq))] == parties
        assert [tuple(r) for r in conn.execute(select(tables.benchmarks))] == benchmarks
    if engine.dialect.name == "postgresql":
        assert not [s for s in statements if s.lstrip().upper().startswith("INSERT INTO PARTIES_R991")], statements
    engine.dispose()


def test_a_refused_detail_row_is_the_stores_own_error(database_url):
    """A row the database refuses (here a repeated key) fails the batch with the store's error, on
    PostgreSQL's COPY as on SQLite's executemany, so that the load's failure path is the same."""
    engine = create_store_engine(database_url)
    upgrade(engine)
    tables = detail_tables(992)
    row = ("all", "23", "open", "34", 3, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
    with pytest.raises(StoreConflictError), session_scope(make_session_factory(engine)) as session:
        create_detail_tables(session, 992)
        insert_detail_rows(session, tables.benchmarks, tuple(c.name for c in tables.benchmarks.columns), [row, row])
    engine.dispose()


def test_a_release_loaded_with_text_profiles_still_answers(loaded_app):
    """Profiles stored as JSON text (releases loaded before bodies were compressed) answer as those
    stored compressed: the same profile for every party and period the release has."""
    sessions = loaded_app.extensions["gosterge.sessions"]
    with session_scope(sessions) as session:
        release = get_active_release(session)
        tables = release_tables(session, release)
        p, f = tables.parties.c, tables.profiles.c
        parties = {seq: (kind, party) for seq, kind, party in session.execute(select(p.seq, p.kind, p.party_id))}
        stored = session.execute(select(f.seq, f.period, f.body)).tuples().all()
        assert stored and all(isinstance(body, bytes) for _, _, body in stored)
        asked = [(*parties[seq], period) for seq, period, _ in stored]
        before = [get_party_profile(session, release=release, kind=k, party_id=i, period=y) for k, i, y in asked]
    rows = [{"seq": seq, "period": period, "body": unpack_body(body)} for seq, period, body in stored]
    rewrite = f"UPDATE {tables.profiles.name} SET body = :body WHERE seq = :seq AND period = :period"
    engine = sessions.kw["bind"]
    folder = releases_folder(engine)
    if folder is None:  # the tables are in the main database, and the column was text
        with engine.begin() as conn:
            conn.execute(text(f"ALTER TABLE {tables.profiles.name} ALTER COLUMN body TYPE TEXT USING ''"))
            conn.execute(text(rewrite), rows)
    else:  # the release's own file, which the store's connections attach read-only
        writer = create_engine(f"sqlite:///{release_file(folder, release.id)}")
        with writer.begin() as conn:
            conn.execute(text(rewrite), rows)
        writer.dispose()
    with session_scope(sessions) as session:
        release = get_active_release(session)
        f = release_tables(session, release).profiles.c
        assert all(isinstance(body, str) for body in session.scalars(select(f.body)))
        after = [get_party_profile(session, release=release, kind=k, party_id=i, period=y) for k, i, y in asked]
    assert after == before
