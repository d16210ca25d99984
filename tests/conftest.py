"""Fixtures: a fresh app on a fresh database per test (SQLite, or PostgreSQL and Redis when given)."""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError

from api import create_app
from loaders.procurement.load import load_release
from loaders.settings import load_settings
from store.db import Base, create_store_engine, make_session_factory, session_scope
from store.keys import create_key
from store.release_db import FOLDER_SUFFIX
from store.schema import upgrade
from tests.helpers import PROBLEM_BASE

PG_URL = os.environ.get("GOSTERGE_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("GOSTERGE_TEST_REDIS_URL")
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def _worker_index() -> int:
    """0 outside pytest-xdist; n for its worker gw<n>, so that workers keep out of each other's way."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)


def _schema_url(schema: str) -> str:
    separator = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{separator}options=-csearch_path%3D{schema}"


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[Engine]:
    """A connection to GOSTERGE_TEST_DATABASE_URL that creates and drops the tests' schemas."""
    engine = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


def _create_schema(admin: Engine) -> str:
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    return schema


def _drop_schema(admin: Engine, schema: str) -> None:
    # A process a test started (a load's last steps, a digest sender) may still be writing to the
    # schema; PostgreSQL then ends one side of the deadlock, the drop, which is tried again.
    for attempt in range(5):
        try:
            with admin.connect() as conn:
                conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            return
        except OperationalError as error:
            if "deadlock detected" not in str(error) or attempt == 4:
                raise
            time.sleep(0.5)


@pytest.fixture(scope="session")
def loaded_files_dir(tmp_path_factory) -> Path:
    """The download files of the session's loaded release (`loaded_template`), in a folder no other
    load writes to: an app serving them is made with RELEASE_FILES_DIR set to it, and only reads."""
    return tmp_path_factory.mktemp("loaded-files")


def release_template(request, tmp_path_factory, release: Path, files_dir: Path) -> Iterator[str]:
    """`release` loaded into a database of its own (its files in `files_dir`), for tests to start from a
    copy of: yields the path of a SQLite file, or a PostgreSQL schema's name. A module's fixture named
    `database_template` that yields from it gives that module's `database_url` a copy (see below)."""
    if PG_URL:
        admin = request.getfixturevalue("pg_admin")
        schema = _create_schema(admin)
        url = _schema_url(schema)
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('template') / 'loaded.db'}"
    engine = create_store_engine(url)
    upgrade(engine)
    settings = replace(load_settings(), release_files_dir=files_dir)
    load_release(release, make_session_factory(engine), settings=settings)
    engine.dispose()  # SQLite: the last connection to close folds the WAL into the file
    yield schema if PG_URL else url.removeprefix("sqlite:///")
    if PG_URL:
        _drop_schema(admin, schema)


@pytest.fixture(scope="session")
def loaded_template(request, tmp_path_factory, demo_release, loaded_files_dir) -> Iterator[str]:
    """The demo release loaded once per session (per xdist worker) into a database that each test of
    `loaded_database` starts from a copy of."""
    yield from release_template(request, tmp_path_factory, demo_release, loaded_files_dir)


def _copy_schema(admin: Engine, template: str, schema: str) -> None:
    """Fill `schema` with the rows of `template`: upgraded first, so that it has tables, constraints and
    sequences of its own, each sequence then moved on past the ids copied."""
    engine = create_store_engine(_schema_url(schema))
    upgrade(engine)
    engine.dispose()
    tables = Base.metadata.sorted_tables
    with admin.begin() as conn:
        # A release's own tables (awards, parties, …: store/details.py) are made at load, outside the
        # models: copied whole, with their indexes.
        own = conn.execute(text("SELECT table_name FROM information_schema.tables WHERE table_schema = :s"),
                           {"s": template}).scalars().all()
        for name in sorted(set(own) - {t.name for t in tables}):
            conn.execute(text(f"CREATE TABLE {schema}.{name} (LIKE {template}.{name} INCLUDING ALL)"))
            conn.execute(text(f"INSERT INTO {schema}.{name} SELECT * FROM {template}.{name}"))
        for table in reversed(tables):
            conn.execute(text(f"DELETE FROM {schema}.{table.name}"))
        for table in tables:
            columns = ", ".join(f'"{c.name}"' for c in table.columns)
            conn.execute(text(f"INSERT INTO {schema}.{table.name} ({columns}) "
                              f"SELECT {columns} FROM {template}.{table.name}"))
            for column in table.primary_key.columns:
                sequence = conn.execute(text("SELECT pg_get_serial_sequence(:table, :column)"),
                                        {"table": f"{schema}.{table.name}", "column": column.name}).scalar()
                if sequence:
                    conn.execute(text(f"SELECT setval(:sequence, COALESCE((SELECT max(\"{column.name}\") "
                                      f"FROM {schema}.{table.name}), 0) + 1, false)"), {"sequence": sequence})


