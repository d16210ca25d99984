"""Bilingual summaries from any OpenAI-compatible chat-completions server, checked before storing."""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

import requests

from loaders.news.checks import country_codes, split_sentences, ungrounded_numbers
from loaders.news.documents import Document
from loaders.settings import LoaderSettings
from store.reference.news import CATEGORY_IDS as CATEGORIES
from store.reference.news import SENTIMENT_IDS as SENTIMENTS
from store.reference.news import SOURCES, article_id
from store.times import format_utc

log = logging.getLogger("gosterge.loaders.news")
MAX_DOCUMENT_CHARS = 12_000
MAX_TAGS = 8
RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}

SYSTEM_PROMPT = f"""You summarise one official document for a financial news service, in Turkish and English.
Use only facts stated in the document; copy every number exactly as the document gives it.
Answer with one JSON object and nothing else, with these keys:
"titleTr", "titleEn": headlines of at most 140 characters;
"summaryTr", "summaryEn": 2 to 4 full sentences each;
"category": one of {", ".join(CATEGORIES)};
"tags": up to {MAX_TAGS} short lower-case English topic words;
"companies": list of {{"name": ...}} for companies the document is about;
"countries": ISO 3166-1 alpha-2 codes of the countries concerned;
"sentiment": one of {", ".join(SENTIMENTS)};
"importance": 1 (routine) to 5 (market-moving);
"unclear": true if the document is too unclear or too short to summarise reliably, else false."""


class SummaryError(Exception):
    """No acceptable summary after every attempt; the reason is recorded as a failure."""


class ModelServerError(SummaryError):
    """The model server cannot be used at all: the run stops before its first document."""


# Where a person is sent when no model can be reached (README sections and the model-free command).
MODEL_HINT = ('see "A local model server" in the README for one on this machine, or store the curated sample '
              'feed without a model: gosterge load news --sample')
CHECK_TIMEOUT_SECONDS = 10.0


def is_hosted(base: str) -> bool:
    """Whether the address is a hosted API (a public name or address), not a server on this machine or its
    private network, which a person starts themselves."""
    host = urlparse(base).hostname or ""
    if host == "localhost" or host.endswith((".local", ".internal", ".lan")) or "." not in host and ":" not in host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return True  # a public name such as api.openai.com
    return not (address.is_private or address.is_loopback or address.is_link_local)


def _path_hint(base: str) -> str:
    """Why GET /models is not found: an address without the API's path usually lacks /v1; one that has it is
    another server's (a wrong host or port)."""
    if urlparse(base).path.rstrip("/").endswith("/v1"):
        return "the address already ends in /v1, so another server answers there: check its host and port"
    return "GOSTERGE_LLM_BASE_URL usually ends in /v1"


