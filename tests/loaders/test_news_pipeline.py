"""`gosterge load news --from-dir` on the real saved documents, with a loopback model server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from store.models import Article, SummaryFailure
from tests.helpers import FIXTURES
from tests.llm_server import ScriptedLlm, completion

PLAIN = {
    "titleTr": "Resmi belge yayımlandı", "titleEn": "Official document published",
    "summaryTr": "Kurum yeni bir belge yayımladı. Belge resmi kaynakta okunabilir.",
    "summaryEn": "The institution published a new document. It can be read at the official source.",
    "category": "regulation", "tags": ["policy"], "companies": [], "countries": ["US"], "sentiment": "neutral",
    "importance": 2, "unclear": False,
}


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], env={**os.environ, **env}, capture_output=True,
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
        # fed: the FOMC statement; sec: NVIDIA's saved index, ABVC's submission and the two 8-K documents
        # saved on their own (Buckle, 1-800-Flowers); the gazette text failed
        assert (stored, failures) == (5, 1), first.stderr
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
    assert "README" in result.stderr and "gosterge load news --sample" in result.stderr


def test_model_server_that_does_not_answer_is_one_sentence_before_any_document(database_url, tmp_path):
    from tests.helpers import free_port

    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path),
           "GOSTERGE_LLM_BASE_URL": f"http://127.0.0.1:{free_port()}/v1"}
    result = run(["load", "news", "--source", "all"], env)  # nothing is fetched: the check comes first
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: nothing answers at http://127.0.0.1:"), result.stderr
    assert "README" in lines[0] and "gosterge load news --sample" in lines[0]
    assert "Max retries" not in result.stderr and "urllib3" not in result.stderr
    assert run(["news", "failures"], env).stdout == ""
    assert counts(database_url) == (0, 0)


def test_model_server_is_checked_once_and_the_run_goes_on(database_url, tmp_path, shared_sources):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        result = run(["load", "news", "--source", "fed", "--from-dir", str(shared_sources)],
                     {**env, "GOSTERGE_LLM_BASE_URL": server.base_url})
    assert result.returncode == 0, result.stderr
    assert server.model_lists == 1 and len(server.requests) >= 1
    assert "1 new articles" in result.stderr


def test_model_server_at_a_wrong_path_says_where_the_api_usually_is(database_url, tmp_path):
    with ScriptedLlm([]) as server:
        result = run(["load", "news", "--source", "fed"], {"GOSTERGE_DATABASE_URL": database_url,
                                                          "GOSTERGE_VAR_DIR": str(tmp_path),
                                                          "GOSTERGE_LLM_BASE_URL": server.base_url[:-3]})
    assert result.returncode == 1 and "usually ends in /v1" in result.stderr
    assert server.requests == []


def _stored_model(database_url: str, source: str, url: str) -> str:
    import json

    from store.reference.news import article_id

    engine = create_engine(database_url)
    with Session(engine) as session:
        body = session.scalar(select(Article.body).where(Article.id == article_id(source, url)))
    engine.dispose()
    return json.loads(body)["model"]


def test_resummarise_replaces_the_samples_summaries_with_the_models(database_url, tmp_path, shared_sources):
    fed = "https://www.federalreserve.gov/newsevents/pressreleases/monetary20260729a.htm"
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path), "GOSTERGE_LLM_MODEL": "test-model"}
    assert run(["load", "news", "--sample"], env).returncode == 0
    stored = counts(database_url)[0]
    load_fed = ["load", "news", "--source", "fed", "--from-dir", str(shared_sources / "fed")]
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        env["GOSTERGE_LLM_BASE_URL"] = server.base_url
        plain = run(load_fed, env)
        assert "1 already stored (1 of them the curated sample's: --resummarise sample" in plain.stderr, plain.stderr
        assert server.requests == [] and _stored_model(database_url, "fed", fed).startswith("curated-sample")

        again = run([*load_fed, "--resummarise", "sample"], env)
        assert again.returncode == 0, again.stderr
        assert "0 new articles, 1 summarised again, 0 already stored, 0 failed" in again.stderr, again.stderr
        assert _stored_model(database_url, "fed", fed) == "test-model"
        assert counts(database_url)[0] == stored  # replaced in place, under the same id

        sample_only = run([*load_fed, "--resummarise", "sample"], env)
        assert "1 already stored, 0 failed" in sample_only.stderr, sample_only.stderr  # a model's summary is kept
        asked = len(server.requests)
        every = run([*load_fed, "--resummarise"], env)
        assert "1 summarised again" in every.stderr and len(server.requests) == asked + 1



def load_sec(env: dict[str, str], from_dir) -> subprocess.CompletedProcess:  # noqa: ANN001
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        result = run(["load", "news", "--source", "sec", "--from-dir", str(from_dir)],
                     {**env, "GOSTERGE_LLM_BASE_URL": server.base_url})
    assert result.returncode == 0, result.stderr
    return result


def sec_article(app, auth, ticker: str) -> dict:  # noqa: ANN001
    items = app.test_client().get(f"/v1/finance-news/articles?source=sec&ticker={ticker}", headers=auth).get_json()["items"]
    assert len(items) == 1, items
    return items[0]


def test_saved_8k_published_at_its_acceptance_time(app, auth, tmp_path, shared_sources, database_url):
    load_sec({"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}, shared_sources)
    # The index page's "Accepted 2026-03-06 16:11:25" and the submission's <ACCEPTANCE-DATETIME>, New York time.
    assert sec_article(app, auth, "NVDA")["publishedAt"] == "2026-03-06T21:11:25Z"
    assert sec_article(app, auth, "ABVC")["publishedAt"] == "2025-04-15T20:30:25Z"


def test_saved_8k_document_alone_is_read_with_an_edgar_address(app, auth, tmp_path, shared_sources, database_url):
    result = load_sec({"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}, shared_sources)
    # NVIDIA's index page, ABVC's submission, Buckle's and 1-800-Flowers' documents; NVIDIA's document is
    # read through its index page, not a second time on its own (sec_article finds exactly one).
    assert "sec: 4 documents" in result.stderr
    buckle = sec_article(app, auth, "BKE")
    assert buckle["url"] == "https://www.sec.gov/Archives/edgar/data/885245/bke-20241122_8-K_item2.02.htm"
    assert buckle["publishedAt"] == "2024-11-22T05:00:00Z"  # signed 22 November 2024, New York
    assert buckle["companies"] == [{"name": "BUCKLE, INC", "ticker": "BKE"}]
    assert buckle["filingItems"] == ["2.02 Results of Operations and Financial Condition",
                                     "9.01 Financial Statements and Exhibits"]
    flowers = sec_article(app, auth, "FLWS")
    assert flowers["url"] == "https://www.sec.gov/Archives/edgar/data/1084869/flws20231214_8k_item5.07.htm"
    assert sec_article(app, auth, "NVDA")["url"].endswith("/1045810/0001045810-26-000024-index.html")


def saved_folder(tmp_path: Path, shared_sources: Path, source: str, names: list[str]) -> Path:
    folder = tmp_path / "saved" / source
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(shared_sources / source / name, folder / name)
    return folder


def reported(stderr: str, name: str) -> str:
    """The report's words about one saved file (the CLI prints a name, a colon and the reason)."""
    lines = [line for line in stderr.splitlines() if f"{name}: " in line]
    assert lines, f"{name} is not in the report:\n{stderr}"
    return lines[0].split(f"{name}: ", 1)[1]


