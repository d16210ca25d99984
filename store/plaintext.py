"""Which characters stored text may hold: none that are invisible or change how the text around them
reads. Key labels, a release's names and citations are shown to people as written, and a label
with a zero-width space or a right-to-left override reads as another ("ad\u200bmin", "txt.exe")."""

from __future__ import annotations

import re
import unicodedata

# The Unicode categories Cc (controls), Cf (format: bidi controls, zero-width characters, the byte
# order mark, the soft hyphen, tags), Zl and Zp (line and paragraph separators), as ranges of the
# Unicode version of Python's unicodedata (tests/store/test_plaintext.py checks them against it).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
HIDDEN_RANGES = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x2028, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)
# Invisible characters of other categories: the combining grapheme joiner (Mn) and the Hangul
# fillers (Lo), which show nothing and make one word look like another.
OTHER_INVISIBLE = (0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0)


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _character_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in ranges)


_ALL = HIDDEN_RANGES + tuple((c, c) for c in OTHER_INVISIBLE)
_HIDDEN = re.compile(f"[{_character_class(_ALL)}]")
# The same rule as a JSON Schema pattern, for the OpenAPI document. ECMA-262 patterns without the
# `u` flag see UTF-16 code units, so it lists the characters up to U+FFFF; the server checks them all.
PLAIN_TEXT_PATTERN = f"^[^{_character_class(tuple(r for r in _ALL if r[1] <= 0xFFFF))}]*$"


def hidden_character(text: str) -> str | None:
    """The first character of `text` that shows nothing or turns the text around it, named for a
    person (`U+200B ZERO WIDTH SPACE`); None when there is none."""
    found = _HIDDEN.search(text)
    if found is None:
        return None
    character = found.group()
    return f"U+{ord(character):04X} {unicodedata.name(character, 'control character')}"
