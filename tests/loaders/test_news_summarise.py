"""The summariser against a real loopback OpenAI-compatible server, and the service's own checks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.news.checks import split_sentences, ungrounded_numbers
from loaders.news.documents import Company, Document
from loaders.news.summarise import LlmClient, SummaryError, summarise
from loaders.settings import load_settings
from tests.llm_server import ScriptedLlm, completion

DOCUMENT = Document(
    "fed", "https://www.federalreserve.gov/newsevents/pressreleases/monetary20260729a.htm",
    "Federal Reserve issues FOMC statement", datetime(2026, 7, 29, 18, tzinfo=UTC), "en",
    "The Committee decided to maintain the target range for the federal funds rate at 3-1/2 to 3-3/4 percent. "
    "Inflation remains elevated relative to the Committee's 2 percent goal. The vote was 9 to 3.",
    section="Monetary Policy",
)
GOOD = {
    "titleTr": "Fed politika faizini %3,5-3,75 aralığında sabit tuttu",
    "titleEn": "Fed holds the federal funds rate at 3.5 to 3.75 percent",
    "summaryTr": "Fed, politika faizini yüzde 3,5 ile 3,75 aralığında sabit bıraktı. Enflasyon yüzde 2 hedefinin üzerinde.",
    "summaryEn": "The Fed kept the target range at 3-1/2 to 3-3/4 percent. Inflation remains above the 2 percent goal.",
    "category": "monetary-policy", "tags": ["Rates", "inflation"], "companies": [], "countries": ["us"],
    "sentiment": "neutral", "importance": 5, "unclear": False,
}


def client_for(server: ScriptedLlm, **env: str) -> LlmClient:
    settings = load_settings({"GOSTERGE_LLM_BASE_URL": server.base_url, "GOSTERGE_LLM_MODEL": "test-model",
                              "GOSTERGE_LLM_API_KEY": "sk-test", "GOSTERGE_LLM_TIMEOUT_SECONDS": "1", **env})
    return LlmClient(settings, sleep=lambda seconds: None)


def test_good_answer_becomes_a_confident_article():
    with ScriptedLlm([completion(GOOD)]) as server:
        article = summarise(DOCUMENT, client_for(server), now=datetime(2026, 7, 30, tzinfo=UTC))
        request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-test"
    assert request["body"]["model"] == "test-model"
    assert article["confident"] is True
    assert article["id"].startswith("fed-") and len(article["id"]) == 20
    assert article["countries"] == ["US"] and article["tags"] == ["rates", "inflation"]
    assert article["model"] == "test-model" and article["summarizedAt"] == "2026-07-30T00:00:00Z"
    assert article["publishedAt"] == "2026-07-29T18:00:00Z" and article["section"] == "Monetary Policy"


def test_malformed_json_is_asked_again():
    with ScriptedLlm([completion("not json {"), completion(GOOD)]) as server:
        article = summarise(DOCUMENT, client_for(server))
        assert len(server.requests) == 2
        assert "not valid JSON" in server.requests[1]["body"]["messages"][-1]["content"]
    assert article["confident"] is True


def test_number_not_in_document_is_stored_not_confident():
    answer = {**GOOD, "summaryEn": "The Fed kept rates at 3-1/2 to 3-3/4 percent. Inflation is 7 percent."}
    with ScriptedLlm([completion(answer)]) as server:
        article = summarise(DOCUMENT, client_for(server))
    assert article["confident"] is False


def test_model_saying_unclear_is_not_confident():
    with ScriptedLlm([completion({**GOOD, "unclear": True})]) as server:
        assert summarise(DOCUMENT, client_for(server))["confident"] is False


def test_five_sentences_are_retried_then_refused():
    five = {**GOOD, "summaryEn": "One. Two is here. Three too. Four as well. Five at last."}
    with ScriptedLlm([completion(five)] * 3) as server, pytest.raises(SummaryError, match="5 sentences"):
        summarise(DOCUMENT, client_for(server))
    assert len(server.requests) == 3


def test_server_error_then_success():
    with ScriptedLlm([(500, {"error": "tool failed"}), (429, {"error": "slow down"}), completion(GOOD)]) as server:
        article = summarise(DOCUMENT, client_for(server))
        assert len(server.requests) == 3
    assert article["titleEn"] == GOOD["titleEn"]


def test_time_limit_counts_as_a_failed_attempt():
    # The first reply comes long after the client's time limit (1 s); the second at once, within it
    # however busy the machine (a 0.3 s limit also cut the prompt reply short under a loaded CI run).
    with ScriptedLlm([("sleep", 4), completion(GOOD)]) as server:
        article = summarise(DOCUMENT, client_for(server, GOSTERGE_LLM_TIMEOUT_SECONDS="1"))
    assert article["confident"] is True


def test_invalid_enumerations_are_refused():
    bad = {**GOOD, "category": "sports", "countries": ["XX"], "importance": 9, "sentiment": "happy"}
    with ScriptedLlm([completion(bad)] * 3) as server, pytest.raises(SummaryError) as caught:
        summarise(DOCUMENT, client_for(server))
    for word in ("category", "countries", "importance", "sentiment"):
        assert word in str(caught.value)


def test_tickers_come_from_the_document_never_the_model():
    filing = Document("sec", "https://www.sec.gov/x-index.htm", "8-K - NVIDIA CORP", DOCUMENT.published_at, "en",
                      DOCUMENT.text, section="8-K", companies=(Company("NVIDIA CORP", "NVDA"),),
                      filing_items=("5.02 Departure of Directors",))
    answer = {**GOOD, "companies": [{"name": "NVIDIA CORP", "ticker": "FAKE"}, {"name": "Acme Inc.", "ticker": "ACME"}]}
    with ScriptedLlm([completion(answer)]) as server:
        article = summarise(filing, client_for(server))
    assert article["companies"] == [{"name": "NVIDIA CORP", "ticker": "NVDA"}, {"name": "Acme Inc.", "ticker": None}]
    assert article["filingItems"] == ["5.02 Departure of Directors"]


@pytest.mark.parametrize(("text", "count"), [
    ("The rate is 4.25 percent. It was set in the U.S. by the Fed.", 2),
    ("Acme Inc. reported results. Revenue rose vs. last year, No. 5 in the list.", 2),
    ("The bank in Md. announced it. Beth M. Hammack dissented.", 2),
    ("Politika faizi %4,25 oldu. Karar T.C. Merkez Bankası tarafından açıklandı. Ayrıca vb. konular görüşüldü.", 3),
    ("Şirket A.Ş. unvanıyla faaliyet gösteriyor. Kâr 1.250.000 TL oldu.", 2),
])
def test_sentence_splitter(text, count):
    assert len(split_sentences(text)) == count


@pytest.mark.parametrize(("generated", "document"), [
    ("%4,25", "the rate is 4.25 percent"),
    ("4.25 percent", "faiz %4,25 oldu"),
    ("1.250.000 TL", "revenue of 1,250,000"),
    ("1,25 milyon", "1.25 million"),
    ("2,5 milyar dolar", "$2.5 billion"),
    ("25 basis points", "by 0.25 percentage point"),
    ("25 baz puan", "raise by 1/4 percentage point"),
    ("3.75 percent", "3-3/4 percent"),
    ("9 members", "nine members voted"),
])
def test_grounding_accepts_turkish_and_english_forms(generated, document):
    assert ungrounded_numbers(generated, document) == []


def test_grounding_catches_a_changed_number():
    assert ungrounded_numbers("rates at 4.5 percent", "rates at 4.25 percent") == ["4.5 percent"]


@given(st.integers(min_value=1, max_value=10**12))
def test_grouped_integers_are_found_in_either_convention(n):
    english, turkish = f"{n:,}", f"{n:,}".replace(",", ".")
    assert ungrounded_numbers(turkish, f"total {english}") == []
    assert ungrounded_numbers(english, f"toplam {turkish}") == []


def test_a_model_server_gone_mid_run_is_named_in_words_not_in_urllib3s():
    from tests.helpers import free_port

    settings = load_settings({"GOSTERGE_LLM_BASE_URL": f"http://127.0.0.1:{free_port()}/v1", "GOSTERGE_LLM_ATTEMPTS": "2"})
    client = LlmClient(settings, sleep=lambda seconds: None)
    with pytest.raises(SummaryError) as caught:
        client.complete([{"role": "user", "content": "x"}])
    assert "could not connect to http://127.0.0.1:" in str(caught.value)
    assert "Max retries" not in str(caught.value) and "HTTPConnectionPool" not in str(caught.value)


def test_model_server_check_passes_on_the_stand_in_and_names_a_silent_one():
    from loaders.news.summarise import ModelServerError

    with ScriptedLlm([]) as server:
        settings = load_settings({"GOSTERGE_LLM_BASE_URL": server.base_url, "GOSTERGE_LLM_TIMEOUT_SECONDS": "1"})
        client = LlmClient(settings)
        client.check()  # the stand-in lists its models
        assert server.model_lists == 1
    # Stopped but still holding its socket: connections are accepted and never answered.
    with pytest.raises(ModelServerError, match="did not answer within 1 s: check that it is running"):
        LlmClient(settings).check()


def test_an_address_already_ending_in_v1_is_not_told_to_end_in_v1():
    """A 404 on GET /models at an address ending in /v1 is another server's (a wrong host or port); one without
    the path is told where the API usually is."""
    from loaders.news.summarise import ModelServerError

    with ScriptedLlm([]) as server:
        root = server.base_url[:-len("/v1")]
        for base, said, unsaid in ((f"{root}/other/v1", "already ends in /v1", "usually ends in /v1"),
                                   (root, "usually ends in /v1", "already ends in /v1")):
            with pytest.raises(ModelServerError) as caught:
                LlmClient(load_settings({"GOSTERGE_LLM_BASE_URL": base})).check()
            assert said in str(caught.value) and unsaid not in str(caught.value), str(caught.value)


@pytest.mark.parametrize(("base", "hosted"), [
    ("https://api.openai.com/v1", True), ("https://93.184.216.34/v1", True), ("http://127.0.0.1:11434/v1", False),
    ("http://localhost:8080/v1", False), ("http://192.168.1.20:8000/v1", False), ("http://ollama:11434/v1", False),
    ("http://[::1]:8000/v1", False)])
def test_which_addresses_are_hosted_apis(base, hosted):
    from loaders.news.summarise import is_hosted

    assert is_hosted(base) is hosted


def test_a_hosted_api_out_of_reach_without_a_key_is_told_about_the_key():
    """A hosted API that cannot be reached is not a model server to start: the sentence names the network and,
    with no key set, GOSTERGE_LLM_API_KEY; with a key, the key is not mentioned."""
    from loaders.news.summarise import ModelServerError

    hosted = "https://api.gosterge-test.invalid/v1"  # .invalid never resolves (RFC 2606)
    with pytest.raises(ModelServerError) as caught:
        LlmClient(load_settings({"GOSTERGE_LLM_BASE_URL": hosted, "GOSTERGE_LLM_TIMEOUT_SECONDS": "2"})).check()
    assert "GOSTERGE_LLM_API_KEY (none is set)" in str(caught.value) and "start the model server" not in str(caught.value)
    with pytest.raises(ModelServerError) as caught:
        LlmClient(load_settings({"GOSTERGE_LLM_BASE_URL": hosted, "GOSTERGE_LLM_API_KEY": "sk-x",
                                 "GOSTERGE_LLM_TIMEOUT_SECONDS": "2"})).check()
    assert "GOSTERGE_LLM_API_KEY" not in str(caught.value) and "network" in str(caught.value)
