"""Getting source bytes: live over HTTP (polite, retried, conditional) or from a directory of saved files."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import requests

log = logging.getLogger("gosterge.loaders.news")
RETRY_STATUSES = {429, 500, 502, 503, 504}
# Requests per second allowed per host; the SEC asks for at most 10.
HOST_RATE = {"www.sec.gov": 10.0}
DEFAULT_HOST_RATE = 5.0


class FetchError(Exception):
    """A document could not be got; the run counts it and goes on. `url` is the address that failed."""

    def __init__(self, message: str, *, url: str | None = None):
        super().__init__(message)
        self.url = url


class NotSavedError(FetchError):
    """A saved folder holds no copy of this document (an offline run only has what was saved)."""


class HttpGetter:
    """GET with a time limit, retries with backoff (Retry-After honoured), a per-host request rate, and
    conditional requests: a cached ETag/Last-Modified turns an unchanged document into a 304."""

    def __init__(self, *, user_agent: str, timeout: float, cache_dir: Path | None = None, attempts: int = 4,
                 session: requests.Session | None = None, sleep=time.sleep):  # noqa: ANN001
        self.http = session or requests.Session()
        self.http.headers["User-Agent"] = user_agent
        self.timeout, self.attempts, self.sleep = timeout, attempts, sleep
        self.cache_dir = cache_dir
        self._next_slot: dict[str, float] = {}
        self._lock = threading.Lock()

    def _wait_turn(self, host: str) -> None:
        interval = 1.0 / HOST_RATE.get(host, DEFAULT_HOST_RATE)
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot.get(host, now))
            self._next_slot[host] = slot + interval
        if slot > now:
            self.sleep(slot - now)

    def _cache_paths(self, url: str) -> tuple[Path, Path] | None:
        if self.cache_dir is None:
            return None
        name = hashlib.sha256(url.encode()).hexdigest()[:32]
        return self.cache_dir / f"{name}.body", self.cache_dir / f"{name}.json"

    def get(self, url: str) -> bytes:
        paths = self._cache_paths(url)
        headers: dict[str, str] = {}
        if paths and paths[1].exists():
            validators = json.loads(paths[1].read_text())
            if validators.get("etag"):
                headers["If-None-Match"] = validators["etag"]
            if validators.get("last_modified"):
                headers["If-Modified-Since"] = validators["last_modified"]
        last = "no attempt"
        for attempt in range(self.attempts):
            self._wait_turn(urlparse(url).netloc)
            try:
                response = self.http.get(url, headers=headers, timeout=self.timeout)
            except requests.RequestException as exc:
                last = f"{type(exc).__name__}"
                self.sleep(min(0.5 * 2**attempt, 8.0))
                continue
            if response.status_code == 304 and paths and paths[0].exists():
                return paths[0].read_bytes()
            if response.status_code == 200:
                if paths:
                    paths[0].parent.mkdir(parents=True, exist_ok=True)
                    paths[0].write_bytes(response.content)
                    paths[1].write_text(json.dumps({"etag": response.headers.get("ETag"),
                                                    "last_modified": response.headers.get("Last-Modified")}))
                return response.content
            if response.status_code not in RETRY_STATUSES:
                raise FetchError(f"{url}: HTTP {response.status_code}", url=url)
            last = f"HTTP {response.status_code}"
            retry_after = response.headers.get("Retry-After", "")
            self.sleep(min(float(retry_after), 60.0) if retry_after.isdigit() else min(0.5 * 2**attempt, 8.0))
        raise FetchError(f"{url}: gave up after {self.attempts} attempts ({last})", url=url)


class DirectoryGetter:
    """Saved documents: a URL is answered by the file of the same base name; feeds by a name pattern."""

    def __init__(self, directory: Path, feeds: dict[str, str]):
        self.directory = Path(directory)
        self.feeds = feeds  # feed URL -> glob pattern of its saved copy
        # The files it handed out, and older copies of a feed it did not (name -> the copy read instead),
        # so that a run can name every saved file it did not read.
        self.served: set[str] = set()
        self.older_copies: dict[str, str] = {}

    def get(self, url: str) -> bytes:
        pattern = self.feeds.get(url)
        if pattern:
            matches = sorted(self.directory.glob(pattern))
            if not matches:
                raise FetchError(f"no saved feed matching {pattern} in {self.directory}")
            self.older_copies.update(dict.fromkeys((older.name for older in matches[:-1]), matches[-1].name))
            return self.read(matches[-1])
        path = self.directory / Path(urlparse(url).path).name
        if not path.is_file():
            raise NotSavedError(f"no saved copy {path.name} in {self.directory}")
        return self.read(path)

    def read(self, path: Path) -> bytes:
        """A saved file, found by URL or by a source's own rule."""
        self.served.add(path.name)
        return path.read_bytes()