class LlmClient:
    """A chat-completions client with a time limit and retries with backoff (Retry-After honoured)."""

    def __init__(self, settings: LoaderSettings, *, session: requests.Session | None = None, sleep=time.sleep):  # noqa: ANN001
        if not settings.llm_base_url:
            raise ModelServerError(f"no model server is configured: set GOSTERGE_LLM_BASE_URL to an OpenAI-compatible "
                                   f"address such as http://127.0.0.1:11434/v1; {MODEL_HINT}")
        self.settings = settings
        self.http = session or requests.Session()
        self.sleep = sleep

    def check(self) -> None:
        """Ask the server for its models once (GET /models, which every OpenAI-compatible server has);
        ModelServerError, in one sentence saying what is wrong and how to fix it, when it cannot serve."""
        base = self.settings.llm_base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {self.settings.llm_api_key}"} if self.settings.llm_api_key else {}
        try:
            response = self.http.get(f"{base}/models", headers=headers,
                                     timeout=min(CHECK_TIMEOUT_SECONDS, self.settings.llm_timeout_seconds))
        except requests.Timeout:
            raise ModelServerError(f"the model server at {base} (GOSTERGE_LLM_BASE_URL) did not answer within "
                                   f"{min(CHECK_TIMEOUT_SECONDS, self.settings.llm_timeout_seconds):g} s: "
                                   f"{self._unreachable_hint(base, 'check that it is running')}") from None
        except requests.RequestException:
            raise ModelServerError(f"nothing answers at {base} (GOSTERGE_LLM_BASE_URL): "
                                   f"{self._unreachable_hint(base, 'start the model server or correct the address')}"
                                   ) from None
        if response.status_code in (401, 403):
            needed = "" if self.settings.llm_api_key else " (none is set)"
            raise ModelServerError(f"the model server at {base} refused the key (HTTP {response.status_code}): set "
                                   f"GOSTERGE_LLM_API_KEY to a key it accepts{needed}")
        if response.status_code == 404:
            raise ModelServerError(f"{base} is not the address of an OpenAI-compatible API (GET {base}/models: HTTP "
                                   f"404): {_path_hint(base)}")
        if response.status_code >= 500:
            raise ModelServerError(f"the model server at {base} fails (HTTP {response.status_code} to GET {base}/models): "
                                   f"see its own log")

    def _unreachable_hint(self, base: str, local: str) -> str:
        """What to do when nothing answers: a server on this machine or network is started (`local`); a hosted
        API is reached over the network and, with no key set, needs GOSTERGE_LLM_API_KEY too."""
        if not is_hosted(base):
            return f"{local}; {MODEL_HINT}"
        key = "" if self.settings.llm_api_key else "; a hosted API also needs its key in GOSTERGE_LLM_API_KEY (none is set)"
        return f"check this machine's network access to it{key}; {MODEL_HINT}"

    def complete(self, messages: list[dict[str, str]]) -> str:
        url = self.settings.llm_base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.settings.llm_api_key:
            headers["Authorization"] = f"Bearer {self.settings.llm_api_key}"
        body = {"model": self.settings.llm_model, "messages": messages, "temperature": 0,
                "response_format": {"type": "json_object"}}
        last = "no attempt made"
        for attempt in range(self.settings.llm_attempts):
            try:
                response = self.http.post(url, json=body, headers=headers, timeout=self.settings.llm_timeout_seconds)
            except requests.RequestException as exc:
                last = self._unreachable(exc)
                self.sleep(self._backoff(attempt, None))
                continue
            if response.status_code == 200:
                try:
                    return response.json()["choices"][0]["message"]["content"]
                except (ValueError, KeyError, IndexError, TypeError):
                    last = "the server's answer is not a chat completion"
            elif response.status_code in RETRY_STATUSES:
                last = f"HTTP {response.status_code}"
            else:
                raise SummaryError(f"the model server refused the request: HTTP {response.status_code}")
            self.sleep(self._backoff(attempt, response.headers.get("Retry-After")))
        raise SummaryError(f"the model server failed {self.settings.llm_attempts} times; last: {last}")

    def _unreachable(self, exc: requests.RequestException) -> str:
        """What went wrong in a sentence a person can act on (urllib3's own text names pools and retries)."""
        if isinstance(exc, requests.Timeout):
            return f"no answer from {self.settings.llm_base_url} within {self.settings.llm_timeout_seconds:g} s"
        if isinstance(exc, requests.ConnectionError):
            return f"could not connect to {self.settings.llm_base_url}"
        return f"the request to {self.settings.llm_base_url} failed ({type(exc).__name__})"

    @staticmethod
    def _backoff(attempt: int, retry_after: str | None) -> float:
        if retry_after and retry_after.isdigit():
            return min(float(retry_after), 60.0)
        return min(0.5 * 2**attempt, 8.0)


