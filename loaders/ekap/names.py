"""Legal names made comparable: Turkish case folding, spacing, punctuation and the usual
abbreviations of legal forms, so that spelling variants of one firm become one contractor."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

# Turkish letters fold by their own rules: I/ı and İ/i are two different letters.
_LOWER = str.maketrans({"I": "ı", "İ": "i", "Â": "a", "â": "a", "Î": "i", "î": "i", "Û": "u", "û": "u"})
_UPPER = str.maketrans({"i": "İ", "ı": "I"})
_NOT_WORD = re.compile(r"[^\w]+")
# One token -> its written-out form; applied wherever the token stands.
_WORDS = {
    "ltd": "limited", "şti": "şirketi", "şt": "şirketi", "şirket": "şirketi", "şrk": "şirketi",
    "aş": "anonim şirketi", "koll": "kollektif", "kom": "komandit", "koop": "kooperatifi",
    "san": "sanayi", "sanayii": "sanayi", "tic": "ticaret", "inş": "inşaat", "taah": "taahhüt",
    "müh": "mühendislik", "paz": "pazarlama", "ith": "ithalat", "ihr": "ihracat", "tur": "turizm",
    "ort": "ortaklığı",
}
# Token pairs that spell one legal form ("A. Ş." splits into two tokens once the dots go).
_PAIRS = {("a", "ş"): "anonim şirketi"}
# Typed without Turkish letters, but only where a legal form stands: at the end of the name.
# Upper-case ASCII folds to dotless ı by Turkish rules, so "LTD STI" arrives as "ltd stı".
_ASCII_ENDINGS = {("ltd", "sti"): "limited şirketi", ("ltd", "stı"): "limited şirketi",
                  ("a", "s"): "anonim şirketi", ("as",): "anonim şirketi", ("sti",): "şirketi", ("stı",): "şirketi",
                  ("sirketi",): "şirketi", ("sırketı",): "şirketi"}
_DROPPED = frozenset({"ve"})  # "SAN. VE TİC." and "SAN. TİC." are the same firm


def turkish_lower(text: str) -> str:
    return unicodedata.normalize("NFC", text).translate(_LOWER).lower().replace("i\u0307", "i")


def turkish_upper(text: str) -> str:
    return unicodedata.normalize("NFC", text).translate(_UPPER).upper()


def _ending(tokens: list[str]) -> list[str]:
    for size in (2, 1):
        tail = tuple(tokens[-size:])
        if len(tokens) >= size and tail in _ASCII_ENDINGS:
            return tokens[:-size] + _ASCII_ENDINGS[tail].split()
    return tokens


@lru_cache(maxsize=262_144)  # a firm or authority recurs in many notices
def normalise_name(name: str) -> str:
    """The comparable form of a legal name; idempotent, and blind to case, spacing and punctuation."""
    text = turkish_lower(unicodedata.normalize("NFKC", name)).replace("&", " ve ")
    tokens = [t for t in _NOT_WORD.sub(" ", text).replace("_", " ").split()]
    tokens = _ending(tokens)
    words: list[str] = []
    i = 0
    while i < len(tokens):
        pair = tuple(tokens[i:i + 2])
        if pair in _PAIRS:
            words += _PAIRS[pair].split()
            i += 2
            continue
        words += _WORDS.get(tokens[i], tokens[i]).split()
        i += 1
    return " ".join(w for w in words if w not in _DROPPED)


def stable_id(prefix: str, *parts: object) -> str:
    """A short id that is the same for the same parts in every run and every week."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()
    return f"{prefix}{digest[:16]}"


def contractor_id(name: str) -> str:
    return stable_id("C", normalise_name(name))


def is_joint_venture(name: str) -> bool:
    """EKAP names a joint venture `A, B İş Ortaklığı`; it is one contractor, named as published."""
    return normalise_name(name).endswith("iş ortaklığı")
