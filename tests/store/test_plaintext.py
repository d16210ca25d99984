"""The characters stored text may not hold, checked against the Unicode database itself."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from store.plaintext import HIDDEN_CATEGORIES, HIDDEN_RANGES, OTHER_INVISIBLE, hidden_character


def test_the_ranges_are_exactly_the_hidden_categories_of_this_python():
    """A newer Unicode adds format characters; the ranges must follow, or they would pass unseen."""
    listed = {c for a, b in HIDDEN_RANGES for c in range(a, b + 1)}
    assert listed == {c for c in range(0x110000) if unicodedata.category(chr(c)) in HIDDEN_CATEGORIES}
    assert all(unicodedata.category(chr(c)) not in HIDDEN_CATEGORIES for c in OTHER_INVISIBLE)


VISIBLE = st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Cs"),
                        blacklist_characters=[chr(c) for c in OTHER_INVISIBLE])


@given(st.text(alphabet=VISIBLE, max_size=30),
       st.sampled_from([*[chr(a) for a, _ in HIDDEN_RANGES], *[chr(b) for _, b in HIDDEN_RANGES],
                        *map(chr, OTHER_INVISIBLE)]), st.integers(0, 30))
def test_a_hidden_character_anywhere_is_named(visible, hidden, at):
    assert hidden_character(visible) is None
    found = hidden_character(visible[:at] + hidden + visible[at:])
    assert found is not None and found.startswith(f"U+{ord(hidden):04X} ")


def test_turkish_and_other_scripts_are_plain_text():
    assert hidden_character("Bakanlık — ğüşıöç İĞÜŞÖÇ · 日本 · مرحبا · 👩🏽") is None
