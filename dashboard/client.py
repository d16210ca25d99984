"""The API client: one call per endpoint, cursor paging, If-None-Match with a local cache, and API
errors turned into sentences a person understands."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import requests

from dashboard.settings import DashboardSettings

VISITOR_HEADER = "X-Gosterge-Visitor"


class ApiError(Exception):
    """An API answer that is not data; `message` is for the page, `status` and `slug` for code."""

    def __init__(self, message: str, *, status: int | None = None, slug: str | None = None,
                 retry_after: int | None = None):
        super().__init__(message)
        self.message, self.status, self.slug, self.retry_after = message, status, slug, retry_after


def _explain(response: requests.Response) -> ApiError:
    try:
        problem = response.json()
    except ValueError:
        problem = {}
    slug = str(problem.get("type", "")).rsplit("/", 1)[-1] or None
    detail = problem.get("detail") or problem.get("title") or response.reason
    status = response.status_code
    if status == 401:
        message = "The API key is missing, unknown, expired or revoked. Set GOSTERGE_API_KEY or get a key on the API key page."
    elif status == 402:
        message = "The API key has run out of credits; top it up or ask for a new key."
    elif status == 403:
        message = "This API key may not call this part of the API."
    elif status == 429:
        wait = problem.get("retry_after") or response.headers.get("Retry-After")
        message = f"Too many requests: wait {wait} seconds and try again."
        return ApiError(message, status=status, slug=slug, retry_after=int(wait) if str(wait).isdigit() else None)
    elif status in (502, 504):
        message = "The service's database is not answering; try again in a moment."
    elif status == 400:
        errors = "; ".join(f"{e.get('parameter') or e.get('file')}: {e.get('message')}" for e in problem.get("errors", []))
        message = f"The request was not accepted: {errors or detail}"
    else:
        message = f"The API answered {status}: {detail}"
    return ApiError(message, status=status, slug=slug)


# Keys are letters, digits, `_` and `-`; a header can carry only Latin-1, and requests raises on more.
KEY_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# The answers kept for revalidation, shared by every visitor: the most recently used, for an hour.
CACHE_ENTRIES = 512
CACHE_SECONDS = 3600


def authorization(key: str) -> dict[str, str]:
    """The Authorization header of `key`; ApiError, said for a person, for a key no API key can be
    (an admin key typed with other letters would otherwise end the page in a traceback)."""
    if not set(key) <= KEY_CHARACTERS:
        raise ApiError("That is not an API key: keys hold only the letters A-Z and a-z, digits, '_' and '-'. "
                       "Copy the key again.", status=401, slug="unauthorized")
    return {"Authorization": f"Bearer {key}"}


class ApiClient:
    """Thread-safe; unchanged answers come from the local cache through a free 304. The cache holds at
    most `cache_entries` answers, each at most `cache_seconds`, keyed by the key that asked as well as
    the URL (one key's answers are never offered to another's request)."""

    def __init__(self, settings: DashboardSettings, *, session: requests.Session | None = None,
                 cache_entries: int = CACHE_ENTRIES, cache_seconds: float = CACHE_SECONDS):
        self.settings = settings
        self.http = session or requests.Session()
        self._cache: OrderedDict[tuple[str, str], tuple[float, str, Any]] = OrderedDict()
        self._cache_entries, self._cache_seconds = cache_entries, cache_seconds
        self._lock = threading.Lock()
        self.not_modified = 0  # answered from the cache through a 304

    def _cached(self, entry: tuple[str, str]) -> tuple[str, Any] | None:
        with self._lock:
            found = self._cache.get(entry)
            if found is None:
                return None
            if time.monotonic() - found[0] > self._cache_seconds:
                del self._cache[entry]
                return None
            self._cache.move_to_end(entry)
            return found[1], found[2]

    def _remember(self, entry: tuple[str, str], etag: str, data: Any) -> None:
        with self._lock:
            self._cache[entry] = (time.monotonic(), etag, data)
            self._cache.move_to_end(entry)
            while len(self._cache) > self._cache_entries:
                self._cache.popitem(last=False)

    def cache_size(self) -> int:
        with self._lock:
            return len(self._cache)

    def get(self, path: str, params: dict[str, Any] | None = None, *, key: str | None = None) -> Any:
        query = {k: v for k, v in (params or {}).items() if v not in (None, "", [])}
        request = requests.Request("GET", self.settings.api_url + path, params=query).prepare()
        url = request.url or path
        used = key or self.settings.api_key
        headers = authorization(used)
        entry = (hashlib.sha256(used.encode()).hexdigest(), url)
        cached = self._cached(entry)
        if cached:
            headers["If-None-Match"] = cached[0]
        try:
            response = self.http.get(url, headers=headers, timeout=self.settings.timeout_seconds)
        except requests.RequestException as exc:
            raise ApiError(f"The API at {self.settings.api_url} cannot be reached ({type(exc).__name__}).") from exc
        if response.status_code == 304 and cached:
            self.not_modified += 1
            return cached[1]
        if response.status_code != 200:
            raise _explain(response)
        data = response.json()
        if response.headers.get("ETag"):
            self._remember(entry, response.headers["ETag"], data)
        return data

    def pages(self, path: str, params: dict[str, Any] | None = None, *, max_items: int = 5000) -> Iterator[dict[str, Any]]:
        """Every item of a paged endpoint, following next_cursor (at most `max_items`)."""
        query, seen = {**(params or {}), "limit": 200}, 0
        while True:
            page = self.get(path, query)
            for item in page["items"]:
                yield item
                seen += 1
                if seen >= max_items:
                    return
            if not page.get("next_cursor"):
                return
            query = {**query, "cursor": page["next_cursor"]}

    def post(self, path: str, *, json: Any = None, files: Any = None, key: str | None = None,
             auth: bool = True, visitor: str | None = None) -> tuple[int, Any]:
        headers = authorization(key or self.settings.api_key) if auth else {}
        if visitor:
            # The API gives each visitor the dashboard names (with its key) an allowance of their own.
            headers[VISITOR_HEADER] = visitor
        try:
            response = self.http.post(self.settings.api_url + path, json=json, files=files, headers=headers,
                                      timeout=max(self.settings.timeout_seconds, 300 if files else 0))
        except requests.RequestException as exc:
            raise ApiError(f"The API at {self.settings.api_url} cannot be reached ({type(exc).__name__}).") from exc
        if response.status_code >= 400:
            error = _explain(response)
            try:
                error.problem = response.json()  # type: ignore[attr-defined]
            except ValueError:
                error.problem = {}  # type: ignore[attr-defined]
            raise error
        return response.status_code, response.json()

    def delete(self, path: str, *, key: str) -> None:
        """DELETE with `key` (a visitor's own); ApiError, said for a person, for anything but 2xx."""
        try:
            response = self.http.delete(self.settings.api_url + path, headers=authorization(key),
                                        timeout=self.settings.timeout_seconds)
        except requests.RequestException as exc:
            raise ApiError(f"The API at {self.settings.api_url} cannot be reached ({type(exc).__name__}).") from exc
        if response.status_code >= 400:
            raise _explain(response)

    def poll(self, url: str) -> tuple[int, Any]:
        """A registration's poll_url (an absolute address the API gave)."""
        try:
            response = self.http.get(url, timeout=self.settings.timeout_seconds)
        except requests.RequestException as exc:
            raise ApiError("The API cannot be reached.") from exc
        if response.status_code >= 400:
            raise _explain(response)
        return response.status_code, response.json()
