"""`gosterge load news --from-dir` on the real saved documents, with a loopback model server."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from store.models import Article, SummaryFailure
from tests.llm_server import ScriptedLlm, completion

PLAIN = {
    "titleTr": "Resmi belge yayımlandı", "titleEn": "Official document published",
    "summaryTr": "Kurum yeni bir belge yayımladı. Belge resmi kaynakta okunabilir.",
    "summaryEn": "The institution published a new document. It can be read at the official source.",
    "category": "regulation", "tags": ["policy"], "companies": [], "countries": ["US"], "sentiment": "neutral",
    "importance": 2, "unclear": False,
}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "api.cli", *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=300)


def counts(database_url: str) -> tuple[int, int]:
    engine = create_engine(database_url)
    with Session(engine) as session:
        result = (session.scalar(select(func.count()).select_from(Article)),
                  session.scalar(select(func.count()).select_from(SummaryFailure)))
    engine.dispose()
    return result


def test_load_news_from_saved_documents_is_idempotent_and_retries_failures(database_url, tmp_path, shared_sources):
    failing = {"n": 0}

    def answer(body):  # noqa: ANN001
        text = body["messages"][1]["content"]
        if "DOĞAL GAZ" in text and failing["n"] < 3:
            failing["n"] += 1
            return completion("not json")  # the gazette text fails in the first run
        return completion(PLAIN)

    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path), "GOSTERGE_LLM_ATTEMPTS": "3"}
    with ScriptedLlm([], default=answer) as server:
        env["GOSTERGE_LLM_BASE_URL"] = server.base_url
        first = run(["load", "news", "--source", "all", "--from-dir", str(shared_sources)], env)
        assert first.returncode == 0, first.stderr
        stored, failures = counts(database_url)
        assert "fed: " in first.stderr and "sec: " in first.stderr
        # fed: the FOMC statement; sec: NVIDIA's saved index and ABVC's submission; the gazette text failed
        assert (stored, failures) == (3, 1), first.stderr
        assert "not in the saved folder" in first.stderr
        listed = run(["news", "failures"], env)
        assert "resmi-gazete" in listed.stdout and "not valid JSON" in listed.stdout
        second = run(["load", "news", "--source", "all", "--from-dir", str(shared_sources)], env)
        assert second.returncode == 0, second.stderr
        assert counts(database_url) == (stored + 1, 0)
        assert "already stored" in second.stderr


def test_sec_articles_carry_items_and_the_filers_ticker(app, auth, tmp_path, shared_sources, database_url):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        env["GOSTERGE_LLM_BASE_URL"] = server.base_url
        result = run(["load", "news", "--source", "sec", "--from-dir", str(shared_sources)], env)
    assert result.returncode == 0, result.stderr
    items = app.test_client().get("/v1/finance-news/articles?source=sec&ticker=ABVC", headers=auth).get_json()["items"]
    assert len(items) == 1
    article = items[0]
    assert article["companies"][0] == {"name": "ABVC BIOPHARMA, INC.", "ticker": "ABVC"}
    assert article["filingItems"][0] == "2.02 Results of Operations and Financial Condition"
    assert article["url"].endswith("/000121390025032135/0001213900-25-032135.txt")


def test_missing_model_server_setting_is_one_clear_error(database_url, tmp_path, shared_sources):
    result = run(["load", "news", "--source", "fed", "--from-dir", str(shared_sources)],
                 {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path), "GOSTERGE_LLM_BASE_URL": ""})
    assert result.returncode == 1 and "GOSTERGE_LLM_BASE_URL" in result.stderr

