"""EKAP records to served statistics: import, load with the command, and read the API, whose
numbers must equal an independent recomputation from the imported tables."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loaders.ekap.importer import import_ekap
from tests import reference_stats
from tests.conftest import SHARED
from tests.helpers import FIXTURES, walk_pages
from tests.loaders.test_procurement_statistics import INDEX_DIMENSIONS, close

OWN = FIXTURES / "ekap"
EKAP = SHARED / "fixtures" / "ekap"
@pytest.fixture
def imported(tmp_path) -> Path:
    paths = [OWN, EKAP] if EKAP.is_dir() else [OWN]
    result = import_ekap(paths, tmp_path / "ekap.zip", release="2026-W47", now=datetime(2026, 11, 22, 12, tzinfo=UTC))
    assert result.written
    return result.out


def test_ekap_import_load_and_serve_equal_a_recomputation(app, auth, database_url, imported, tmp_path):
    env = {**os.environ, "GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}
    loaded = subprocess.run([sys.executable, "-m", "cli", "load", "procurement", str(imported)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0, loaded.stderr
    client = app.test_client()
    data = reference_stats.read_release(imported)
    assert len(data["te"]) >= 8 and len(data["aw"]) >= 6
    checked = 0
    for endpoint, dimensions in INDEX_DIMENSIONS.items():
        compute = reference_stats.INDEX[endpoint]
        for dimension in dimensions:
            for item in walk_pages(client, f"/v1/public-procurement/{endpoint}?dimension={dimension}", auth, limit=200):
                for name, value in compute(data, dimension, item["subject"], item["period"]).items():
                    assert close(item[name], reference_stats.none_if_nan(value)), (endpoint, dimension, item, name)
                checked += 1
    assert checked > 1000
    overall = client.get("/v1/public-procurement/competition-indices?period=all", headers=auth).get_json()["items"][0]
    assert overall["tenders"] == len(data["te"]) and overall["averageDiscount"] is not None
    exceptions = client.get("/v1/public-procurement/competition-indices?dimension=procedure&subject=exception-3g"
                            "&period=all", headers=auth).get_json()["items"][0]
    assert exceptions["tenders"] == int((data["te"]["procedure"] == "exception-3g").sum()) >= 1


def test_ekap_release_has_no_direct_purchases_and_says_so(app, auth, imported):
    from loaders.procurement.load import load_release

    load_release(imported, app.extensions["gosterge.sessions"])
    client = app.test_client()
    for item in walk_pages(client, "/v1/public-procurement/direct-procurement-indices?dimension=province", auth, limit=200):
        assert item["purchases"] == 0
        assert [item[k] for k in ("median", "mean", "total", "p95", "p99", "max", "largestShare")] == [None] * 7
    datasets = client.get("/v1/public-procurement/datasets", headers=auth).get_json()
    assert datasets["synthetic"] is False
    files = {d["file"]: d for d in datasets["datasets"]}
    assert "EKAP" in files["tenders.csv"]["citation"] and files["tenders.csv"]["url"] == "https://ekap.kik.gov.tr/"
    assert files["direct_purchases.csv"]["rows"] == 0 and "doğrudan temin" in files["direct_purchases.csv"]["citation"]


def test_ekap_release_is_accepted_by_the_admin_upload(client, make_key, imported):
    from tests.api.test_admin import upload_and_wait

    admin = {"Authorization": f"Bearer {make_key(is_admin=True)}"}
    status = upload_and_wait(client, admin, imported.read_bytes())
    assert status["status"] == "loaded", status
    assert status["release"]["release"] == "2026-W47" and status["release"]["synthetic"] is False


@pytest.fixture
def live_ekap(app, make_key, imported, monkeypatch):
    import streamlit as st

    from loaders.procurement.load import load_release
    from tests.helpers import LiveServer

    load_release(imported, app.extensions["gosterge.sessions"])
    with LiveServer(app) as server:
        monkeypatch.setenv("GOSTERGE_API_URL", server.url)
        monkeypatch.setenv("GOSTERGE_API_KEY", make_key())
        st.cache_data.clear()
        st.cache_resource.clear()
        yield server


@pytest.mark.slow
def test_dashboard_pages_render_an_ekap_release(live_ekap):
    from tests.dashboard.test_dashboard import PAGES, run

    for page in PAGES:
        app = run(page)
        assert not app.exception, (page, app.exception)
        assert not app.error, (page, [e.value for e in app.error])
    overview = run("views/overview.py")
    assert not any("SENTETİK" in w.value for w in overview.warning)
