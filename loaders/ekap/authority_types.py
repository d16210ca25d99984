"""The authority type of a buying authority, from its top institution (`enUstIdareAdi`, "Bağlı
Olduğu En Üst İdare"), its parent (`ustIdare`) and its own name, in that order, by a written rule
table: the first rule with a phrase found wins. docs/ekap.md prints the same table."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from store.reference.lists import fold

DEFAULT_TYPE = "other"
# (authority type, phrases), in order. Phrases are regular expressions over whole words of the
# folded text (lower case, no Turkish letters, punctuation as spaces), so `belediyesi` matches
# `ESENLER BELEDİYESİ` and `b b` matches `İZMİR B.B.`.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Universities first: a university hospital or a university's building department is the
    # university's. Faculties, deaneries, schools of higher education and rectorates exist only in
    # universities (Law 2547), and so do the rectorate units of its art. 51/b named here.
    ("university", ("universitesi", "universiteleri", "yuksekogretim", "rektorlugu", "rektorluk",
                    "yuksek teknoloji enstitusu", "fakultesi", "fakultesi dekanligi", "dekanligi", "yuksekokulu",
                    "yapi isleri ve teknik daire baskanligi", "saglik kultur ve spor daire baskanligi",
                    "ogrenci isleri daire baskanligi")),
    # A special provincial administration is often written without "İl" (KOCAELİ ÖZEL İDARESİ) or
    # without the final -si (Sivas İl Özel İdare): every short form is the one administration.
    ("special-provincial-administration", ("il ozel idaresi", "il ozel idareleri", "ozel idaresi",
                                           "il ozel idare", "ozel idare")),
    # Municipalities with their water administrations, companies and unions (local government),
    # the metropolitan abbreviation B.B., and the units only a municipality has (Law 5393: the
    # municipal police, parks and gardens) or its named transport administrations.
    ("municipality", ("belediyesi", "belediyeler", "belediye", "buyuksehir", "b b", "su ve kanalizasyon idaresi",
                      "iski", "aski", "izsu", "buski", "maski", "deski", "saski", "koski", "meski", "teski",
                      "ego", "iett", "eshot", "zabita", "park ve bahceler",
                      "mahalli idareler", "mahalli idare birligi")),
    ("health", ("saglik bakanligi", "saglik mudurlugu", "hastanesi", "hastaneleri", "saglik merkezi",
                "dis sagligi merkezi", "kamu hastaneleri", "halk sagligi", "bashekimligi", "ambulans")),
    # Publicly owned companies: state economic enterprises and companies more than half owned by
    # public bodies (Law 4734 art. 2/b and 2/d), state banks among them.
    ("state-enterprise", ("kamu iktisadi tesebbusleri", "kamu iktisadi tesebbusu", "anonim sirketi",
                          "anonim ortakligi", "a s", "bankasi", "demiryollari", "toprak mahsulleri ofisi",
                          "devlet malzeme ofisi", "komur isletmeleri", "taskomuru kurumu", "cay isletmeleri",
                          "seker fabrikalari", "et ve sut kurumu", "eti maden", "elektrik uretim",
                          "elektrik iletim", "boru hatlari ile petrol tasima", "posta ve telgraf",
                          "makine ve kimya endustrisi", "devlet hava meydanlari", "kiyi emniyeti",
                          "turkiye radyo televizyon kurumu", "anadolu ajansi")),
    ("regulatory", ("duzenleyici ve denetleyici", "duzenleme kurumu", "duzenleme ve denetleme", "rekabet kurumu",
                    "sermaye piyasasi kurulu", "ust kurulu", "kamu ihale kurumu", "kisisel verileri koruma",
                    "bilgi teknolojileri ve iletisim kurumu")),
    # Central government: ministries and their provincial, district and regional units (every
    # "İl … Müdürlüğü" and "İlçe … Müdürlüğü"), the public schools of the Ministry of Education,
    # the courts, the armed forces, general directorates and presidencies. A bare "… Daire
    # Başkanlığı" is not one: municipalities and universities have them too, so it says nothing.
    ("ministry", ("bakanligi", "bakanliklar", "valiligi", "kaymakamligi", "komutanligi", "genel mudurlugu",
                  "bolge mudurlugu", "milli egitim", "cumhurbaskanligi", "(?<!daire )baskanligi", "emniyet",
                  "jandarma", "devlet su isleri", "dsi", "yikob", "yatirim izleme ve koordinasyon",
                  "genel butceli", "ozel butceli", "basbakanlik", "turkiye buyuk millet meclisi",
                  "sosyal guvenlik kurumu", "adalet", "adliyesi", "mahkemesi", "bassavciligi", "ceza infaz kurumu",
                  "ceza infaz kurumlari", "tapu ve kadastro", "vergi dairesi", "defterdarligi",
                  r"il(?:ce)?(?: \S+)* (?:mudurlugu|muftulugu)", "muftulugu",
                  "lisesi", "ortaokulu", "ilkokulu", "halk egitimi merkezi", "rehberlik ve arastirma merkezi",
                  "ogretmenevi", "bilim ve sanat merkezi", "sosyal hizmet merkezi",
                  "tubitak", "turk standartlari enstitusu", "yuksek kurumu",
                  # Units of one parent named without it: a forest enterprise directorate or chief
                  # office is the General Directorate of Forestry's wherever its name stands
                  # (GEMLİK ORMAN İŞLETME MÜDÜRLÜĞÜ as ORMAN İŞLETME MÜDÜRLÜĞÜ-… ORMAN GENEL MÜDÜRLÜĞÜ).
                  "orman isletme mudurlugu", "orman isletme sefligi")),
)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(r"(?:^|\s)(?:" + "|".join(phrases) + r")(?:\s|$)")) for kind, phrases in RULES)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", fold(text)).split())


def _rule_for(text: str) -> str | None:
    words = _words(text)
    if words:
        for kind, pattern in _patterns():
            if pattern.search(words):
                return kind
    return None


@lru_cache(maxsize=65_536)  # an authority recurs in many tenders
def classify_authority(name: str, top_institution: str = "", parent: str = "") -> tuple[str, bool]:
    """(authority type, whether a rule fired): the type of the top institution when the record gives
    one a rule places, else of the parent authority, else of the unit's own name; `other` when no
    rule places any of them. The parent decides before the name because a unit's name often does
    not say what it belongs to ("Destek Hizmetleri Müdürlüğü")."""
    for text in (top_institution, parent, name):
        if kind := _rule_for(text):
            return kind, True
    return DEFAULT_TYPE, False
