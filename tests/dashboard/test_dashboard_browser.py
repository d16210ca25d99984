"""Smoke test in real headless Chromium: every page of the running dashboard loads without an exception."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
import requests

from cli.run import dashboard_command
from loaders.news.sample import load_sample
from tests.helpers import LiveServer, free_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")]
# The default page (overview) lives at the root; st.navigation gives it no path of its own.
PAGES = ["", "competition", "direct", "local-suppliers", "province-sectors", "supply-flows", "rankings",
         "awards", "watchlists", "profile", "news", "api-key", "admin"]
# Parties of the demo release (tiny, seed 7): an authority and a contractor with awards in many years, and an
# award of 2024 (a discount of 34.1 %) whose benchmark group (sector 23, open procedure, 2024) holds five tenders.
AUTHORITY, CONTRACTOR, AWARD = "A000040", "F0000197", "ikn=2024/000007&lot=1"
DONE = ("!document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " && !document.querySelector('[data-testid=\"stSkeleton\"]')")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


@contextmanager
def serving(app, key: str):  # noqa: ANN001
    """The API app on loopback and the dashboard reading it: (dashboard address, API address)."""
    load_sample(app.extensions["gosterge.sessions"])
    with LiveServer(app) as api:
        port = free_port()
        env = {**os.environ, "GOSTERGE_API_URL": api.url, "GOSTERGE_API_KEY": key}
        server = subprocess.Popen(dashboard_command(port), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    if requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).ok:
                        break
                except requests.RequestException:
                    time.sleep(0.3)
            else:
                pytest.fail("the dashboard did not start")
            yield f"http://127.0.0.1:{port}", api.url
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:  # a busy machine: the test is over, the server need not stop cleanly
                server.kill()
                server.wait(10)


@pytest.fixture
def dashboard(loaded_app, make_key):
    """A dashboard and API of the test's own: for a test that changes what they serve."""
    with serving(loaded_app, make_key()) as addresses:
        yield addresses


@pytest.fixture(scope="module")
def reading(request, tmp_path_factory, loaded_template, loaded_files_dir):
    """One dashboard and API for the module's tests that only read what they are served (the pages, the
    search, the admin page's texts), on a copy of the demo release: started once, not once per test.
    (dashboard address, API address, the API's app)."""
    from tests.conftest import REDIS_URL, _redis_url, close_app, configured_app, database_copy, new_key

    folder = tmp_path_factory.mktemp("reading")
    with contextmanager(database_copy)(request, folder, loaded_template) as url:
        app = configured_app(url, _redis_url() if REDIS_URL else "memory://", folder / "uploads", loaded_files_dir)
        try:
            with serving(app, new_key(app)) as (dashboard, api):
                yield dashboard, api, app
        finally:
            close_app(app)


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module: each test opens a page in a context of its own (cookies, storage)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS[1:])
        yield browser
        browser.close()


# Every page address, and the map pages with a province breakdown; (address, query) pairs.
VIEWS = [(name, "") for name in PAGES] + [("overview", ""), ("competition", "dimension=province"),
                                          ("province-sectors", ""), ("news", "category=regulation"),
                                          ("direct", "dimension=province"), ("competition", "dimension=province&year=2025"),
                                          ("supply-flows", "buyer=6"),
                                          ("profile", f"kind=authority&id={AUTHORITY}"),
                                          ("profile", f"kind=contractor&id={CONTRACTOR}&period=2024"),
                                          ("awards", f"sector=23&period=2024&procedure=open&{AWARD}"),
                                          ("awards", "flag=single-bid,winner-share&sort=value"),
                                          ("awards", "sector=23&minValue=1000000")]
MAPS = {("competition", "dimension=province"), ("direct", "dimension=province"), ("local-suppliers", ""),
        ("competition", "dimension=province&year=2025"), ("supply-flows", "buyer=6"),
        ("profile", f"kind=authority&id={AUTHORITY}"), ("profile", f"kind=contractor&id={CONTRACTOR}&period=2024")}
