"""The sector of a goods tender (mal alımı) that publishes no OKAS code, from the words of its name.

The 43 sectors follow the CPV divisions, and the CPV has no division for goods in general (the
catch-alls are for works, 45, and services, 98), so a goods tender cannot be placed by its kind of
work alone. Its name often says what is bought ("Akaryakıt mal alımı"); these words name one CPV
division each, and only they are read. A name whose words point at two sectors, or at none, is
not placed by its words: it goes to the goods fallback sector (CPV 39), or stays out of the
release when the import asks so (`--goods-unplaced keep-out`). The table and the choice are
docs/ekap.md's "Goods without OKAS codes"."""

from __future__ import annotations

import re

from loaders.ekap.mapping import sector_of_division
from store.reference.folding import name_words

# Whole words or phrases (folded: no case, no Turkish letters) -> the CPV division they belong to.
# Only words with one reading in a goods tender's name: "elektrik" (energy, 09, or apparatus, 31),
# "araç" (vehicle or tool), "malzeme", "sarf" (office or medical consumables), "yedek parça"
# (vehicles, 34, or machinery, 42) and "laboratuvar" alone say too little and are not here. The
# division is the CPV's, not the everyday one: fresh vegetables, eggs and fuel wood are 03, toilet
# paper 33, tractors 16, road signs and urban furniture 34.
GOODS_WORDS: dict[str, str] = {
    **dict.fromkeys(("tohum", "tohumu", "tohumlari", "fidan", "fidani", "fidanlari", "fide", "fidesi", "cicek",
                     "cicegi", "cicekleri", "sebze", "sebzeleri", "meyve", "yas sebze", "yumurta", "odun"), "03"),
    **dict.fromkeys(("akaryakit", "akaryakiti", "motorin", "benzin", "mazot", "dizel yakit", "komur", "komuru",
                     "fuel oil", "kalorifer yakiti", "dogalgaz", "dogal gaz", "lpg", "elektrik enerjisi",
                     "madeni yag", "madeni yaglar", "motor yagi", "motor yaglari"), "09"),
    **dict.fromkeys(("kum", "cakil", "micir", "agrega", "kirmatas"), "14"),
    **dict.fromkeys(("gida", "gidasi", "gidalari", "yiyecek", "ekmek", "sut", "erzak", "yem", "yemi", "kumanya",
                     "kumanyasi", "iase", "et", "dana eti", "kuzu eti", "tavuk", "pilic", "peynir", "yogurt",
                     "bakliyat", "seker", "cay", "kahve", "meyve suyu"), "15"),
    **dict.fromkeys(("traktor", "tarim makinesi", "tarim makineleri"), "16"),
    **dict.fromkeys(("giyim", "kiyafet", "kiyafeti", "kiyafetleri", "elbise", "elbisesi", "giysi", "mont", "kaban",
                     "corap", "ayakkabi", "ayakkabisi", "ayakkabilari", "uniforma", "uniformasi"), "18"),
    **dict.fromkeys(("kitap", "kitabi", "kitaplari", "basili evrak"), "22"),
    **dict.fromkeys(("gubre", "gubresi", "zirai ilac", "tarim ilaci", "kimyasal", "kimyasallar", "oksijen"), "24"),
    **dict.fromkeys(("kirtasiye", "bilgisayar", "toner", "kartus", "yazici", "yazicisi", "fotokopi kagidi",
                     "a4 kagidi", "fotokopi makinesi", "buro malzemesi", "buro malzemeleri"), "30"),
    **dict.fromkeys(("aydinlatma", "elektrik malzemesi", "elektrik malzemeleri", "kablo", "kablosu", "kablolari",
                     "armatur", "lamba", "ampul", "jenerator", "transformator", "trafo", "aku", "akusu", "pil"), "31"),
    **dict.fromkeys(("telsiz", "telefon", "televizyon"), "32"),
    **dict.fromkeys(("ilac", "ilaci", "ilaclari", "ilaclar", "tibbi sarf", "tibbi cihaz", "tibbi malzeme", "medikal",
                     "serum", "asi", "enjektor", "ortopedik", "diyaliz", "hasta bezi", "bebek bezi", "hasta yatagi",
                     "hastane yatagi", "tuvalet kagidi", "kagit havlu"), "33"),
    **dict.fromkeys(("otomobil", "kamyon", "kamyonet", "otobus", "minibus", "midibus", "motosiklet", "ambulans",
                     "arac lastigi", "oto lastik", "kent mobilyasi", "kent mobilyalari", "trafik levhasi",
                     "trafik levhalari", "cop konteyneri", "cop konteynerleri"), "34"),
    **dict.fromkeys(("yangin sondurme", "yangin tupu", "yangin tupleri", "bayrak", "muhimmat", "silah"), "35"),
    **dict.fromkeys(("spor malzemesi", "spor malzemeleri", "spor ekipmani", "oyun grubu", "oyun gruplari", "oyuncak",
                     "muzik aleti", "muzik aletleri"), "37"),
    **dict.fromkeys(("sayac", "sayaci", "sayaclari", "mikroskop", "laboratuvar cihazi", "laboratuvar cihazlari",
                     "olcum cihazi"), "38"),
    **dict.fromkeys(("mobilya", "mobilyasi", "mobilyalari", "temizlik malzemesi", "temizlik malzemeleri", "deterjan",
                     "mefrusat", "perde", "battaniye", "nevresim", "carsaf", "yatak", "yorgan", "cadir",
                     "beyaz esya", "buzdolabi", "camasir makinesi", "bulasik makinesi", "mutfak malzemesi"), "39"),
    **dict.fromkeys(("vana", "vanalar", "pompa", "pompasi", "forklift"), "42"),
    **dict.fromkeys(("is makinesi", "is makineleri", "ekskavator", "greyder"), "43"),
    **dict.fromkeys(("asfalt", "cimento", "hazir beton", "parke tasi", "kilit parke", "bordur", "boru", "borusu",
                     "borulari", "boya", "boyasi", "tugla", "kiremit"), "44"),
    **dict.fromkeys(("yazilim", "yazilimi"), "48"),
}
# A goods tender its name does not place in one sector is released in CPV 39's sector (18): the CPV
# has no goods catch-all, and 39 is the division that spans the most unrelated everyday goods
# (furniture, furnishings, textile articles, domestic appliances, cleaning products) and holds the
# one group named plainly "Miscellaneous equipment" (39300000). docs/decisions.md gives the reasons.
GOODS_FALLBACK_DIVISION = "39"
# What an import does with such a tender (`--goods-unplaced`): the fallback sector, or keep it out.
GOODS_UNPLACED = ("fallback", "keep-out")
_WORDS = re.compile(r"\b(" + "|".join(sorted(map(re.escape, GOODS_WORDS), key=len, reverse=True)) + r")\b")


def goods_sector(name: str) -> tuple[int | None, list[str]]:
    """(sector, the words that placed it) for a goods tender's name; (None, words) when the words
    found point at no sector or at more than one."""
    found = list(dict.fromkeys(_WORDS.findall(" ".join(name_words(name)))))
    divisions = {GOODS_WORDS[word] for word in found}
    if len(divisions) != 1:
        return None, found
    return sector_of_division(divisions.pop()), found


def goods_fallback_sector() -> int:
    """The sector of a goods tender that its name does not place in one sector."""
    sector = sector_of_division(GOODS_FALLBACK_DIVISION)
    assert sector is not None, "CPV 39 is a division of the 43 sectors"
    return sector
