"""A tender announcement (İhale İlanı, EKAP's type 2) or a correction notice repeating it, read for
what a result notice would otherwise give: the procedure from "4734 sayılı Kamu İhale Kanununun
19 uncu maddesine göre açık ihale usulü", the kind of work from "… mal alımı / yapım işi / hizmet
alımı" (goods also from "… alımı 4734 sayılı" or the heading "İhale konusu malın"), the tender date from "2.1. Tarih ve Saati : 14.04.2026 - 10:30" and the authority from
"1.1. Adı" with its address "1.2. Adresi". The rules are in docs/ekap.md."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

from loaders.ekap.values import clean_text
from store.reference.lists import fold

# "1.1. Adı : …": a numbered label, a colon, the value up to the end of the line or cell.
_ROW = re.compile(r"(\d+)\.(\d+)\.?[ \t]*([^:\n]{1,60}?)[ \t]*:[ \t]*([^\n]+)")
# The article of Law 4734 the procedure is announced under, and for article 21 its clause.
_ARTICLE = re.compile(r"4734 sayili kamu ihale kanununun (\d+)\s*\S*\s*maddesi\S*\s*(?:\(?([a-f])\)?\s*bendine)?")
PROCEDURE_TEXT = {"19": "Açık", "20": "Belli İstekliler Arasında"}
KINDS = (("yapim isi", "Yapım işi"), ("hizmet alimi", "Hizmet alımı"), ("mal alimi", "Mal alımı"))
# A goods announcement may name no "mal alımı": its sentence can read "<what is bought> alımı 4734
# sayılı Kamu İhale Kanununun …" (services always say "hizmet alımı", which KINDS finds first), and
# its section 2 is headed "İhale konusu malın" (services "… hizmetin", works "… yapım işinin").
GOODS_SENTENCE = "alimi 4734 sayili"
SECTION_KINDS = (("ihale konusu malin", "Mal alımı"), ("ihale konusu hizmetin", "Hizmet alımı"),
                 ("ihale konusu yapim isinin", "Yapım işi"))
_BLOCK_END = re.compile(r"</(?:tr|p|div|h\d)>|<br\s*/?>", re.IGNORECASE)
_IKN = re.compile(r"ihale kayit numarasi\s*:\s*(\d{4}/\d+)")
# A direct-procurement number (Doğrudan Temin Numarası): the year's last two digits, DT, a serial.
DIRECT_NUMBER = re.compile(r"\b(\d{2}DT\d{4,})\b")
_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}")


def announcement_text(text: str, *, html: bool) -> str:
    """Plain text of the announcement, one line per block or table row, Markdown marks removed."""
    if html:
        # A line ends where a row, paragraph or break ends; the cells of a row stay on one line.
        body = LexborHTMLParser(_BLOCK_END.sub(lambda m: m.group(0) + "\n", text)).body
        text = body.text(deep=True, separator=" ") if body is not None else ""
    # A Markdown row `| 1.1. Adı | : | … |` reads as the line `1.1. Adı : …`.
    return text.replace("**", "").replace("|", " ").replace("\r\n", "\n")


def read_announcement(text: str, *, html: bool) -> dict[str, str]:
    """The fields an announcement gives: ikn, authority, address, tender_date, procedure, tender_type
    and subject (the words naming what is bought); a field it does not print is absent."""
    plain = announcement_text(text, html=html)
    fields: dict[str, str] = {}
    for section, _, label, value in _ROW.findall(plain):
        key = {("1", "adi"): "authority", ("1", "adresi"): "address",
               ("2", "tarih ve saati"): "tender_date"}.get((section, fold(clean_text(label))))
        if key and key not in fields and (value := clean_text(value)):
            date = _DATE.search(value) if key == "tender_date" else None
            fields[key] = date.group(0) if date else value
    folded = fold(" ".join(plain.split()))
    if match := _IKN.search(folded):
        fields["ikn"] = match.group(1)
    if match := _ARTICLE.search(folded):
        article, clause = match.groups()
        text_of = PROCEDURE_TEXT.get(article) or (f"Pazarlık (MD 21 {clause.upper()})" if article == "21" and clause
                                                 else None)
        if text_of:
            fields["procedure"] = text_of
    found = [(folded.find(words), name) for words, name in KINDS if words in folded]
    if found:
        fields["tender_type"] = min(found)[1]  # the first kind of work the text names
        if subject := _subject(plain, next(w for w, n in KINDS if n == fields["tender_type"])):
            fields["subject"] = subject
    elif kind := _kind_otherwise(folded):
        fields["tender_type"] = kind
        if kind == "Mal alımı" and (subject := _subject(plain, GOODS_SENTENCE)):
            fields["subject"] = subject
    return fields


def _kind_otherwise(folded: str) -> str | None:
    """The kind of work of an announcement that names none of KINDS: its section 2 heading, else
    "… alımı 4734 sayılı" as goods, unless the word before it names a service ("Güvenlik Hizmeti
    alımı")."""
    if headed := [(folded.find(words), name) for words, name in SECTION_KINDS if words in folded]:
        return min(headed)[1]
    if (at := folded.find(GOODS_SENTENCE)) >= 0:
        before = folded[:at].split()
        return "Hizmet alımı" if before and before[-1].startswith("hizmet") else "Mal alımı"
    return None


def _subject(plain: str, kind_words: str) -> str:
    """What the announcement says is bought: the words before its kind of work on that line
    ("2026 Yılı Akaryakıt mal alımı 4734 sayılı …" gives "2026 yili akaryakit"), folded."""
    for line in plain.splitlines():
        folded = fold(" ".join(line.split()))
        if kind_words in folded:
            return folded[:folded.find(kind_words)].strip()
    return ""


def direct_number(text: str) -> str | None:
    """The direct-procurement number an announcement prints (26DT507662), or None. Such an
    announcement names what is bought and where quotes go, never a price or a supplier."""
    match = DIRECT_NUMBER.search(text)
    return match.group(1) if match else None