# Texts Streamlit writes in English whatever the page's language, and the API's raw English values:
# none may be seen on the Turkish side.
ENGLISH = ("Choose options", "Choose an option", "yyyy / mm / dd", "YYYY/MM/DD", "Upload", "per file",
           "Drag and drop", "Browse files", "No options to select", "None", "Province boundaries",
           "regulation", "monetary-policy", "neutral", "positive", "negative", "Federal Reserve System",
           "European Central Bank", "Official Gazette", "authorities ·", "direct_purchases", "uploadedBy",
           "loadedAt", "publishedAt", "Synthetic data", "Open procedure", "Single valid bid", "Every province",
           "Contract value", "Red flags", "percentile", "This award", "Open profile", "Authority", "Contractor")
CHARTS_DRAWN = ("[...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
                ".every(chart => chart.querySelector('.main-svg'))")
# The provinces' filled shapes inside the plot area (the legend draws fills of its own).
PROVINCE_FILLS = '.js-plotly-plot .cartesianlayer .scatterlayer path.js-fill'


def _settle(page) -> None:  # noqa: ANN001
    page.wait_for_selector("h1", timeout=60_000)
    page.wait_for_function(DONE, timeout=60_000)
    # Plotly (loaded on demand) draws after Streamlit reports the run done: wait for every chart mounted.
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)