def check_answer(answer: Any) -> list[str]:
    """Rule breaks that make an answer unusable (the model is asked again with them)."""
    if not isinstance(answer, dict):
        return ["the answer must be a JSON object"]
    problems = []
    for key in ("titleTr", "titleEn", "summaryTr", "summaryEn"):
        value = answer.get(key)
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{key} must be a non-empty string")
        elif key.startswith("title") and len(value) > 200:
            problems.append(f"{key} is longer than 200 characters")
        elif key.startswith("summary") and not 2 <= len(split_sentences(value)) <= 4:
            problems.append(f"{key} has {len(split_sentences(value))} sentences; write 2 to 4")
    if answer.get("category") not in CATEGORIES:
        problems.append(f"category must be one of {', '.join(CATEGORIES)}")
    if answer.get("sentiment") not in SENTIMENTS:
        problems.append(f"sentiment must be one of {', '.join(SENTIMENTS)}")
    importance = answer.get("importance")
    if not isinstance(importance, int) or isinstance(importance, bool) or not 1 <= importance <= 5:
        problems.append("importance must be a whole number from 1 to 5")
    countries = answer.get("countries", [])
    if not isinstance(countries, list) or any(not isinstance(c, str) or c.upper() not in country_codes() for c in countries):
        problems.append("countries must be ISO 3166-1 alpha-2 codes")
    tags = answer.get("tags", [])
    if not isinstance(tags, list) or any(not isinstance(t, str) or not t.strip() for t in tags):
        problems.append("tags must be a list of words")
    companies = answer.get("companies", [])
    if not isinstance(companies, list) or any(not isinstance(c, dict) or not isinstance(c.get("name"), str)
                                              for c in companies):
        problems.append('companies must be a list of {"name": ...}')
    return problems


def _messages(document: Document) -> list[dict[str, str]]:
    header = f"Source: {SOURCES[document.source].name}\nTitle: {document.title}\nPublished: {format_utc(document.published_at)}"
    if document.filing_items:
        header += "\n8-K items: " + "; ".join(document.filing_items)
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"{header}\n\nDocument:\n{document.text[:MAX_DOCUMENT_CHARS]}"}]


def summarise(document: Document, client: LlmClient, *, now: datetime | None = None) -> dict[str, Any]:
    """An article for `document`, or SummaryError; an answer breaking a rule is asked for again."""
    messages = _messages(document)
    problems: list[str] = []
    for _ in range(client.settings.llm_attempts):
        content = client.complete(messages)
        try:
            answer = json.loads(content)
        except (TypeError, json.JSONDecodeError):
            problems = ["the answer is not valid JSON"]
        else:
            problems = check_answer(answer)
            if not problems:
                return build_article(document, answer, model=client.settings.llm_model, now=now)
        log.info("summary of %s refused: %s", document.url, "; ".join(problems))
        messages = [*messages, {"role": "assistant", "content": str(content)[:4000]},
                    {"role": "user", "content": "Your answer breaks these rules: " + "; ".join(problems)
                     + ". Answer again with the corrected JSON object only."}]
    raise SummaryError("; ".join(problems))


def build_article(document: Document, answer: dict[str, Any], *, model: str, now: datetime | None = None) -> dict[str, Any]:
    """The stored article: the model's text plus the service's own facts; `confident` is the service's call."""
    generated = " ".join(answer[k] for k in ("titleTr", "titleEn", "summaryTr", "summaryEn"))
    missing = ungrounded_numbers(generated, f"{document.title}\n{document.text}")
    companies = [{"name": c.name, "ticker": c.ticker} for c in document.companies]
    known = {c["name"].lower() for c in companies}
    for company in answer.get("companies", []):
        name = " ".join(company["name"].split())
        if name and name.lower() not in known:
            companies.append({"name": name, "ticker": None})  # tickers are never taken from the model
            known.add(name.lower())
    return {
        "id": article_id(document.source, document.url),
        "source": document.source,
        "sourceName": SOURCES[document.source].name,
        "url": document.url,
        "publishedAt": format_utc(document.published_at),
        "language": document.language,
        "originalTitle": document.title,
        "titleTr": answer["titleTr"].strip(), "titleEn": answer["titleEn"].strip(),
        "summaryTr": answer["summaryTr"].strip(), "summaryEn": answer["summaryEn"].strip(),
        "section": document.section,
        "category": answer["category"],
        "tags": list(dict.fromkeys(t.strip().lower() for t in answer.get("tags", [])))[:MAX_TAGS],
        "companies": companies,
        "countries": sorted({c.upper() for c in answer.get("countries", [])}),
        "sentiment": answer["sentiment"],
        "importance": answer["importance"],
        "confident": not missing and not bool(answer.get("unclear")),
        "filingItems": list(document.filing_items) if document.filing_items else None,
        "model": model,
        "summarizedAt": format_utc(now or datetime.now(UTC)),
    }

