"""Answers remembered per data version never outlive the data, and never skip a check of the caller."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from loaders.news.sample import load_sample, sample_articles
from loaders.procurement.generate import generate_release
from loaders.procurement.load import load_release
from store.db import session_scope
from store.keys import find_key, revoke_key
from store.news import upsert_article
from tests.helpers import assert_problem

INDEX = "/v1/public-procurement/competition-indices?dimension=province&period=2024"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def past_key_cache_time(app) -> None:  # noqa: ANN001
    """Wait until the workers have read the data versions again (api/keycache.py)."""
    time.sleep(app.config["KEY_CACHE_MS"] / 1000 + 0.05)


def test_a_new_release_is_served_within_the_key_cache_time(make_app, loaded_database, make_key, tmp_path):
    loaded_app = make_app(KEY_CACHE_MS=250)  # the shipped default
    client, headers = loaded_app.test_client(), bearer(make_key(target_app=loaded_app))
    before = client.get(INDEX, headers=headers)
    assert client.get(INDEX, headers=headers).get_data() == before.get_data()  # remembered
    newer = generate_release("tiny", seed=99, out=tmp_path / "newer.zip",
                             published=datetime(2026, 11, 27, 6, tzinfo=UTC))
    # Loaded through the store, as another process would: the app is not told.
    load_release(newer, loaded_app.extensions["gosterge.sessions"])
    past_key_cache_time(loaded_app)
    after = client.get(INDEX, headers=headers)
    assert after.status_code == 200 and after.get_data() != before.get_data()
    assert after.headers["ETag"] != before.headers["ETag"]


def test_a_new_article_is_listed_within_the_key_cache_time(make_app, loaded_database, make_key):
    loaded_app = make_app(KEY_CACHE_MS=250)  # the shipped default
    sessions = loaded_app.extensions["gosterge.sessions"]
    load_sample(sessions)
    client, headers = loaded_app.test_client(), bearer(make_key(target_app=loaded_app))
    first = client.get("/v1/finance-news/articles?limit=1", headers=headers).get_json()
    article = {**sample_articles()[0], "id": "fed-00000000000000ff", "publishedAt": "2026-11-21T12:00:00Z"}
    with session_scope(sessions) as session:
        upsert_article(session, article)
    past_key_cache_time(loaded_app)
    again = client.get("/v1/finance-news/articles?limit=1", headers=headers).get_json()
    assert first["items"][0]["id"] != "fed-00000000000000ff"
    assert again["items"][0]["id"] == "fed-00000000000000ff" and again["total"] == first["total"] + 1


def test_a_remembered_answer_still_checks_key_credits_and_parameters(loaded_app, make_key):
    client, key = loaded_app.test_client(), make_key(credits=2)
    sessions = loaded_app.extensions["gosterge.sessions"]
    assert client.get(INDEX, headers=bearer(key)).status_code == 200
    assert_problem(client.get(INDEX + "&extra=1", headers=bearer(key)), 400, "invalid_parameters")
    assert client.get(INDEX, headers=bearer(key)).status_code == 200
    assert_problem(client.get(INDEX, headers=bearer(key)), 402, "payment_required")
    other = make_key()
    with session_scope(sessions) as session:
        revoke_key(session, find_key(session, other).id, now=datetime.now(UTC))
    assert_problem(client.get(INDEX, headers=bearer(other)), 401, "unauthorized")
    news_only = make_key(apis=("finance-news",))
    assert_problem(client.get(INDEX, headers=bearer(news_only)), 403, "forbidden")


def test_every_key_pays_for_a_remembered_answer(loaded_app, make_key):
    client, sessions = loaded_app.test_client(), loaded_app.extensions["gosterge.sessions"]
    keys = [make_key(credits=10) for _ in range(3)]
    for key in keys:
        assert client.get(INDEX, headers=bearer(key)).status_code == 200
        assert client.get(f"{INDEX}&apikey={key}").status_code == 200
    with session_scope(sessions) as session:
        assert [find_key(session, key).credits for key in keys] == [8, 8, 8]


def test_the_cache_can_be_turned_off(make_app, loaded_database, make_key):
    app = make_app(ANSWER_CACHE_BYTES=0)
    key = make_key(target_app=app)
    assert "gosterge.answers" not in app.extensions
    assert app.test_client().get(INDEX, headers=bearer(key)).status_code == 200


def test_the_cache_holds_at_most_its_size_and_drops_the_least_recently_used():
    from api.answers import Answer, AnswerCache

    cache = AnswerCache(max_bytes=800)
    for i in range(10):
        cache.put(("op", "v1", f"/q{i}"), Answer(b"x" * 100, f"e{i}"))
        cache.get(("op", "v1", "/q0"))  # kept in use
    assert len(cache) == 8
    assert cache.get(("op", "v1", "/q0")) is not None and cache.get(("op", "v1", "/q1")) is None
    cache.put(("op", "v1", "/huge"), Answer(b"x" * 200, "h"))  # over an eighth of the size: not kept
    assert cache.get(("op", "v1", "/huge")) is None


def test_an_answer_computed_while_the_release_switched_is_not_remembered_for_the_old_one(
        make_app, loaded_database, make_key, tmp_path):
    """The worker learns of a new release within KEY_CACHE_MS; an answer computed meanwhile reads the
    new release, so it must not be remembered under the old release's name (that release may be
    served again later, and the entry would then answer with the other release's data)."""
    from store.releases import activate_release, get_active_release

    app = make_app(KEY_CACHE_MS=900)
    client, headers = app.test_client(), bearer(make_key(credits=100, target_app=app))
    sessions = app.extensions["gosterge.sessions"]
    with session_scope(sessions) as session:
        first = get_active_release(session).id
    newer = generate_release("tiny", seed=99, out=tmp_path / "newer.zip",
                             published=datetime(2026, 11, 27, 6, tzinfo=UTC))
    second = load_release(newer, sessions).release_id
    with session_scope(sessions) as session:
        activate_release(session, first)
    assert client.get(INDEX, headers=headers).status_code == 200  # the worker knows the first release
    with session_scope(sessions) as session:
        activate_release(session, second)  # the worker thinks of the first for up to 0.9 s
    other = "/v1/public-procurement/competition-indices?dimension=sector&period=2024"
    assert client.get(other, headers=headers).status_code == 200  # computed from the second
    with session_scope(sessions) as session:
        activate_release(session, first)
    past_key_cache_time(app)
    fresh = make_app(ANSWER_CACHE_BYTES=0).test_client()
    assert client.get(other, headers=headers).get_data() == fresh.get(other, headers=headers).get_data()