def _shown(locator, timeout_ms: int = 30_000) -> int:  # noqa: ANN001
    """How many elements match once one does, or 0 after `timeout_ms`: what a chart draws is waited
    for before it is counted, however long a busy machine takes to draw it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        locator.first.wait_for(state="attached", timeout=timeout_ms)
    except PlaywrightTimeoutError:
        return 0
    return locator.count()


def _screenshot(page, path: Path) -> None:  # noqa: ANN001
    """The whole page: Streamlit scrolls inside its own container, so the window is made as tall as it."""
    height = page.evaluate("Math.max(...[...document.querySelectorAll('[data-testid=stMain], section')]"
                           ".map(e => e.scrollHeight))")
    page.set_viewport_size({"width": 1400, "height": min(max(1100, height), 8000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1100})
    assert path.stat().st_size > 10_000, f"{path.name}: empty screenshot"


def test_every_page_in_chromium_in_both_languages_offline(reading, browser, tmp_path):
    """Every page, in Turkish and English, with every request outside the dashboard's and the API's
    addresses blocked: the maps draw the 81 provinces from the API's boundaries, nothing leaves the machine."""
    dashboard, api, _ = reading
    shots = Path(os.environ.get("GOSTERGE_SCREENSHOT_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    ours = (dashboard, api, dashboard.replace("http", "ws", 1), "data:", "blob:")
    outside: list[str] = []

    def only_ours(route) -> None:  # noqa: ANN001
        if route.request.url.startswith(ours):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with closing(browser.new_page(viewport={"width": 1400, "height": 1100})) as page:
        page.route("**/*", only_ours)
        page.on("websocket", lambda socket: None if socket.url.startswith(ours) else outside.append(socket.url))
        missing: list[str] = []
        page.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
        for language in ("tr", "en"):
            for name, query in VIEWS:
                page.goto(f"{dashboard}/{name}?lang={language}" + (f"&{query}" if query else ""))
                _settle(page)
                where = f"{language} /{name}?{query}"
                assert page.locator('[data-testid="stException"]').count() == 0, f"{where}: an exception is shown"
                assert "Traceback" not in page.content(), f"{where}: a traceback is shown"
                assert page.get_by_text("Page not found").count() == 0, f"{where}: the link does not name a page"
                assert page.locator('[data-testid="stAlertContentError"]').count() == 0, f"{where}: an error is shown"
                assert page.title().endswith(" · Gösterge"), f"{where}: tab title {page.title()!r}"
                # The developer's menu and the deploy button are not a reader's.
                assert page.locator('[data-testid="stMainMenu"], [data-testid="stAppDeployButton"]').count() == 0
                if (name, query) in MAPS:
                    # Plotly draws after Streamlit reports the run done: wait for the shapes rather than count once.
                    page.wait_for_function(f"document.querySelectorAll('{PROVINCE_FILLS}').length >= 81",
                                           timeout=30_000)
                    # The map is the chart drawing the provinces (a profile draws its value by year first).
                    plot = page.locator(".js-plotly-plot").filter(has=page.locator("path.js-fill")).first
                    assert plot.locator(".cartesianlayer .scatterlayer path.js-fill").count() == 81, where
                    assert _shown(plot.locator(".legend")) == 1, f"{where}: the map has no legend"
                    if name != "supply-flows":
                        unit = plot.locator(".colorbar .cbtitle text").text_content()
                        assert unit in ("%", "₺", "TRY", "HHI (0–10.000)", "HHI (0–10,000)"), f"{where}: {unit!r}"
                    assert _shown(page.get_by_text("Natural Earth", exact=False)) >= 1, f"{where}: no credit"
                if name == "competition":
                    partial = {"tr": "Kısmi yıl", "en": "Partial year"}[language]
                    assert _shown(page.locator(".legend", has_text=partial)) >= 1, f"{where}: partial years unmarked"
                    if "province" in query:
                        assert "year=" in page.url, f"{where}: the map year is not in the address"
                if name == "awards" and "ikn=" in query:
                    # The selected award's discount, marked on its benchmark's spread.
                    award = {"tr": "Bu sözleşme: %34,1", "en": "This award: 34.1%"}[language]
                    assert _shown(page.locator(".js-plotly-plot", has_text=award)) == 1, f"{where}: no benchmark"
                if language == "tr":
                    seen = page.locator("body").inner_text() + " ".join(
                        page.locator("input[placeholder]").evaluate_all("els => els.map(e => e.placeholder)"))
                    english = [word for word in ENGLISH + ("inflation, interest-rates",) if word in seen]
                    assert english == [], f"{where}: English on the Turkish side: {english}"
                assert missing == [] and not [c for c in console if "404" in c], f"{where}: {missing} {console}"
                _screenshot(page, shots / f"{language}-{name or 'root'}{'-' + query.replace('&', '-').replace('/', '_') if query else ''}.png")
        icon = page.locator("link[rel~='icon']").first.get_attribute("href") or ""
        # The product's icon is served from Streamlit's media files; Streamlit's own is ./favicon.png.
        assert "/media/" in icon and icon.endswith(".png"), f"not the product's favicon: {icon}"
    assert outside == [], f"requests left the machine: {outside[:5]}"


def test_search_box_opens_a_profile_in_chromium(reading, browser):
    """A Turkish spelling typed in the sidebar of any page finds the authority; its link opens the profile
    in the page's language, and a counterpart's link in the profile opens that party's profile."""
    dashboard, _, _ = reading
    with closing(browser.new_page(viewport={"width": 1400, "height": 1100})) as page:
        page.goto(f"{dashboard}/rankings?lang=tr")
        _settle(page)
        box = page.get_by_role("textbox", name="İdare veya yüklenici ara")
        box.fill("İSTANBUL")
        box.press("Enter")
        found = page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"] a', has_text="Kurum 40 (İstanbul)")
        found.wait_for(timeout=60_000)
        found.click()
        page.wait_for_url("**/profile?*", timeout=60_000)
        _settle(page)
        assert page.locator("h1").first.inner_text() == "Kurum 40 (İstanbul)"
        assert "kind=authority" in page.url and "lang=tr" in page.url
        # The figures come after the title: wait for the one asserted, not for a fixed time.
        page.get_by_text("Tek teklifli pay").first.wait_for(timeout=60_000)
        assert page.get_by_text("Tek teklifli pay").count() >= 1


HOSTILE = "<script>alert(1)</script> **bold** [click](javascript:alert(2)) ![x](http://127.0.0.1:9/t.png) :red[red]"


def test_html_and_markdown_in_articles_are_shown_as_text(dashboard, loaded_app, browser):
    from loaders.news.sample import sample_articles
    from store.db import session_scope
    from store.news import upsert_article

    article = {**sample_articles()[0], "id": "fed-00000000000000aa", "publishedAt": "2026-11-21T12:00:00Z",
               "titleEn": f"Title {HOSTILE}", "summaryEn": f"Summary {HOSTILE}", "importance": 5,
               "url": "javascript:alert(3)",
               "companies": [{"name": "<img src=x onerror=alert(4)>", "ticker": None, "cik": None}]}
    with session_scope(loaded_app.extensions["gosterge.sessions"]) as session:
        upsert_article(session, article)
    dashboard, _ = dashboard
    with closing(browser.new_page()) as page:
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for name in ("news", ""):
            page.goto(f"{dashboard}/{name}?lang=en")
            page.get_by_text("Title <script>alert(1)</script> **bold**", exact=False).first.wait_for(timeout=60_000)
            page.wait_for_function(DONE, timeout=60_000)
            app = page.locator('[data-testid="stMain"]')
            assert app.locator("script, img[src*='t.png'], a[href^='javascript'], strong:text-is('bold')").count() == 0
            assert app.get_by_text("[click](javascript:alert(2))", exact=False).count() >= 1
        assert page.get_by_text("Summary", exact=False).count() == 0  # the overview lists headlines only
        page.goto(f"{dashboard}/news?lang=en")
        page.get_by_text("<img src=x onerror=alert(4)>", exact=False).first.wait_for(timeout=60_000)
        assert page.locator('[data-testid="stMain"] img[src="x"]').count() == 0
    assert dialogs == []


def test_admin_uploads_a_release_from_the_dashboard(dashboard, make_key, browser, tmp_path):
    dashboard, api_url = dashboard
    from tests.api.test_admin import zipped
    from tests.helpers import write_release
    from tests.loaders.test_procurement_statistics import TABLES

    archive = tmp_path / "release.zip"
    archive.write_bytes(zipped(write_release(tmp_path / "release", TABLES, release="2026-W48")))
    with closing(browser.new_page(viewport={"width": 1400, "height": 1100})) as page:
        page.goto(f"{dashboard}/admin?lang=en")
        page.get_by_label("Admin key", exact=True).fill(make_key(is_admin=True))
        page.get_by_label("Admin key", exact=True).press("Enter")
        page.locator('input[type="file"]').set_input_files(str(archive))
        page.get_by_text("release.zip").wait_for(timeout=30_000)
        page.wait_for_function(DONE, timeout=30_000)  # the upload's own rerun must end before the click
        page.get_by_role("button", name="Upload", exact=True).click()
        shots = Path(os.environ.get("GOSTERGE_SCREENSHOT_DIR", tmp_path))
        try:
            page.get_by_text("The new release is now served: 2026-W48").wait_for(timeout=30_000)
            page.wait_for_function(DONE, timeout=30_000)
            # Roll back to the demo release: click Activate (the history offers it). A click that
            # lands while Streamlit is still rerunning on a busy machine can be dropped: then the
            # release is still the new one, and the click is made again.
            reader = make_key()
            for _ in range(3):
                page.wait_for_function(DONE, timeout=30_000)
                page.get_by_role("button", name="Activate", exact=True).click()
                served = _served_release(api_url, reader, until="2026-W47", seconds=20)
                if served == "2026-W47":
                    break
            page.wait_for_function(DONE, timeout=30_000)
        finally:
            page.screenshot(path=str(shots / "admin-upload.png"), full_page=True)
    assert served == "2026-W47"


def _served_release(api_url: str, key: str, *, until: str, seconds: float = 30) -> str:
    """The release the API serves, asked again until it is `until` or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        served = requests.get(f"{api_url}/v1/public-procurement/datasets", headers={"Authorization": f"Bearer {key}"},
                              timeout=10).json()["release"]
        if served == until or time.monotonic() > deadline:
            return served
        time.sleep(0.2)


def test_admin_upload_in_turkish_shows_no_english_widget_texts(reading, browser):
    from tests.conftest import new_key

    dashboard, _, app = reading
    with closing(browser.new_page(viewport={"width": 1400, "height": 1100})) as page:
        page.goto(f"{dashboard}/admin?lang=tr")
        page.get_by_label("Yönetici anahtarı", exact=True).fill(new_key(app, is_admin=True))
        page.get_by_label("Yönetici anahtarı", exact=True).press("Enter")
        page.locator('[data-testid="stFileUploader"]').wait_for(timeout=30_000)
        page.get_by_text("Yayın geçmişi").wait_for(timeout=30_000)
        page.wait_for_function(DONE, timeout=30_000)
        seen = page.locator("body").inner_text()
        assert [word for word in ENGLISH if word in seen] == []
        # The uploader's own texts are drawn in Turkish in their place.
        drawn = page.locator('[data-testid="stFileUploaderDropzoneInstructions"] > div').evaluate(
            "e => getComputedStyle(e, '::after').content")
        assert "Dosya başına" in drawn


def _no_english(page, where: str, also: tuple[str, ...] = ()) -> None:  # noqa: ANN001
    seen = page.locator("body").inner_text()
    assert [word for word in ENGLISH + also if word in seen] == [], f"{where}: English on the Turkish side"


def test_following_awards_in_chromium_in_turkish(dashboard, make_key, browser):
    """A visitor enters their own key on the API key page; in the same session the Watchlists page shows a
    list with its new awards, its link opens the explorer with its filters, Follow there (a popover and a
    form, in Turkish) saves another, and Delete removes one: no English on the Turkish side at any step."""
    dashboard, api = dashboard
    key = make_key()
    requests.post(f"{api}/v1/public-procurement/watchlists", headers={"Authorization": f"Bearer {key}"}, timeout=10,
                  json={"name": "Yapım tek teklif", "filters": {"sector": 23, "flag": ["single-bid"]}}).raise_for_status()
    # The module's Chromium, in a context of its own (its cookies hold the session, and with it the key).
    context = browser.new_context(viewport={"width": 1400, "height": 1100})
    try:
        page = context.new_page()
        page.goto(f"{dashboard}/watchlists?lang=tr")
        _settle(page)
        page.get_by_text("kendi API anahtarınıza aittir", exact=False).wait_for(timeout=30_000)
        _no_english(page, "no key")
        page.get_by_role("link", name=re.compile("API anahtarı sayfasına git")).click()
        page.get_by_label("API anahtarınız", exact=True).wait_for(timeout=30_000)
        # The page's run must be over before typing: a field filled while Streamlit still draws the page
        # can be drawn again empty, and the form then sends no key (seen once in a suite on a busy machine).
        page.wait_for_function(DONE, timeout=60_000)
        from playwright.sync_api import expect

        field = page.get_by_label("API anahtarınız", exact=True)
        field.fill(key)
        expect(field).to_have_value(key)
        page.get_by_role("button", name="Bu anahtarı kullan").click()
        page.get_by_text("Kendi anahtarınız kullanılıyor", exact=False).wait_for(timeout=30_000)
        # Links within the page keep the session, and with it the key; the address never holds it.
        page.get_by_role("link", name=re.compile("İzleme listelerine git")).click()
        page.get_by_text("Yapım tek teklif").first.wait_for(timeout=60_000)
        page.wait_for_function(DONE, timeout=60_000)
        page.get_by_text("Önceki yayın yok", exact=False).wait_for(timeout=60_000)
        assert key not in page.url
        assert _shown(page.locator('[data-testid="stDataFrame"]')) == 1
        _no_english(page, "watchlists")
        page.get_by_role("link", name=re.compile("Aynı filtrelerle sözleşme gezgininde aç")).click()
        page.wait_for_url("**/awards?*", timeout=60_000)
        _settle(page)
        assert "sector=23" in page.url and "flag=single-bid" in page.url
        page.get_by_role("button", name=re.compile("Takip et")).click()
        name = page.get_by_label("Listenin adı", exact=True)
        name.wait_for(timeout=30_000)
        name.fill("Tarayıcıdan")
        _no_english(page, "follow", also=("Press Enter",))
        page.get_by_role("button", name="İzleme listesini kaydet").click()
        page.get_by_text("“Tarayıcıdan” izleme listesi kaydedildi.").wait_for(timeout=30_000)
        page.get_by_role("link", name=re.compile("İzleme listelerine git")).click()
        page.get_by_text("Tarayıcıdan").first.wait_for(timeout=60_000)
        page.wait_for_function(DONE, timeout=60_000)
        _no_english(page, "two watchlists")
        page.get_by_role("button", name=re.compile("Sil")).first.click()
        page.get_by_text("“Tarayıcıdan” silindi.").wait_for(timeout=30_000)
    finally:
        context.close()
    held = requests.get(f"{api}/v1/public-procurement/watchlists", headers={"Authorization": f"Bearer {key}"},
                        timeout=10).json()["items"]
    assert [(w["name"], w["filters"]) for w in held] == [("Yapım tek teklif", {"sector": 23, "flag": ["single-bid"]})]


EKAP = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "ekap"
# The pages of a release imported from real EKAP records (no direct purchases, tenders of a few years).
IMPORTED_VIEWS = [(name, "") for name in PAGES if name not in ("admin", "api-key")] + [
    ("competition", "dimension=province"), ("competition", "dimension=sector"), ("direct", "dimension=province"),
    ("local-suppliers", "dimension=sector"), ("news", "category=regulation")]


@pytest.fixture
def imported_dashboard(app, make_key, tmp_path):
    """The dashboard on a release imported from the shared EKAP records (skipped when ../shared is absent)."""
    from datetime import UTC, datetime

    from loaders.ekap.importer import import_ekap
    from loaders.procurement.load import load_release

    if not EKAP.is_dir():
        pytest.skip("../shared/fixtures/ekap is not beside the project")
    result = import_ekap([EKAP], tmp_path / "ekap.zip", release="2026-W47", now=datetime(2026, 11, 22, 12, tzinfo=UTC))
    assert result.written
    load_release(result.out, app.extensions["gosterge.sessions"])
    with serving(app, make_key()) as addresses:
        yield addresses


def test_no_english_and_no_none_on_the_turkish_pages_of_an_imported_release(imported_dashboard, browser):
    """Every Turkish page of a release imported from real EKAP records, News's placeholders included: no text
    Streamlit or the API writes in English, no "None" in a table cell, the citations in Turkish."""
    dashboard, _ = imported_dashboard
    with closing(browser.new_page(viewport={"width": 1400, "height": 1100})) as page:
        for name, query in IMPORTED_VIEWS:
            page.goto(f"{dashboard}/{name}?lang=tr" + (f"&{query}" if query else ""))
            _settle(page)
            if name == "":
                # The datasets and their citations come after the headline cards, one dataset at a time:
                # the first citation shown may not be the procurement one yet.
                for text in ("Atıf:", "Kamu İhale Kurumu (KİK)", "Doğrudan temin alımı yok"):
                    page.get_by_text(text, exact=False).first.wait_for(timeout=60_000)
            where = f"tr /{name}?{query}"
            assert page.locator('[data-testid="stException"]').count() == 0, f"{where}: an exception is shown"
            seen = page.locator("body").inner_text()
            # Placeholders are attributes, not text: the inputs' and the select boxes' are read as well.
            seen += " ".join(page.locator("input[placeholder]").evaluate_all("els => els.map(e => e.placeholder)"))
            english = [word for word in ENGLISH + ("No direct purchases", "Public Procurement Authority",
                                                   "inflation, interest-rates") if word in seen]
            assert english == [], f"{where}: English on the Turkish side: {english}"
            if name == "":
                assert "Kamu İhale Kurumu (KİK)" in seen and "Doğrudan temin alımı yok" in seen, where
