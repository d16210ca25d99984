"""Names and places: the legal-name normalisation (properties and a hand-made list of firms),
the authority-type rule table on every authority of the fixtures, EKAP's province ids."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.ekap.authority_types import classify_authority
from loaders.ekap.names import contractor_id, normalise_name, turkish_lower, turkish_upper
from loaders.ekap.places import (
    ekap_province_ids,
    province_from_id,
    province_from_name,
    province_from_unit_name,
)
from tests.helpers import FIXTURES

LETTERS = "abcçdefgğhıijklmnoöprsştuüvyzABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ0123456789"
names = st.text(alphabet=LETTERS + " .,-&'()/", min_size=1, max_size=60)
words = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=12), min_size=1, max_size=8)


@given(names)
def test_normalise_name_is_idempotent(name):
    once = normalise_name(name)
    assert normalise_name(once) == once


@given(names)
def test_normalise_name_ignores_turkish_case(name):
    assert normalise_name(turkish_upper(name)) == normalise_name(turkish_lower(name)) == normalise_name(name)


@given(words, st.lists(st.sampled_from([" ", "  ", "\u00a0", "\t", " . ", ", "]), min_size=8, max_size=8))
def test_normalise_name_ignores_spacing_and_punctuation(tokens, gaps):
    plain = " ".join(tokens)
    spaced = "".join(t + g for t, g in zip(tokens, gaps, strict=False)).strip(" .,\t\u00a0")
    assert normalise_name(spaced) == normalise_name(plain)


SAME_FIRM = [
    ["İKRAMTUR TURİZM TAŞIMACILIK SANAYİ TİCARET LİMİTED ŞİRKETİ", "İkramtur Turizm Taşımacılık San. Tic. Ltd. Şti.",
     "ikramtur turizm taşımacılık san.ve tic.ltd.şti.", "İKRAMTUR  TURİZM TAŞIMACILIK SANAYİ VE TİCARET LTD ŞTİ"],
    ["BY RÖNESANS ENERJİ PETROL İNŞAAT MÜŞAVİRLİK SANAYİ VE DIŞ TİCARET ANONİM ŞİRKETİ",
     "BY Rönesans Enerji Petrol İnş. Müşavirlik San. ve Dış Tic. A.Ş.", "BY RÖNESANS ENERJİ PETROL İNŞAAT MÜŞAVİRLİK SAN. DIŞ TİC. A. Ş."],
    ["KARADENİZ YAPI LİMİTED ŞİRKETİ", "KARADENİZ YAPI LTD STI", "Karadeniz Yapı Ltd. Şti."],
    ["EMKA İNŞAAT TURİZM SANAYİ VE TİCARET ANONİM ŞİRKETİ, KORKMAZ KANAL SU İNŞAAT TİCARET LİMİTED ŞİRKETİ İş Ortaklığı",
     "EMKA İNŞ. TUR. SAN. VE TİC. A.Ş., KORKMAZ KANAL SU İNŞ. TİC. LTD. ŞTİ. İŞ ORTAKLIĞI"],
]
DIFFERENT_FIRMS = [
    "ŞEN İNŞAAT LİMİTED ŞİRKETİ", "SEN İNŞAAT LİMİTED ŞİRKETİ",  # Ş and S are different letters
    "ILGAZ GIDA ANONİM ŞİRKETİ", "İLGAZ GIDA ANONİM ŞİRKETİ",  # so are I and İ
    "AKSOY YAPI ANONİM ŞİRKETİ", "AKSOY YAPI LİMİTED ŞİRKETİ",  # two legal forms are two firms
    "MEHMET ÇAKIR", "MEHMET ÇAKIR HAFRİYAT NAKLİYE İNŞAAT VE TİCARET LİMİTED ŞİRKETİ",
    "ATAŞ MÜHENDİSLİK LİMİTED ŞİRKETİ", "ÖZDEN YEL, ATAŞ MÜHENDİSLİK LİMİTED ŞİRKETİ İş Ortaklığı",
    "EMKA İNŞAAT ANONİM ŞİRKETİ, KORKMAZ KANAL LİMİTED ŞİRKETİ İş Ortaklığı",
    "KORKMAZ KANAL LİMİTED ŞİRKETİ, EMKA İNŞAAT ANONİM ŞİRKETİ İş Ortaklığı",  # another pilot partner
    "YILDIZ 1 İNŞAAT LİMİTED ŞİRKETİ", "YILDIZ 2 İNŞAAT LİMİTED ŞİRKETİ",
]


@pytest.mark.parametrize("variants", SAME_FIRM)
def test_normalise_name_spelling_variants_become_one_contractor(variants):
    assert len({contractor_id(v) for v in variants}) == 1, [normalise_name(v) for v in variants]


def test_normalise_name_different_firms_stay_apart():
    assert len({contractor_id(n) for n in DIFFERENT_FIRMS}) == len(DIFFERENT_FIRMS)


# Every authority of the shared fixtures (the notices' headings and the bundle's names), as a
# careful reader classes it from what is written.
AUTHORITIES = [
    ("MERSİN İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ TARSUS İLÇE MİLLİ EĞİTİM MÜDÜRLÜĞÜ", "", "ministry"),
    ("MALATYA İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ YEŞİLYURT İLÇE MİLLİ EĞİTİM MÜDÜRLÜĞÜ", "", "ministry"),
    ("İSTANBUL İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ ESENYURT İLÇE MİLLİ EĞİTİM MÜDÜRLÜĞÜ", "", "ministry"),
    ("ORMAN GENEL MÜDÜRLÜĞÜ HATAY ORMAN BÖLGE MÜDÜRLÜĞÜ", "", "ministry"),
    ("8'İNCİ KOLORDU KOMUTANLIĞI 10'UNCU KOMANDO TUGAY KOMUTANLIĞI", "", "ministry"),
    ("AKSARAY AZMİ MİLLİ TÜRK ANONİM ŞİRKETİ MÜDÜRLÜĞÜ", "", "state-enterprise"),
    ("ÜMRANİYE HİZMET İNŞAAT TURİZM SAĞLIK ÇEVRE TEKNOLOJİSİ YATIRIMLARI VE İŞLETMECİLİĞİ SANAYİ VE TİCARET "
     "ANONİM ŞİRKETİ GENEL MÜDÜRLÜĞÜ", "", "state-enterprise"),
    # The same company, when EKAP's record names its top institution: a municipality's company.
    ("ÜMRANİYE HİZMET İNŞAAT TURİZM SAĞLIK ÇEVRE TEKNOLOJİSİ YATIRIMLARI VE İŞLETMECİLİĞİ SANAYİ VE TİCARET "
     "ANONİM ŞİRKETİ GENEL MÜDÜRLÜĞÜ", "BELEDİYELER", "municipality"),
    ("ESENLER BELEDİYESİ MALİ HİZMETLER MÜDÜRLÜĞÜ", "", "municipality"),
    ("Esenler Belediyesi", "", "municipality"),
    ("Kağıthane Belediyesi", "", "municipality"),
    ("BÖLGE MÜDÜRLÜĞÜ-14.BÖLGE İSTANBUL DİĞER ÖZEL BÜTÇELİ KURULUŞLAR DEVLET SU İŞLERİ GENEL MÜDÜRLÜĞÜ", "", "ministry"),
    ("DSİ 14. Bölge Müdürlüğü", "", "ministry"),
    ("YAPI İŞLERİ VE TEKNİK DAİRE BAŞKANLIĞI", "", "university"),
    ("İstanbul Üniversitesi-Cerrahpaşa", "", "university"),
    ("İTÜ Rektörlüğü", "", "university"),
    ("İSTANBUL TEKNİK ÜNİVERSİTESİ", "", "university"),
    ("Ziraat Bankası Genel Müdürlüğü", "", "state-enterprise"),
    ("İstanbul YİKOB", "", "ministry"),
    ("İSKİ Genel Müdürlüğü", "", "municipality"),
    ("İSTANBUL SU VE KANALİZASYON İDARESİ GENEL MÜDÜRLÜĞÜ", "", "municipality"),
    ("Ağrı İl Özel İdaresi", "", "special-provincial-administration"),
    ("DİYARBAKIR İL SAĞLIK MÜDÜRLÜĞÜ", "SAĞLIK BAKANLIĞI", "health"),
    ("ÇAPA TIP FAKÜLTESİ HASTANESİ", "YÜKSEKÖĞRETİM KURUMLARI", "university"),
    ("ENERJİ PİYASASI DÜZENLEME KURUMU", "", "regulatory"),
    # Provincial directorates of the ministries, whatever stands between "İl" and "Müdürlüğü".
    ("GENÇLİK VE SPOR İL MÜDÜRLÜĞÜ", "", "ministry"),
    ("BURSA İL TARIM VE ORMAN MÜDÜRLÜĞÜ", "", "ministry"),
    ("ANKARA ÇEVRE, ŞEHİRCİLİK VE İKLİM DEĞİŞİKLİĞİ İL MÜDÜRLÜĞÜ", "", "ministry"),
    ("ERZURUM İL MÜFTÜLÜĞÜ", "", "ministry"),
    ("KOCAELİ ÖZEL İDARESİ", "", "special-provincial-administration"),
    ("TIP FAKÜLTESİ DEKANLIĞI", "", "university"),
    ("SAĞLIK HİZMETLERİ MESLEK YÜKSEKOKULU MÜDÜRLÜĞÜ", "", "university"),
    ("REKTÖRLÜK", "", "university"),
    ("İZMİR B.B. DESTEK HİZMETLERİ DAİRE BAŞKANLIĞI", "", "municipality"),
    ("ZABITA MÜDÜRLÜĞÜ", "", "municipality"),
    ("DİYANET İŞLERİ BAŞKANLIĞI", "", "ministry"),
    ("ANADOLU LİSESİ MÜDÜRLÜĞÜ", "", "ministry"),
    # The parent decides before the unit's own name.
    ("DESTEK HİZMETLERİ DAİRE BAŞKANLIĞI", "ANKARA ÜNİVERSİTESİ", "university"),
    ("FEN İŞLERİ MÜDÜRLÜĞÜ", "KEÇİÖREN BELEDİYESİ", "municipality"),
]


@pytest.mark.parametrize(("name", "top", "kind"), AUTHORITIES)
def test_classify_authority_as_a_careful_reader_would(name, top, kind):
    assert classify_authority(name, top) == (kind, True)


@pytest.mark.parametrize("name", [
    # ihalent's notice heading names only a directorate; the owner is not written anywhere.
    "PLAN PROJE YATIRIM VE İNŞAAT MÜDÜRLÜĞÜ",
    # Units every kind of authority has: the name does not say whose they are.
    "DESTEK HİZMETLERİ MÜDÜRLÜĞÜ", "FEN İŞLERİ MÜDÜRLÜĞÜ", "İHALE ŞUBE MÜDÜRLÜĞÜ", "DESTEK HİZMETLERİ DAİRE BAŞKANLIĞI",
    "BİLGİ İŞLEM DAİRE BAŞKANLIĞI"])
def test_classify_authority_defaults_to_other_and_says_so(name):
    assert classify_authority(name) == ("other", False)


@pytest.mark.parametrize(("short", "full"), [
    ("GEMLİK ORMAN İŞLETME MÜDÜRLÜĞÜ", "ORMAN İŞLETME MÜDÜRLÜĞÜ-BURSA ORMAN BÖLGE MÜDÜRLÜĞÜ ORMAN GENEL MÜDÜRLÜĞÜ"),
    ("İNEGÖL ORMAN İŞLETME ŞEFLİĞİ", "ORMAN İŞLETME MÜDÜRLÜĞÜ-İNEGÖL ORMAN GENEL MÜDÜRLÜĞÜ"),
    ("Sivas İl Özel İdare", "SİVAS İL ÖZEL İDARESİ"),
    ("SİVAS ÖZEL İDARE", "Ağrı İl Özel İdaresi"),
    ("Kastamonu İl Özel İdare Genel Sekreterliği", "KASTAMONU İL ÖZEL İDARESİ"),
])
def test_units_of_one_parent_in_short_forms_get_the_parents_type(short, full):
    """The reported pairs: a unit's usual short form is typed as its full name is, not `other`."""
    assert classify_authority(short) == classify_authority(full)
    assert classify_authority(short)[0] in ("ministry", "special-provincial-administration")


