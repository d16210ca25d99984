"""Party search through a release's name index (SQLite FTS5) finds, ranks, counts and pages exactly
as the word index does, and the index goes with the release's other tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, inspect, select

import store.name_index as name_index_module
import store.parties as parties_module
from store.awards import release_tables
from store.db import create_store_engine, make_session_factory
from store.details import drop_next_detail_table
from store.name_index import name_index, names_btree
from store.parties import search_parties
from store.reference.folding import name_words
from store.release_db import release_file, releases_folder
from store.releases import get_active_release
from tests.loaders.test_awards import walk


@pytest.fixture
def searched(loaded_database, monkeypatch):
    engine = create_store_engine(loaded_database)
    if engine.dialect.name != "sqlite":
        pytest.skip("the name index is SQLite's (FTS5); PostgreSQL searches the word index")
    # The demo release's names are too few for most words to reach the name index by themselves.
    monkeypatch.setattr(parties_module, "DRIVER_PROBE", 1)
    session = make_session_factory(engine)()
    release = get_active_release(session)
    names = session.scalars(select(release_tables(session, release).parties.c.name)).all()
    yield session, release, names
    session.close()
    engine.dispose()


def _word_index_search(monkeypatch, **query):
    with monkeypatch.context() as m:
        m.setattr(parties_module, "has_name_index", lambda *args: False)
        return search_parties(**query)


# Queries as people type them: a whole name, its first words with the last one cut short, a word of it,
# one letter of it, words of two different names, legal forms and punctuation.
@st.composite
def queries(draw, names):
    name = draw(st.sampled_from(names))
    words = name.split()
    cut = draw(st.integers(1, max(1, len(name_words(name)))))
    return draw(st.sampled_from([
        name, " ".join(words[:cut]), " ".join(words[:cut])[:-1] or name, draw(st.sampled_from(words)),
        draw(st.sampled_from(words))[:1], f"{words[-1]} {draw(st.sampled_from(names)).split()[0]}",
        "A.Ş.", "firma", "a a", "ltd şti", "İSTANBUL", "kurum 1", "near or not and",
    ]))


# Each way the name index answers: a long word as the words it begins or as a prefix query (more
# than MOST_TERMS words), the exact and prefix ranks from the B-tree on the names or from the index
# (FEW_BY_NAME names or more, or a release built before the B-tree).
WAYS = {"as built": {}, "long words as prefixes": {"MOST_TERMS": 0}, "ranks from the index": {"FEW_BY_NAME": 1},
        "no B-tree": {"_has_names_btree": lambda connection, release_id, schema: False}}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_name_index_gives_the_word_index_pages(searched, monkeypatch, data):
    session, release, names = searched
    q = data.draw(queries(names))
    kind = data.draw(st.sampled_from(["authority", "contractor"]))
    limit = data.draw(st.sampled_from([1, 7, 50]))
    query = dict(session=session, release=release, kind=kind, q=q, limit=limit)
    with monkeypatch.context() as m:
        for attribute, value in WAYS[data.draw(st.sampled_from(sorted(WAYS)))].items():
            m.setattr(name_index_module, attribute, value)
        first = search_parties(**query)
        after = first.positions[-1] if first.positions else None
        second = search_parties(**query, after=after) if after else None
    expected = _word_index_search(monkeypatch, **query)
    assert (first.items, first.positions, first.total) == (expected.items, expected.positions, expected.total)
    if after:
        assert second == _word_index_search(monkeypatch, **query, after=after)


def test_a_common_word_pages_to_its_end_in_match_order(searched, monkeypatch):
    session, release, _ = searched
    fetch = dict(session=session, release=release, kind="contractor", q="a")
    paged = walk(lambda **page: search_parties(**fetch, **page), limit=97)
    assert paged == walk(lambda **page: _word_index_search(monkeypatch, **fetch, **page), limit=1000)
    assert len(paged) > 97


def test_the_name_index_is_dropped_with_the_release_tables(searched):
    session, release, _ = searched
    parties = release_tables(session, release).parties
    schema = parties.schema  # on SQLite, the release's own file
    assert schema is not None
    assert name_index(release.id) in inspect(session.connection()).get_table_names(schema=schema)
    indexes = inspect(session.connection()).get_indexes(parties.name, schema=schema)
    assert names_btree(release.id) in [i["name"] for i in indexes]
    while drop_next_detail_table(session, release.id):
        pass
    left = [t for t in inspect(session.connection()).get_table_names() if t.endswith(f"_r{release.id}")
            or f"_r{release.id}_" in t]
    assert left == [] and not release_file(releases_folder(session.get_bind()), release.id).exists()


def test_a_total_is_counted_once_per_release_load(searched):
    """The count reads a whole posting list: the next page or search of the same words takes the
    kept total, and a release loaded again (another load time) is counted afresh."""
    session, release, _ = searched
    counts: list[str] = []

    def seen(conn, cursor, statement, *args):  # noqa: ANN001, ANN002
        if "count(*)" in statement and name_index(release.id) in statement:
            counts.append(statement)

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", seen)
    try:
        query = dict(session=session, release=release, kind="contractor", q="a", limit=1)
        first = search_parties(**query)
        again = search_parties(**query, after=first.positions[-1])
        assert len(counts) == 1 and again.total == first.total
        release.loaded_at = release.loaded_at + timedelta(seconds=1)
        assert search_parties(**query).total == first.total and len(counts) == 2
    finally:
        event.remove(engine, "before_cursor_execute", seen)
        session.rollback()
