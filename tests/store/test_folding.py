"""The one folding of names (store/reference/folding.py): properties a Turkish reader relies on."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from store.reference.folding import fold, name_words

# Each Turkish letter with the letters a reader takes for the same one when case and accents go.
SAME = {"i": "iİIı", "s": "sSşŞ", "g": "gGğĞ", "c": "cCçÇ", "o": "oOöÖ", "u": "uUüÜûÛ", "a": "aAâÂ"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
TURKISH_TEXT = st.text(alphabet=LETTERS + LETTERS.upper() + "ıİşŞğĞçÇöÖüÜâÂîÎûÛ0123456789 .,()-&'/", max_size=40)


def spellings(draw, word: str) -> str:  # noqa: ANN001
    """The word with each letter written as any spelling of it (case, Turkish letter or not)."""
    return "".join(draw(st.sampled_from(SAME.get(c, c + c.upper()))) for c in word)


@given(st.data(), st.text(alphabet=LETTERS + "0123456789 ", max_size=30))
def test_fold_every_spelling_of_a_word_is_the_same(data, word):
    written = spellings(data.draw, word)
    assert fold(written) == fold(word) == " ".join(word.split())


@given(TURKISH_TEXT)
def test_fold_is_idempotent_and_ascii_for_turkish_text(text):
    folded = fold(text)
    assert fold(folded) == folded
    assert folded.isascii() and folded == folded.lower()


@given(TURKISH_TEXT)
def test_fold_ignores_how_the_text_is_composed(text):
    assert fold(unicodedata.normalize("NFD", text)) == fold(text)


@given(TURKISH_TEXT)
def test_name_words_are_the_folded_runs_of_letters_and_digits(text):
    words = name_words(text)
    assert all(w and w.isalnum() and w == fold(w) for w in words)
    assert "".join(words) == "".join(c for c in fold(text) if c.isalnum())
    assert name_words(" ".join(words)) == words


def test_fold_examples():
    assert {fold(x) for x in ("istanbul", "İSTANBUL", "Istanbul", "ıstanbul", "I\u0307STANBUL")} == {"istanbul"}
    assert name_words("ŞAHİN İnşaat A.Ş. (Çankaya)") == ["sahin", "insaat", "a", "s", "cankaya"]
