"""The one folding of names for matching, as a Turkish reader expects: case and the Turkish letters
(ı/i/İ/I, ş, ğ, ç, ö, ü, and the circumflexed â, î, û) fold to lower-case ASCII, so that `istanbul`,
`İSTANBUL`, `Istanbul` and `ıstanbul` are one word. The loader folds every party name with it at load
time and the store folds a query with it at query time (docs/awards-and-flags.md, "Party search")."""

from __future__ import annotations

import re
import unicodedata

_TURKISH_FOLD = str.maketrans({"İ": "i", "I": "i", "ı": "i", "ş": "s", "Ş": "s", "ğ": "g", "Ğ": "g",
                               "ü": "u", "Ü": "u", "ö": "o", "Ö": "o", "ç": "c", "Ç": "c",
                               "â": "a", "Â": "a", "î": "i", "Î": "i", "û": "u", "Û": "u"})
_SPACE = re.compile(r"\s+")
# A word character that is not `_`: exactly the characters for which str.isalnum() is true.
_WORD = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Case- and Turkish-letter-insensitive form: `İstanbul`, `ISTANBUL`, `istanbul` all give `istanbul`.

    NFC first, so that a capital I followed by a combining dot above (İ written decomposed) folds as İ."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text).translate(_TURKISH_FOLD).lower().strip())


def name_words(text: str) -> list[str]:
    """The words of a folded name, in order: maximal runs of letters and digits (`str.isalnum`), so
    that punctuation separates words (`A.Ş.` is `a`, `s`; `(Ankara)` is `ankara`)."""
    return _WORD.findall(fold(text))
