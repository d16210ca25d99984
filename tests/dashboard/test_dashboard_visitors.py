"""The dashboard against hostile or unlucky input: an admin key with letters no header can carry, a
cache that would grow with every URL visitors ask for, and visitors behind a local reverse proxy."""

from __future__ import annotations

import pytest

from dashboard.visitors import UNKNOWN, visitor_name
from tests.dashboard.test_dashboard import run


def test_an_admin_key_with_non_latin_letters_is_a_clear_error_on_the_page(live):
    app = run("views/admin.py")
    app.text_input(key="w_admin_key").input("ğğğ").run()
    assert not app.exception, [e.value for e in app.exception]
    assert any("not an API key" in e.value for e in app.error), [e.value for e in app.error]


def test_the_shared_cache_keeps_the_most_recent_answers_only(live):
    from dashboard.client import ApiClient
    from dashboard.settings import load_settings

    client = ApiClient(load_settings(), cache_entries=3)
    paths = [("/v1/public-procurement/supply-flows", {"limit": n}) for n in range(1, 7)]
    for path, params in paths:
        client.get(path, params)
    assert client.cache_size() == 3
    client.get(*paths[-1])  # still remembered: revalidated with a free 304
    assert client.not_modified == 1
    client.get(*paths[0])  # evicted: fetched again
    assert client.not_modified == 1


def test_cached_answers_expire(live):
    from dashboard.client import ApiClient
    from dashboard.settings import load_settings

    client = ApiClient(load_settings(), cache_seconds=0)
    client.get("/v1/public-procurement/sectors")
    client.get("/v1/public-procurement/sectors")
    assert client.not_modified == 0 and client.cache_size() == 1


def test_one_keys_cached_answer_is_never_offered_for_another_key(live, make_key):
    from dashboard.client import ApiClient
    from dashboard.settings import load_settings

    client = ApiClient(load_settings())
    client.get("/v1/public-procurement/sectors")
    client.get("/v1/public-procurement/sectors", key=make_key())
    assert client.not_modified == 0


@pytest.mark.parametrize(("address", "forwarded", "proxies", "expected"), [
    ("198.51.100.7", "203.0.113.9", 1, "198.51.100.7"),  # Streamlit saw the visitor: that address
    ("", "203.0.113.9", 0, UNKNOWN),  # no trusted proxy: a forged header names nobody
    ("", "10.9.9.9, 203.0.113.9", 1, "203.0.113.9"),  # the entry our one proxy wrote
    ("", "203.0.113.9", 2, UNKNOWN),  # fewer hops than proxies: not to be believed
    ("", "", 1, UNKNOWN),
])
def test_visitors_behind_a_proxy_are_named_by_it_or_share_one_name(address, forwarded, proxies, expected):
    """Every browser session with no address used to be a new visitor with a fresh sign-up
    allowance; now such sessions share one, unless a trusted proxy names them."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    assert visitor_name(address, headers, proxies) == expected
    assert visitor_name(address, headers, proxies) == visitor_name(address, dict(headers), proxies)
