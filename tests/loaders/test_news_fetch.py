"""The live fetcher against a loopback HTTP server: 304, 429 with Retry-After, 5xx then success, time-out."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from loaders.news.fetch import DirectoryGetter, FetchError, HttpGetter, NotSavedError


class Site:
    """Serves scripted replies per path: (status, headers, body) tuples, or ("sleep", seconds)."""

    def __init__(self, script: dict[str, list]):
        self.script = script
        self.seen: list[dict] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                owner.seen.append({"path": self.path, "headers": dict(self.headers)})
                reply = owner.script[self.path].pop(0)
                if reply[0] == "sleep":
                    time.sleep(reply[1])
                    reply = (200, {}, b"late")
                status, headers, body = reply
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:  # noqa: ANN002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def __enter__(self) -> Site:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()


def getter(tmp_path, sleeps: list[float] | None = None, timeout: float = 2) -> HttpGetter:  # noqa: ANN001
    return HttpGetter(user_agent="Gosterge/0.1 (+ops@example.test)", timeout=timeout, cache_dir=tmp_path,
                      sleep=(sleeps.append if sleeps is not None else lambda s: None))


def test_conditional_get_uses_the_cached_copy_on_304(tmp_path):
    script = {"/feed": [(200, {"ETag": '"v1"', "Last-Modified": "Fri, 31 Jul 2026 14:00:00 GMT"}, b"<rss/>"),
                        (304, {}, b"")]}
    with Site(script) as site:
        client = getter(tmp_path)
        assert client.get(f"{site.url}/feed") == b"<rss/>"
        assert client.get(f"{site.url}/feed") == b"<rss/>"
    second = site.seen[1]["headers"]
    assert second["If-None-Match"] == '"v1"' and second["If-Modified-Since"].startswith("Fri, 31 Jul 2026")
    assert site.seen[0]["headers"]["User-Agent"] == "Gosterge/0.1 (+ops@example.test)"


def test_429_waits_retry_after_then_succeeds(tmp_path):
    sleeps: list[float] = []
    with Site({"/doc": [(429, {"Retry-After": "7"}, b""), (200, {}, b"ok")]}) as site:
        assert getter(tmp_path, sleeps).get(f"{site.url}/doc") == b"ok"
    assert 7.0 in sleeps


def test_server_errors_then_success(tmp_path):
    with Site({"/doc": [(503, {}, b""), (500, {}, b""), (200, {}, b"ok")]}) as site:
        assert getter(tmp_path).get(f"{site.url}/doc") == b"ok"
    assert len(site.seen) == 3


def test_time_out_is_retried_and_then_given_up(tmp_path):
    with Site({"/slow": [("sleep", 1.0)] * 4}) as site, pytest.raises(FetchError, match="gave up"):
        getter(tmp_path, timeout=0.2).get(f"{site.url}/slow")


def test_not_found_is_not_retried(tmp_path):
    with Site({"/gone": [(404, {}, b"")]}) as site, pytest.raises(FetchError, match="404"):
        getter(tmp_path).get(f"{site.url}/gone")
    assert len(site.seen) == 1


def test_requests_to_one_host_are_spaced(tmp_path):
    sleeps: list[float] = []
    with Site({"/a": [(200, {}, b"a")] * 3}) as site:
        client = getter(tmp_path, sleeps)
        for _ in range(3):
            client.get(f"{site.url}/a")
    # 127.0.0.1 gets the default 5 requests a second: the second and third request wait their turn.
    assert len(sleeps) == 2 and all(0 < s <= 0.4 for s in sleeps)


def test_directory_getter_reads_the_last_feed_copy_and_names_the_older_ones(tmp_path):
    for name in ("press_all_2026-07-01.xml", "press_all_2026-08-01.xml", "monetary20260729a.htm"):
        (tmp_path / name).write_text(name)
    getter = DirectoryGetter(tmp_path, {"https://feed.test/press_all.xml": "press_all*.xml"})
    assert getter.get("https://feed.test/press_all.xml") == b"press_all_2026-08-01.xml"
    assert getter.get("https://www.federalreserve.gov/newsevents/pressreleases/monetary20260729a.htm")
    with pytest.raises(NotSavedError):
        getter.get("https://www.federalreserve.gov/newsevents/pressreleases/other.htm")
    assert getter.served == {"press_all_2026-08-01.xml", "monetary20260729a.htm"}
    assert getter.older_copies == {"press_all_2026-07-01.xml": "press_all_2026-08-01.xml"}