def test_classify_authority_parent_before_the_name():
    assert classify_authority("ÇAPA TIP FAKÜLTESİ HASTANESİ", "", "SAĞLIK BAKANLIĞI") == ("health", True)
    assert classify_authority("DESTEK HİZMETLERİ MÜDÜRLÜĞÜ", "BELEDİYELER", "ANKARA ÜNİVERSİTESİ") == (
        "municipality", True)


def test_classify_authority_places_most_real_names():
    """The names of tests/fixtures/ekap-markup/authority-names.txt, as a search record gives them
    (no parent): at most 13 % of them are `other` (21 % under the earlier rules)."""
    path = FIXTURES / "ekap-markup" / "authority-names.txt"
    names = [n for n in path.read_text(encoding="utf-8").splitlines() if n.strip() and not n.startswith("#")]
    other = [n for n in names if classify_authority(n)[0] == "other"]
    assert len(names) > 200 and len(other) / len(names) <= 0.13, other


def test_ekap_province_ids_run_in_turkish_alphabetical_order():
    ids = ekap_province_ids()
    assert sorted(ids) == list(range(245, 326)) and sorted(ids.values()) == list(range(1, 82))
    # The ids the fixture README and ihale-mcp's table give.
    assert {i: ids[i] for i in (245, 281, 282, 283, 284, 286, 302, 325)} == {
        245: 1, 281: 31, 282: 76, 283: 32, 284: 34, 286: 46, 302: 33, 325: 67}
    assert province_from_id(34) is None  # a plate code is not an EKAP id


