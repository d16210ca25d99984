"""Fixtures: a fresh app on a fresh database per test (SQLite, or PostgreSQL and Redis when given)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from api import create_app
from loaders.procurement.load import load_release
from store.db import session_scope
from store.keys import create_key
from store.schema import upgrade
from tests.helpers import PROBLEM_BASE

PG_URL = os.environ.get("GOSTERGE_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("GOSTERGE_TEST_REDIS_URL")
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A database of its own for each test: a SQLite file, or a fresh PostgreSQL schema."""
    if not PG_URL:
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in PG_URL else "?"
    yield f"{PG_URL}{separator}options=-csearch_path%3D{schema}"
    with admin.connect() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


@pytest.fixture
def limiter_storage() -> str:
    if not REDIS_URL:
        return "memory://"
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    return REDIS_URL


@pytest.fixture
def make_app(database_url: str, limiter_storage: str, tmp_path: Path):
    apps = []

    def factory(**overrides: Any):
        config = {"DATABASE_URL": database_url, "RATELIMIT_STORAGE_URI": limiter_storage,
                  "PROBLEM_BASE": PROBLEM_BASE, "UPGRADE_URL": "https://pricing.test", "DEFAULT_RATE": "1000/minute",
                  "UPLOAD_DIR": str(tmp_path / "uploads"), **overrides}
        app = create_app(config)
        app.config["TESTING"] = True
        upgrade(app.extensions["gosterge.engine"])
        apps.append(app)
        return app

    yield factory
    for app in apps:
        app.extensions["gosterge.engine"].dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_key(app):
    """Create a key in the app's store and return the clear key."""

    def factory(*, apis=("finance-news", "public-procurement"), credits=1000, rate="1000/minute",
                expires_at=None, is_admin=False, target_app=None) -> str:
        target = target_app or app
        with session_scope(target.extensions["gosterge.sessions"]) as session:
            _, key = create_key(session, apis=list(apis), credits=credits, rate=rate, now=datetime.now(UTC),
                                expires_at=expires_at, is_admin=is_admin)
        return key

    return factory


@pytest.fixture
def auth(make_key):
    return {"Authorization": f"Bearer {make_key()}"}


@pytest.fixture(scope="session")
def demo_release(tmp_path_factory) -> Path:
    from loaders.procurement.generate import generate_release

    out = tmp_path_factory.mktemp("release") / "tiny.zip"
    return generate_release("tiny", seed=7, out=out, published=datetime(2026, 11, 20, 6, tzinfo=UTC))


@pytest.fixture
def loaded_app(app, demo_release):
    load_release(demo_release, app.extensions["gosterge.sessions"])
    return app


@pytest.fixture
def shared_sources() -> Path:
    path = SHARED / "fixtures" / "sources"
    if not path.is_dir():
        pytest.skip("../shared/fixtures/sources is not beside the project")
    return path
