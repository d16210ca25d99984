"""The authority type of a buying authority, from its top institution (`enUstIdareAdi`, "Bağlı
Olduğu En Üst İdare") and its name, by a written rule table: the first rule with a phrase found in
either wins. docs/ekap.md prints the same table."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from store.reference.lists import fold

DEFAULT_TYPE = "other"
# (authority type, phrases), in order. Phrases are matched on whole words of the folded text
# (lower case, no Turkish letters), so `belediyesi` matches `ESENLER BELEDİYESİ`.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Universities first: a university hospital or a university's building department is the university's.
    ("university", ("universitesi", "universiteleri", "yuksekogretim", "rektorlugu", "yuksek teknoloji enstitusu",
                    # the rectorate units Law 2547 art. 51/b gives every university
                    "yapi isleri ve teknik daire baskanligi", "saglik kultur ve spor daire baskanligi")),
    ("special-provincial-administration", ("il ozel idaresi", "il ozel idareleri")),
    # Municipalities with their water administrations, companies and unions (local government).
    ("municipality", ("belediyesi", "belediyeler", "belediye", "buyuksehir", "su ve kanalizasyon idaresi",
                      "iski", "aski", "izsu", "buski", "maski", "deski", "saski", "koski", "meski", "teski",
                      "mahalli idareler", "mahalli idare birligi")),
    ("health", ("saglik bakanligi", "saglik mudurlugu", "hastanesi", "hastaneleri", "saglik merkezi",
                "dis sagligi merkezi", "kamu hastaneleri", "halk sagligi")),
    # Publicly owned companies: state economic enterprises and companies more than half owned by
    # public bodies (Law 4734 art. 2/b and 2/d), state banks among them.
    ("state-enterprise", ("kamu iktisadi tesebbusleri", "kamu iktisadi tesebbusu", "anonim sirketi",
                          "anonim ortakligi", "a s", "bankasi", "demiryollari", "toprak mahsulleri ofisi",
                          "devlet malzeme ofisi", "komur isletmeleri", "taskomuru kurumu", "cay isletmeleri",
                          "seker fabrikalari", "et ve sut kurumu", "eti maden", "elektrik uretim",
                          "elektrik iletim", "boru hatlari ile petrol tasima", "posta ve telgraf",
                          "makine ve kimya endustrisi", "devlet hava meydanlari", "kiyi emniyeti")),
    ("regulatory", ("duzenleyici ve denetleyici", "duzenleme kurumu", "duzenleme ve denetleme", "rekabet kurumu",
                    "sermaye piyasasi kurulu", "ust kurulu", "kamu ihale kurumu", "kisisel verileri koruma")),
    # Central government: ministries and their provincial and regional units, the armed forces,
    # general directorates and presidencies.
    ("ministry", ("bakanligi", "bakanliklar", "valiligi", "kaymakamligi", "komutanligi", "genel mudurlugu",
                  "bolge mudurlugu", "milli egitim", "cumhurbaskanligi", "baskanligi", "emniyet", "jandarma",
                  "devlet su isleri", "dsi", "yikob", "yatirim izleme ve koordinasyon",
                  "genel butceli", "ozel butceli", "basbakanlik", "turkiye buyuk millet meclisi",
                  "sosyal guvenlik kurumu", "adalet", "bassavciligi", "ceza infaz kurumu", "tapu ve kadastro",
                  "vergi dairesi", "defterdarligi")),
)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(r"(?:^|\s)(?:" + "|".join(re.escape(p) for p in phrases) + r")(?:\s|$)"))
                 for kind, phrases in RULES)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", fold(text)).split())


@lru_cache(maxsize=65_536)  # an authority recurs in many tenders
def classify_authority(name: str, top_institution: str = "") -> tuple[str, bool]:
    """(authority type, whether a rule fired); the default type `other` when none does."""
    texts = [_words(top_institution), _words(name)]
    for kind, pattern in _patterns():
        if any(pattern.search(text) for text in texts if text):
            return kind, True
    return DEFAULT_TYPE, False
