"""`gosterge load procurement` sends the digests of the release it loaded; `gosterge digests send`
sends what is due, and nothing twice."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes

from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from store.db import session_scope
from store.keys import create_key
from store.watchlists import confirm, create_watchlist
from tests.api.test_watchlist_digests import SECOND
from tests.cli.test_cli import run
from tests.helpers import write_release
from tests.loaders.test_procurement_statistics import TABLES


def test_loading_a_release_mails_its_digests_once(database_url, tmp_path):
    env = {"GOSTERGE_PUBLIC_BASE_URL": "http://gosterge.test"}
    first = run(["load", "procurement", str(write_release(tmp_path / "w47", TABLES, release="2026-W47"))],
                database_url, tmp_path, env)
    assert first.returncode == 0, first.stderr
    engine = create_engine(database_url)
    with session_scope(sessionmaker(engine)) as session:
        key, _ = create_key(session, apis=["public-procurement"], credits=1, rate="1/minute", now=datetime.now(UTC))
        new = create_watchlist(session, key_id=key.id, name="A2", filters={"authority": "A2"},
                               notify="owner@example.com", now=datetime.now(UTC), baseline_release_id=1)
        assert new.confirm_token is not None
        confirm(session, new.confirm_token)
    engine.dispose()
    second = run(["load", "procurement", str(write_release(tmp_path / "w48", SECOND, release="2026-W48",
                                                           published="2026-11-27T06:00:00Z"))],
                 database_url, tmp_path, env)
    assert second.returncode == 0 and "digests: 1 sent" in second.stderr, second.stderr
    mails = list((tmp_path / "outbox").glob("*.eml"))
    assert len(mails) == 1
    assert message_from_bytes(mails[0].read_bytes()).get_payload(decode=True).decode().count("İKN 2026/000777") == 3
    again = run(["digests", "send"], database_url, tmp_path, env)
    assert again.returncode == 0 and "digests: none due" in again.stderr
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1
