"""Redaction of log text: what is skipped because it cannot hold a secret is exactly what the rules would
have left alone; a secret percent-encoded is found and replaced too, and the text around a secret the
rules can see is kept as it came."""

from __future__ import annotations

from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st

from api.logs import CREDENTIAL, SECRET_PARAM, redact_keys, redact_text

# Pieces that make the rules match, or nearly match (other cases, Unicode letters that match ASCII
# ones case-insensitively: the Kelvin sign, the dotted capital I), joined with arbitrary text.
PIECES = st.sampled_from([
    "gk_", "gk_AbCdEfGh12", "GK_abcdefgh12", "apikey=", "APIKEY=", "ApİKey=", "apikey", "token=", "TOKEN=",
    "toKen=", "to\u212aen=", "Authorization: Bearer ", "AUTHORIZATION=", "authorİzation: ", "authorization",
    "secret", "&", "=", " ", "'", '"', "\\", "\n",
])
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=12).map("".join)
# The same with percent-encoded pieces: secrets hidden by the encoding, control characters, a `%` escaped.
ENCODED = st.sampled_from(["%67k%5FAbCdEfGh12", "%67k_AbCdEfGh12", "%2567k%255FAbCdEfGh12", "%67k%5F", "%67k_", "api%6Bey=", "%61pikey=", "tok%65n=", "%41uthorization: ", "%0A",
                           "%0D%0A", "%00", "%25", "%2567k%255F", "%", "%2", "%e2%80%a8"])
TEXTS_ENCODED = st.lists(st.one_of(ENCODED, PIECES, st.text(max_size=8)), max_size=12).map("".join)


def all_rules(text: str) -> str:
    return CREDENTIAL.sub(r"\1REDACTED", SECRET_PARAM.sub(r"\1=REDACTED", redact_keys(text)))


def decoded(text: str) -> str:
    for _ in range(4):
        text = unquote(text, errors="replace")
    return text


@settings(max_examples=500)
@given(TEXTS.filter(lambda text: "%" not in text))
def test_redacting_any_text_equals_running_every_rule(text):
    assert redact_text(text) == all_rules(text)


@settings(max_examples=500)
@given(TEXTS_ENCODED)
def test_no_key_is_left_plain_or_encoded_and_no_line_is_broken(text):
    redacted = redact_text(text)
    assert "AbCdEfGh12" not in decoded(redacted)
    for breaking in ("\n", "\r", "\x00", "\u2028"):
        assert (breaking in redacted) <= (breaking in text)


def test_text_around_a_key_the_rules_see_is_kept_as_it_came():
    # Decoding it would have written a NUL byte into the log for the `%00` a client sent.
    assert redact_text("gk_AbCdEfGh12%00") == "gk_REDACTED%00"
    assert redact_text("GET /x?apikey=gk_AbCdEfGh12&q=%C4%B0stanbul%0A") == "GET /x?apikey=REDACTED&q=%C4%B0stanbul%0A"


def test_a_secret_found_by_decoding_does_not_break_the_line():
    redacted = redact_text('{"query": "x=%0A%7B%22forged%22%3A1%7D&k=%67k%5FAbCdEfGh1234"}')
    assert "\n" not in redacted and "AbCdEfGh1234" not in redacted
    assert "gk_REDACTED" in redacted


def test_an_access_line_without_secrets_comes_back_as_it_was():
    line = '{"method": "GET", "path": "/v1/public-procurement/top-contractors", "query": "province=34"}'
    assert redact_text(line) is line


def test_secrets_in_a_line_are_redacted():
    line = 'GET /v1/x?apikey=gk_abcdefghijkl&Token=t0 HTTP/1.1 Authorization: Bearer sekret'
    assert redact_text(line) == "GET /v1/x?apikey=REDACTED&Token=REDACTED HTTP/1.1 Authorization: Bearer REDACTED"
