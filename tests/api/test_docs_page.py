"""The documentation page at /v1/docs: Redoc from the package, rendering every operation in Chromium
with every other origin blocked."""

from __future__ import annotations

import shutil
from urllib.parse import urlsplit

import pytest

from tests.helpers import LiveServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_docs_page_loads_only_its_own_script_and_document(client):
    response = client.get("/v1/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert 'spec-url="openapi.json"' in page and 'src="docs/redoc.standalone.js"' in page
    assert "http" not in page.replace('http-equiv', '')  # no absolute address: no CDN
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "default-src 'none'" in policy


def test_docs_script_is_served_from_the_package_and_cached(client):
    response = client.get("/v1/docs/redoc.standalone.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert len(response.get_data()) > 500_000
    assert "max-age" in response.headers["Cache-Control"]
    again = client.get("/v1/docs/redoc.standalone.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_docs_page_renders_every_operation_in_chromium_offline(app):
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    document = app.test_client().get("/v1/openapi.json").get_json()
    operations = sum(len(ops) for ops in document["paths"].values())
    blocked, failed, errors = [], [], []
    with LiveServer(app) as server, sync_playwright() as playwright:
        own = urlsplit(server.url).netloc
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox",
                                                                              "--disable-gpu"])
        try:
            page = browser.new_page()

            def only_own_origin(route) -> None:  # noqa: ANN001
                if urlsplit(route.request.url).netloc == own or route.request.url.startswith(("blob:", "data:")):
                    route.continue_()
                else:
                    blocked.append(route.request.url)
                    route.abort()

            page.route("**", only_own_origin)
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server.url}/v1/docs")
            page.wait_for_selector('[data-section-id^="operation/"]', timeout=60_000)
            # Redoc may render the operations over several frames: wait for them all, then count.
            try:
                page.wait_for_function(f"document.querySelectorAll('[data-section-id^=\"operation/\"]').length"
                                       f" >= {operations}", timeout=60_000)
            except PlaywrightTimeoutError:
                pass
            rendered = page.locator('[data-section-id^="operation/"]').count()
            assert page.get_by_text("One article by its identifier").count() > 0
            assert page.title() == "Gösterge API"
        finally:
            browser.close()
    assert rendered == operations
    assert (blocked, failed, errors) == ([], [], [])
