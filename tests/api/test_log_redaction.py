"""Redaction of log text: what is skipped because it cannot hold a secret is exactly what the rules would
have left alone."""

from __future__ import annotations

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


def all_rules(text: str) -> str:
    return CREDENTIAL.sub(r"\1REDACTED", SECRET_PARAM.sub(r"\1=REDACTED", redact_keys(text)))


@settings(max_examples=500)
@given(TEXTS)
def test_redacting_any_text_equals_running_every_rule(text):
    assert redact_text(text) == all_rules(text)


def test_an_access_line_without_secrets_comes_back_as_it_was():
    line = '{"method": "GET", "path": "/v1/public-procurement/top-contractors", "query": "province=34"}'
    assert redact_text(line) is line


def test_secrets_in_a_line_are_redacted():
    line = 'GET /v1/x?apikey=gk_abcdefghijkl&Token=t0 HTTP/1.1 Authorization: Bearer sekret'
    assert redact_text(line) == "GET /v1/x?apikey=REDACTED&Token=REDACTED HTTP/1.1 Authorization: Bearer REDACTED"