@pytest.mark.parametrize(("text", "plate"), [("İSTANBUL", 34), ("istanbul", 34), ("ISTANBUL", 34), ("Şanlıurfa", 63),
                                             ("İÇEL", 33), ("Atlantis", None)])
def test_province_from_name_any_case(text, plate):
    assert province_from_name(text) == plate


@pytest.mark.parametrize(("name", "plate"), [
    ("MERSİN İL MİLLİ EĞİTİM MÜDÜRLÜĞÜ TARSUS İLÇE MİLLİ EĞİTİM MÜDÜRLÜĞÜ", 33),
    ("ORMAN GENEL MÜDÜRLÜĞÜ HATAY ORMAN BÖLGE MÜDÜRLÜĞÜ", 31), ("KONYA BÜYÜKŞEHİR BELEDİYESİ", 42),
    ("ANKARA VALİLİĞİ", 6),
    # A regional directorate's heading names its seat after the region's number (DSİ, as EKAP prints it).
    ("BÖLGE MÜDÜRLÜĞÜ-14.BÖLGE İSTANBUL DİĞER ÖZEL BÜTÇELİ KURULUŞLAR DEVLET SU İŞLERİ GENEL MÜDÜRLÜĞÜ", 34),
    ("AKSARAY AZMİ MİLLİ TÜRK ANONİM ŞİRKETİ MÜDÜRLÜĞÜ", None), ("ESENLER BELEDİYESİ", None),
    ("8'İNCİ KOLORDU KOMUTANLIĞI 10'UNCU KOMANDO TUGAY KOMUTANLIĞI", None),
    ("ANKARA İL SAĞLIK MÜDÜRLÜĞÜ KONYA İL ÖZEL İDARESİ", None)])  # two provinces named: none is chosen
def test_province_from_unit_name_reads_only_provincial_units(name, plate):
    assert province_from_unit_name(name) == plate


def test_registry_one_authority_through_two_shapes_takes_ekaps_id():
    from loaders.ekap.registry import Registry

    registry = Registry()
    from_bundle = registry.add_authority("Keçiören Belediyesi", 6, "municipality")
    from_detail = registry.add_authority("KEÇİÖREN BELEDİYESİ", 6, "municipality", ekap_id="48301")
    elsewhere = registry.add_authority("Keçiören Belediyesi", 7, "municipality")
    assert from_bundle is from_detail and registry.authority_id(from_bundle) == "48301"
    assert registry.authority_id(elsewhere).startswith("A") and elsewhere is not from_bundle