@pytest.fixture
def database_url(request, tmp_path: Path) -> Iterator[str]:
    """A database of its own for each test: a SQLite file, or a fresh PostgreSQL schema. A test that
    uses `loaded_database` (or `loaded_app`) gets a copy of the session's loaded template instead, and
    one that uses its module's `database_template` a copy of that: a release loaded once, not per test."""
    names = request.fixturenames
    template = (request.getfixturevalue("loaded_template") if "loaded_database" in names
                else request.getfixturevalue("database_template") if "database_template" in names else None)
    yield from database_copy(request, tmp_path, template)


def database_copy(request, folder: Path, template: str | None) -> Iterator[str]:
    """A database of its own (in `folder` on SQLite), empty or a copy of `template`: yields its URL."""
    if not PG_URL:
        path = folder / "test.db"
        if template:
            shutil.copyfile(template, path)
            # On SQLite each release's own tables are in a file of its own beside the main one.
            releases = Path(template + FOLDER_SUFFIX)
            if releases.exists():
                shutil.copytree(releases, Path(str(path) + FOLDER_SUFFIX))
        yield f"sqlite:///{path}"
        return
    admin = request.getfixturevalue("pg_admin")
    schema = _create_schema(admin)
    if template:
        _copy_schema(admin, template, schema)
    yield _schema_url(schema)
    _drop_schema(admin, schema)


def _redis_url() -> str:
    """GOSTERGE_TEST_REDIS_URL's database for xdist's first worker, the one below it for the next, and
    so on: each worker empties its own database before each test without touching another's counts."""
    url = make_url(REDIS_URL)
    return url.set(database=str((int(url.database or 0) - _worker_index()) % 16)).render_as_string(hide_password=False)


@pytest.fixture
def limiter_storage() -> str:
    if not REDIS_URL:
        return "memory://"
    import redis

    url = _redis_url()
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def make_app(database_url: str, limiter_storage: str, tmp_path: Path, loaded_files_dir: Path):
    apps = []

    def factory(**overrides: Any):
        app = configured_app(database_url, limiter_storage, tmp_path / "uploads", loaded_files_dir, **overrides)
        apps.append(app)
        return app

    yield factory
    for app in apps:
        close_app(app)


def configured_app(database_url: str, limiter_storage: str, uploads: Path, files: Path, **overrides: Any):  # noqa: ANN201
    """The app as the tests configure it, its store upgraded."""
    # KEY_CACHE_MS 0: tests write to the store and read at once, as if through another process,
    # so the app reads keys and data versions on every request; tests/api/test_promises.py and
    # test_answer_cache.py set it to check what the workers remember.
    config = {"DATABASE_URL": database_url, "RATELIMIT_STORAGE_URI": limiter_storage,
              "PROBLEM_BASE": PROBLEM_BASE, "UPGRADE_URL": "https://pricing.test", "DEFAULT_RATE": "1000/minute",
              "UPLOAD_DIR": str(uploads), "KEY_CACHE_MS": 0,
              # Digests are sent when a test says so (tests/api/test_watchlist_digests.py).
              "DIGEST_SENDER_SECONDS": 0,
              # The demo release's download files: an app on `loaded_database` serves them.
              "RELEASE_FILES_DIR": str(files), **overrides}
    app = create_app(config)
    app.config["TESTING"] = True
    upgrade(app.extensions["gosterge.engine"])
    return app


def close_app(app) -> None:  # noqa: ANN001
    app.extensions["gosterge.debits"].close()
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

    def factory(*, target_app=None, **options: Any) -> str:
        return new_key(target_app or app, **options)

    return factory


def new_key(app, *, apis=("finance-news", "public-procurement"), credits=1000, rate="1000/minute",  # noqa: ANN001
            expires_at=None, is_admin=False) -> str:
    """A key created in the app's store: the clear key."""
    with session_scope(app.extensions["gosterge.sessions"]) as session:
        _, key = create_key(session, apis=list(apis), credits=credits, rate=rate, now=datetime.now(UTC),
                            expires_at=expires_at, is_admin=is_admin)
    return key


@pytest.fixture
def auth(make_key):
    return {"Authorization": f"Bearer {make_key()}"}


@pytest.fixture(scope="session", autouse=True)
def release_files_dir(tmp_path_factory) -> Path:
    """Where every load of the tests keeps its release's download files: out of the project's var/."""
    path = tmp_path_factory.mktemp("release-files")
    os.environ["GOSTERGE_RELEASE_FILES_DIR"] = str(path)
    return path


@pytest.fixture(scope="session")
def demo_release(tmp_path_factory) -> Path:
    from loaders.procurement.generate import generate_release

    out = tmp_path_factory.mktemp("release") / "tiny.zip"
    return generate_release("tiny", seed=7, out=out, published=datetime(2026, 11, 20, 6, tzinfo=UTC))


@pytest.fixture
def loaded_database(database_url: str) -> str:
    """`database_url`, holding the demo release, active: beside `make_app` for an app configured otherwise."""
    return database_url


@pytest.fixture
def loaded_app(app, loaded_database):
    """The app on a database holding the demo release, active."""
    return app


@pytest.fixture
def shared_sources() -> Path:
    path = SHARED / "fixtures" / "sources"
    if not path.is_dir():
        pytest.skip("../shared/fixtures/sources is not beside the project")
    return path
