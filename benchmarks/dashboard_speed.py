"""First render and re-render after a change, per dashboard page, in Debian's Chromium (Playwright);
then the map pages: first render until the 81 provinces are drawn, and a change of the map's filter.

    .venv/bin/python benchmarks/dashboard_speed.py        # demo data, warm local API (gunicorn, 2 workers)
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.api_load import start  # noqa: E402
from cli.run import dashboard_command  # noqa: E402

# The default page (overview) lives at the root; st.navigation gives it no path of its own.
PAGES = ["", "competition", "direct", "local-suppliers", "province-sectors", "supply-flows", "rankings", "news"]
DONE = ("!document.querySelector('[data-testid=\"stStatusWidget\"]') && !document.querySelector('[data-testid=\"stSkeleton\"]')"
        " && document.querySelector('h1')")
DRAWN = "document.querySelectorAll('.js-plotly-plot .cartesianlayer .scatterlayer path.js-fill').length >= 81"
# Map page, its address, the filter changed (picker label) and the two choices it alternates between.
MAPS = [("competition (single-bid share)", "competition?lang=en&dimension=province", "Year on the map", ("2023", "2024")),
        ("direct (total)", "direct?lang=en&dimension=province", "Year on the map", ("2024 (partial)", "2025")),
        ("local suppliers", "local-suppliers?lang=en", "Year on the map", ("2023", "2024")),
        ("supply flows", "supply-flows?lang=en", "Buyer province", ("06 Ankara", "34 İstanbul"))]


def _pick(page, label: str, option: str) -> None:  # noqa: ANN001
    # Typing filters the list: a long one (81 provinces) renders only the options in view.
    page.locator('[data-testid="stSelectbox"]', has_text=label).click()
    page.keyboard.type(option)
    page.get_by_role("option", name=option, exact=True).click()


def map_pages(page, base: str) -> None:  # noqa: ANN001
    """Map pages: first render until the provinces are drawn, then a change of the map's filter."""
    print("\n| map page | first render s (median of 3) | filter change s (median of 4) |")
    print("|---|---|---|")
    for name, address, label, choices in MAPS:
        firsts, changes = [], []
        for _ in range(3):
            started = time.perf_counter()
            page.goto(f"{base}/{address}")
            page.wait_for_function(DONE, timeout=60_000)
            page.wait_for_function(DRAWN, timeout=60_000)
            firsts.append(time.perf_counter() - started)
        for round_ in range(4):
            started = time.perf_counter()
            _pick(page, label, choices[round_ % 2])
            page.wait_for_timeout(100)
            page.wait_for_function(DONE, timeout=60_000)
            page.wait_for_function(DRAWN, timeout=60_000)
            changes.append(time.perf_counter() - started)
        print(f"| {name} | {statistics.median(firsts):.2f} | {statistics.median(changes):.2f} |")


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if not chromium:
        raise SystemExit("Debian's chromium is needed: apt-get install chromium")
    work = Path(tempfile.mkdtemp(prefix="gosterge-dash-bench-"))
    env = {**os.environ, "GOSTERGE_DATABASE_URL": f"sqlite:///{work / 'demo.db'}", "GOSTERGE_VAR_DIR": str(work)}
    key = subprocess.run([sys.executable, "-m", "cli", "demo", "--load-only"], env=env, check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout.strip()
    api = start("api:create_app()", 18931, env)
    dash = subprocess.Popen(dashboard_command(18932), env={**env, "GOSTERGE_API_URL": "http://127.0.0.1:18931",
                                                           "GOSTERGE_API_KEY": key},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(4)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                                 "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto("http://127.0.0.1:18932/")
            page.wait_for_function(DONE, timeout=60_000)  # warm the server's caches once
            print("| page | first render s (median of 3) | after switching language s |")
            print("|---|---|---|")
            for name in PAGES:
                firsts = []
                for _ in range(3):
                    started = time.perf_counter()
                    page.goto(f"http://127.0.0.1:18932/{name}?lang=tr")
                    page.wait_for_function(DONE, timeout=60_000)
                    firsts.append(time.perf_counter() - started)
                started = time.perf_counter()
                page.get_by_text("English", exact=True).click(timeout=10_000)
                page.wait_for_timeout(100)
                page.wait_for_function(DONE, timeout=60_000)
                change = time.perf_counter() - started
                print(f"| {name or 'overview'} | {statistics.median(firsts):.2f} | {change:.2f} |")
            map_pages(page, "http://127.0.0.1:18932")
            browser.close()
    finally:
        dash.terminate()
        api.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
