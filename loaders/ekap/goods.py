"""The sector of a goods tender (mal alımı) that publishes no OKAS code, from the words of its name.

The 43 sectors follow the CPV divisions, and the CPV has no division for goods in general (the
catch-alls are for works, 45, and services, 98), so a goods tender cannot be placed by its kind of
work alone. Its name often says what is bought ("Akaryakıt mal alımı"); these words name one CPV
division each, and only they are read. A name whose words point at two sectors, or at none, gives
no sector: the tender stays out of the release rather than counted where it may not belong. The
table is docs/ekap.md's "Goods without OKAS codes"."""

from __future__ import annotations

import re

from loaders.ekap.mapping import sector_of_division
from store.reference.folding import name_words

# Whole words or phrases (folded: no case, no Turkish letters) -> the CPV division they belong to.
# Only words with one reading in a goods tender's name: "elektrik" (energy, 09, or apparatus, 31),
# "araç" (vehicle or tool) and "malzeme" alone say too little and are not here.
GOODS_WORDS: dict[str, str] = {
    **dict.fromkeys(("akaryakit", "akaryakiti", "motorin", "benzin", "komur", "komuru", "fuel oil",
                     "kalorifer yakiti", "dogalgaz", "dogal gaz"), "09"),
    **dict.fromkeys(("gida", "gidasi", "gidalari", "yiyecek", "ekmek", "sut", "erzak", "yem", "yemi"), "15"),
    **dict.fromkeys(("ilac", "ilaci", "ilaclari", "ilaclar", "tibbi sarf", "tibbi cihaz", "tibbi malzeme",
                     "serum", "asi"), "33"),
    **dict.fromkeys(("kirtasiye", "bilgisayar", "toner", "fotokopi kagidi"), "30"),
    **dict.fromkeys(("giyim", "kiyafet", "elbise", "elbisesi", "ayakkabi", "uniforma", "uniformasi"), "18"),
    **dict.fromkeys(("mobilya", "temizlik malzemesi", "temizlik malzemeleri", "mefrusat"), "39"),
    **dict.fromkeys(("asfalt", "cimento", "hazir beton", "parke tasi", "bordur"), "44"),
    **dict.fromkeys(("tohum", "fidan", "fide"), "03"),
    **dict.fromkeys(("aydinlatma", "elektrik malzemesi", "elektrik malzemeleri", "kablo"), "31"),
}
_WORDS = re.compile(r"\b(" + "|".join(sorted(map(re.escape, GOODS_WORDS), key=len, reverse=True)) + r")\b")


def goods_sector(name: str) -> tuple[int | None, list[str]]:
    """(sector, the words that placed it) for a goods tender's name; (None, words) when the words
    found point at no sector or at more than one."""
    found = list(dict.fromkeys(_WORDS.findall(" ".join(name_words(name)))))
    divisions = {GOODS_WORDS[word] for word in found}
    if len(divisions) != 1:
        return None, found
    return sector_of_division(divisions.pop()), found