def test_saved_sec_file_no_rule_reads_is_reported_by_name(tmp_path, shared_sources, database_url):
    sec = saved_folder(tmp_path, shared_sources, "sec", ["getcurrent_atom_2025-12-12_start3500.xml",
                       "company_tickers_2024-05.json", "bke-20241122_8-K_ex99.1_document-block.txt"])
    shutil.copy(FIXTURES / "sec_8k_cover_page_only.htm", sec)
    submission = (shared_sources / "sec" / "0001213900-25-032135.txt").read_text()
    (sec / "0001213900-25-099999.txt").write_text(submission.replace("SUBMISSION TYPE:\t8-K", "SUBMISSION TYPE:\t10-Q"))
    (sec / "notes.pdf").write_bytes(b"%PDF-1.4")
    result = load_sec({"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}, sec)
    assert "sec: 0 documents" in result.stderr
    assert "submission" in reported(result.stderr, "bke-20241122_8-K_ex99.1_document-block.txt")
    assert "CIK" in reported(result.stderr, "sec_8k_cover_page_only.htm")
    assert "10-Q" in reported(result.stderr, "0001213900-25-099999.txt")
    assert "PDF" in reported(result.stderr, "notes.pdf")


def test_saved_file_of_any_source_no_rule_reads_is_reported_by_name(tmp_path, shared_sources, database_url):
    fed = saved_folder(tmp_path, shared_sources, "fed", ["press_all_2026-08-01.xml", "monetary20260729a.htm"])
    shutil.copy(fed / "press_all_2026-08-01.xml", fed / "press_all_2026-07-01.xml")
    (fed / "draft.docx").write_bytes(b"PK")
    saved_folder(tmp_path, shared_sources, "resmi-gazete", ["20161201-3.htm"])
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        result = run(["load", "news", "--source", "all", "--from-dir", str(tmp_path / "saved")],
                     {**env, "GOSTERGE_LLM_BASE_URL": server.base_url})
    assert result.returncode == 0, result.stderr
    assert "fed: 1 documents" in result.stderr
    assert "older copy" in reported(result.stderr, "press_all_2026-07-01.xml")
    assert "no rule" in reported(result.stderr, "draft.docx")
    # A text the gazette's rules judge not economic (a military faculty's regulation repealed) is named.
    assert "not an economic text" in reported(result.stderr, "20161201-3.htm")
    # --from-dir holds one folder per source: a source without its folder says so, not "0 documents".
    assert "no folder ecb/" in result.stderr and "no folder sec/" in result.stderr


def test_saved_parts_of_a_filing_read_from_its_index_are_named_as_left_out(tmp_path, shared_sources, database_url):
    sec = saved_folder(tmp_path, shared_sources, "sec", ["getcurrent_atom_2025-12-12_start3500.xml",
                       "company_tickers_2024-05.json", "0001045810-26-000024-index.html", "nvda-20260302.htm"])
    # Two more files the index page lists: an exhibit, and the complete submission of the same filing.
    (sec / "formxex101xfy27variablecom.htm").write_text("<html><body><p>Variable Compensation Plan</p></body></html>")
    shutil.copy(shared_sources / "sec" / "0001213900-25-032135.txt", sec / "0001045810-26-000024.txt")
    result = load_sec({"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}, sec)
    assert "sec: 1 documents" in result.stderr and "0 failed" in result.stderr
    assert "EX-10.1" in reported(result.stderr, "formxex101xfy27variablecom.htm")
    assert "same filing" in reported(result.stderr, "0001045810-26-000024.txt")


def test_saved_8k_older_than_since_is_not_read_again_on_its_own(tmp_path, shared_sources, database_url):
    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path)}
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        result = run(["load", "news", "--source", "sec", "--since", "2026-03-07", "--from-dir", str(shared_sources)],
                     {**env, "GOSTERGE_LLM_BASE_URL": server.base_url})
    assert result.returncode == 0, result.stderr
    # NVIDIA's filing (accepted 6 March 2026) is older: neither it nor its primary document is read or failed.
    assert "sec: 0 documents" in result.stderr
    assert "nvda-20260302.htm" not in result.stderr


def test_a_run_that_could_fetch_nothing_fails_and_lists_what_it_could_not_fetch(database_url, tmp_path):
    """No source reachable (here every request of the fetchers goes to a proxy on a port nothing listens on):
    `load news` exits non-zero, and `news failures` lists the address it could not fetch and why."""
    from tests.helpers import free_port

    env = {"GOSTERGE_DATABASE_URL": database_url, "GOSTERGE_VAR_DIR": str(tmp_path),
           "HTTPS_PROXY": f"http://127.0.0.1:{free_port()}", "HTTP_PROXY": f"http://127.0.0.1:{free_port()}",
           "NO_PROXY": "127.0.0.1,localhost"}
    with ScriptedLlm([], default=lambda body: completion(PLAIN)) as server:
        env["GOSTERGE_LLM_BASE_URL"] = server.base_url
        result = run(["load", "news", "--source", "fed"], env)
    assert result.returncode == 1, result.stderr
    assert "nothing could be fetched" in result.stderr and "gave up after 4 attempts" in result.stderr
    listed = run(["news", "failures"], env)
    assert listed.returncode == 0
    line = next(line for line in listed.stdout.splitlines() if "\tfed\t" in line)
    assert "https://www.federalreserve.gov/feeds/press_all.xml" in line and "could not fetch: " in line
    assert counts(database_url) == (0, 1)
