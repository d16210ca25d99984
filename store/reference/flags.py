"""The red flags an awarded lot can carry: ids, names, definitions, anchors and thresholds. The
loader computes each flag at load time from these values (loaders/procurement/awards.py), the store
filters awards by them, and the free reference endpoint serves `red_flags()`. Each definition is
worked out to the letter in docs/awards-and-flags.md."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# Procedures in which anyone may bid: a single bid there means no competition appeared (Cardinal R018).
COMPETITIVE_PROCEDURES = ("open", "restricted")
# Law 4734 art. 21, second paragraph (as amended by Law 5812, 2008): in cases (b), (c) and (f) a
# notice is not compulsory; at least three tenderers are invited instead.
NO_NOTICE_PROCEDURES = ("negotiated-21b", "negotiated-21c", "negotiated-21f")
JUST_BELOW_RATIO = Decimal("0.99")
WINNER_SHARE_THRESHOLD = Decimal("0.5")


@dataclass(frozen=True)
class RedFlag:
    id: str
    bit: int  # its bit in an award's stored flag mask
    name_tr: str
    name_en: str
    definition_tr: str
    definition_en: str
    anchor: str
    threshold: Decimal | None = None


FLAGS: tuple[RedFlag, ...] = (
    RedFlag("single-bid", 1, "Tek geçerli teklif", "Single valid bid",
            "Açık veya belli istekliler arasında ihale usulüyle yapılan ihalenin, tek geçerli teklif "
            "alınarak sonuçlanan kısmı (geçerli teklif sayısı 1; sayısı bilinmeyen kısımlar işaretlenmez).",
            "An awarded lot of an open or restricted procedure that received exactly one valid bid (bids = 1; "
            "lots whose bid count is unknown are not flagged).",
            "Cardinal R018 (single bid received), in the competitive procedures open and restricted"),
    RedFlag("at-or-above-estimate", 2, "Yaklaşık maliyete eşit veya üstünde", "At or above the estimate",
            "Tek kısımlı ihalede sözleşme bedeli, sıfırdan büyük yaklaşık maliyete eşit veya ondan yüksek.",
            "A single-lot tender's contract value is at least its estimated cost, where the estimate is above 0.",
            "Contract price at or above the estimated cost; ihalent's low_discount; Law 4734 art. 9 "
            "(yaklaşık maliyet)", Decimal("1")),
    RedFlag("just-below-estimate", 4, "Yaklaşık maliyetin hemen altında", "Just below the estimate",
            "Tek kısımlı ihalede sözleşme bedeli, sıfırdan büyük yaklaşık maliyetin %99'u ile %100'ü arasında "
            "(yaklaşık maliyetin 0,99 katına eşit veya büyük, yaklaşık maliyetten küçük).",
            "A single-lot tender's contract value lies within 1 % below its estimated cost (at least 0.99 times "
            "the estimate and below it), where the estimate is above 0.",
            "Award within 1 % of the estimated cost (a known estimate guides the winning price)",
            JUST_BELOW_RATIO),
    RedFlag("negotiated-without-notice", 8, "İlansız olabilen pazarlık usulü", "Negotiated without a notice",
            "4734 sayılı Kanunun 21 inci maddesinin (b), (c) veya (f) bendine göre pazarlık usulüyle yapılan "
            "ihale: bu hallerde ilan yapılması zorunlu değildir, en az üç istekli davet edilir.",
            "A negotiated procedure under Law 4734 art. 21 (b), (c) or (f), the cases in which the law does not "
            "require a notice (at least three tenderers are invited instead). The release does not say whether "
            "a notice was published: the flag marks the procedures that allow none.",
            "Law 4734 art. 21, second paragraph (Law 5812, 2008); ProACT 'no call for tenders published'"),
    RedFlag("winner-share", 16, "Kazananın idaredeki payı", "Winner share",
            "Yüklenici, idarenin o yıl sonuçlanan kısımlarının toplam sözleşme bedelinin yarısından fazlasını "
            "kazanmış: o idare, yüklenici ve yıldaki her kısım işaretlenir. En az sayı şartı yoktur.",
            "The contractor won more than half of the authority's total contract value of that year's awarded "
            "lots; every awarded lot of that authority, contractor and year carries the flag. No minimum number "
            "of lots or contractors applies.",
            "ProACT winner share (the winner's share of the buyer's annual spending)", WINNER_SHARE_THRESHOLD),
)
FLAG_BITS: dict[str, int] = {f.id: f.bit for f in FLAGS}
ALL_FLAGS_MASK = sum(FLAG_BITS.values())


def flag_mask(ids: list[str] | tuple[str, ...]) -> int:
    """The bit mask of flag ids; ValueError naming an unknown id."""
    unknown = [i for i in ids if i not in FLAG_BITS]
    if unknown:
        raise ValueError(f"no red flag {unknown[0]!r}; known: {', '.join(FLAG_BITS)}")
    return sum({FLAG_BITS[i] for i in ids})


def flag_ids(mask: int) -> list[str]:
    """The ids of the flags in a mask, sorted by id."""
    return sorted(f.id for f in FLAGS if mask & f.bit)


def red_flags() -> list[dict[str, Any]]:
    """The reference list of red flags as the free endpoint serves it, in this module's order."""
    return [{"id": f.id, "nameTr": f.name_tr, "nameEn": f.name_en, "definitionTr": f.definition_tr,
             "definitionEn": f.definition_en, "anchor": f.anchor,
             "threshold": None if f.threshold is None else float(f.threshold)} for f in FLAGS]
