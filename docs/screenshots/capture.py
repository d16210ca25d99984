"""Full-page screenshots of the dashboard's Rankings, Local suppliers, Awards and profile pages, in Turkish
and English, at 1,400 px wide, as PNG files small enough to keep in the repository.

With the demo running (`make demo`, the dashboard on :8501), from the project root:

    .venv/bin/python docs/screenshots/capture.py --dashboard http://127.0.0.1:8501 --suffix after

writes docs/screenshots/rankings-tr-after.png, rankings-en-after.png, … (eight files). Chromium is Debian's
`chromium` when installed (as in the browser tests), otherwise Playwright's own (`playwright install chromium`).
"""

from __future__ import annotations

import argparse
import io
import shutil
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
WIDTH_PX = 1400
MAX_HEIGHT_PX = 8000  # a page taller than this is cut: Chromium draws no larger surface reliably
MAX_BYTES = 300_000  # above this a shot is reduced to 256 colours, which a page of text and flat charts survives
# The pages, by the name of their files and their address; the profile's party is added by --authority.
PAGES = {"rankings": "rankings", "local-suppliers": "local-suppliers", "awards": "awards", "profile": "profile"}
# Streamlit shows a running indicator and skeletons until a page's script is done.
DONE = ("!document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " && !document.querySelector('[data-testid=\"stSkeleton\"]')")
# Plotly (loaded on demand) draws after Streamlit reports the run done, and a table draws on a canvas.
DRAWN = ("[...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')].every(c => c.querySelector('.main-svg'))"
         " && [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')].every(t => t.querySelector('canvas'))")
HEIGHT = ("Math.max(...[...document.querySelectorAll('[data-testid=stMain], [data-testid=stSidebarContent], section')]"
          ".map(e => e.scrollHeight))")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def settle(page: Page) -> None:
    """Wait until the page's script has run and its charts and tables are drawn."""
    page.wait_for_selector("h1", timeout=90_000)
    page.wait_for_function(DONE, timeout=90_000)
    page.wait_for_function(DRAWN, timeout=90_000)
    page.wait_for_timeout(1_500)  # Plotly's transitions and the tables' first paint


def content_height(page: Page) -> int:
    """The height of the page's content once it has stopped growing: the last tables mount late."""
    last, unchanged = -1, 0
    for _ in range(60):
        height = page.evaluate(HEIGHT)
        unchanged = unchanged + 1 if height == last else 0
        if unchanged == 3:  # the same for 1.5 s
            break
        last = height
        page.wait_for_timeout(500)
    return height


def shoot(page: Page) -> bytes:
    """The whole page: Streamlit scrolls inside its own containers (the main part and the sidebar), so the
    window is made as tall as the taller of them, again while a taller window mounts more."""
    height, shown = content_height(page), 0
    while height > shown and shown < MAX_HEIGHT_PX:
        shown = min(max(1100, height), MAX_HEIGHT_PX)
        page.set_viewport_size({"width": WIDTH_PX, "height": shown})
        settle(page)
        height = content_height(page)
    png = page.screenshot(full_page=True)
    page.set_viewport_size({"width": WIDTH_PX, "height": 1100})
    return png


def save_small(png: bytes, path: Path) -> None:
    """Save optimised; when that is still above MAX_BYTES, as 256 colours."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.save(path, optimize=True)
    if path.stat().st_size > MAX_BYTES:
        image.quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dashboard", default="http://127.0.0.1:8501", help="the running dashboard's address")
    parser.add_argument("--suffix", required=True, help="the end of each file's name: before, after, …")
    parser.add_argument("--authority", default="A000010", help="the authority whose profile is shown")
    parser.add_argument("--out", type=Path, default=HERE, help="the folder to write to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": WIDTH_PX, "height": 1100})
        for language in ("tr", "en"):
            for name, address in PAGES.items():
                url = f"{args.dashboard.rstrip('/')}/{address}?lang={language}"
                if name == "profile":
                    url += f"&kind=authority&id={args.authority}"
                page.goto(url)
                settle(page)
                path = args.out / f"{name}-{language}-{args.suffix}.png"
                save_small(shoot(page), path)
                print(f"{path}  {path.stat().st_size // 1000} KB", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
