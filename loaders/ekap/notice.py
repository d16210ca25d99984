"""A result notice (Sonuç İlanı) read by its labelled rows, from Markdown or from EKAP's HTML.

EKAP hands a notice out as HTML (`veriHtml`); tools that save it often turn it into Markdown. Both
hold the same rows: `label : value`, grouped under numbered sections (1- İhalenin, 2- İhale konusu…,
3- Teklifler, 4- Sözleşmenin). The letters before labels shift between templates, and "Tarihi" and
"Süresi" occur in two sections, so rows are read by section and label, never by letter or place.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache

from selectolax.lexbor import LexborHTMLParser

from loaders.ekap.values import clean_text
from store.reference.lists import fold

# (section, folded label) -> the field it fills; None marks a row read and deliberately not used.
LABELS: dict[tuple[int, str], str | None] = {
    (0, "ihale kayit numarasi"): "ikn",
    (1, "tarihi"): "tender_date",
    (1, "turu"): "tender_type",
    (1, "usulu"): "procedure",
    (1, "yaklasik maliyeti"): "estimate",
    (1, "sozlesmeye esas kisimlarinin yaklasik maliyeti"): "lots_estimate",
    (1, "pazarlik usulunun secilme gerekcesi"): None,
    (2, "adi"): "subject",
    (2, "yapilacagi yer"): None,
    (2, "yapilacagi/teslim edilecegi yer"): None,
    (2, "teslim edilecegi yer"): None,
    (2, "miktari"): None,
    (2, "niteligi, turu ve miktari"): None,
    (2, "suresi"): None,
    (3, "dokumani ekap uzerinden e-imza kullanarak indiren sayisi"): None,
    (3, "toplam teklif sayisi"): "bids_total",
    (3, "toplam gecerli teklif sayisi"): "bids_valid",
    (3, "yerli istekli lehine fiyat avantaji uygulamasi"): None,
    (3, "yerli mali teklif eden istekli lehine fiyat avantaji uygulamasi"): None,
    (2, "teslim tarihi"): None,
    (4, "tarihi"): "contract_date",
    (4, "bedeli"): "contract_value",
    (4, "suresi"): None,
    (4, "yuklenici"): "contractor",
    (4, "yuklenicisi"): "contractor",
    (4, "yuklenicinin uyrugu"): "nationality",
    (4, "yuklenicinin adresi"): "address",
}
_SECTION = re.compile(r"(\d)\s*-\s*\S.*")
_LETTER = re.compile(r"^[a-zçğıöşü]\)\s*", re.IGNORECASE)
_RESULT_HEADING = "sonuc ilani"
# The words of the multi-lot row in the spellings notices print; re's IGNORECASE does not know
# that the capital of ı is I, so the capitals are listed.
_LOTS_ROW = re.compile(r"Kısımlarının|KISIMLARININ|Kisimlarinin|KISIMLARİNİN")


@dataclass
class Notice:
    """The fields of one notice as printed (text), with what could not be placed."""

    heading: list[str]
    fields: dict[str, str] = field(default_factory=dict)
    unknown_labels: list[str] = field(default_factory=list)
    # Rows of the notice that are neither `label : value` nor a section heading: the notice is laid
    # out in a way the importer does not recognise, so its figures cannot be trusted to be placed.
    unread_rows: list[str] = field(default_factory=list)
    _key: str | None = field(default=None, repr=False, compare=False)

    @property
    def ikn(self) -> str:
        return self.fields.get("ikn", "")

    @property
    def authority(self) -> str:
        """The authority unit: the last bold segment of the heading after "SONUÇ İLANI"."""
        rest = [s for s in self.heading if fold(s) != _RESULT_HEADING]
        return rest[-1] if rest else ""

    @property
    def is_result(self) -> bool:
        """A result notice names its İKN and says so in its heading or prints a contract row."""
        if not self.ikn:
            return False
        return any(_RESULT_HEADING in fold(s) for s in self.heading) or bool(
            {"contract_value", "contractor"} & self.fields.keys())

    @property
    def multi_lot(self) -> bool:
        """The "Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti" row appears only in multi-lot tenders."""
        return "lots_estimate" in self.fields

    def key(self) -> str:
        """Equal for the same notice in any format (Markdown or HTML), so a copy counts once; the
        values are already cleaned of layout, so they compare as printed."""
        if self._key is None:
            body = "\x1f".join(f"{k}={v}" for k, v in sorted(self.fields.items()))
            self._key = hashlib.sha256(f"{self.authority}\x1e{body}".encode()).hexdigest()
        return self._key


@lru_cache(maxsize=8192)
def _label(cell: str) -> tuple[str, str, int | None]:
    """(label as printed, its folded form, its section number when it opens a section); labels
    repeat in every notice, so each spelling is worked out once."""
    text = clean_text(cell)
    match = _SECTION.fullmatch(text)
    label = _LETTER.sub("", text).rstrip(":").strip()
    return label, fold(label), int(match.group(1)) if match else None


def read_rows(heading: list[str], rows: list[list[str]], text: str = "") -> Notice:
    """Place each `label : value` row by its section and label; `text`, the whole notice, shows
    whether the multi-lot row is printed somewhere no row reads it."""
    notice = Notice([clean_text(s) for s in heading if clean_text(s)])
    section = 0
    for cells in rows:
        if not cells:
            continue
        label, folded, opens = _label(cells[0])
        rest = cells[1:]
        separated = bool(rest) and rest[0].replace("*", "").strip() == ":"
        values = rest[1:] if separated else rest
        if not separated and opens is not None and not any(v.strip() for v in values):
            section = opens
            continue
        if not label or set(label) <= set("-: "):
            continue  # an empty row, or a Markdown separator row
        if not separated:
            notice.unread_rows.append(" | ".join(t for c in cells if (t := clean_text(c))))
            continue
        key = (section, folded)
        if key not in LABELS:
            notice.unknown_labels.append(label)
            continue
        target = LABELS[key]
        if target is not None and target not in notice.fields:
            notice.fields[target] = clean_text(" ".join(v for v in values if v.strip() != ":"))
    if "lots_estimate" not in notice.fields and _LOTS_ROW.search(text):
        notice.unread_rows.append("Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti, printed outside the rows read")
    return notice


def _markdown_cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [c.replace("\x00", "|") for c in row.split("|")]


def parse_markdown(text: str) -> Notice:
    """A notice as ihale-mcp saves it (markitdown's rendering of EKAP's HTML)."""
    heading: list[str] = []
    rows: list[list[str]] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if "|" not in line:
            if not heading and not rows and "**" in line:
                heading = [s for s in line.split("**") if s.strip()]
            continue
        # A broken row can run into the next one: `… | : | value || **2- …** | | |`.
        for row in line.replace("\\|", "\x00").split("||"):
            if row.strip(" |"):
                rows.append(_markdown_cells(row))
    return read_rows(heading, rows, text)


_HEADING_TAGS = frozenset({"b", "strong", "h1", "h2", "h3", "h4"})
_CELL_TAGS = frozenset({"td", "th"})


def _in_cell(node) -> bool:  # noqa: ANN001 - a selectolax node
    parent = node.parent
    while parent is not None:
        if parent.tag in _CELL_TAGS:
            return True
        parent = parent.parent
    return False


def _heading(body) -> list[str]:  # noqa: ANN001 - a selectolax node
    """The text of each outermost bold or heading element before the first table, in one pass.

    A heading element's text includes the text of those nested in it, so their subtrees are not
    entered: reading every nested `<b>` of `<b><b><b>…` for its own text read the markup once per
    level (700 KB took 110 s)."""
    heading: list[str] = []
    node, after = body.child, []
    while node is not None:
        if node.tag == "table":
            break
        if node.tag in _HEADING_TAGS:
            if (text := node.text(deep=True, separator=" ")).strip():
                heading.append(text)
        elif node.child is not None:
            after.append(node.next)
            node = node.child
            continue
        node = node.next
        while node is None and after:
            node = after.pop()
    return heading


def parse_html(html: str) -> Notice:
    """A notice as EKAP hands it out (`veriHtml`): table rows, the heading in bold before the table.

    The markup is read as a browser reads it, by the HTML5 tree-building algorithm (Lexbor): EKAP
    prints a multi-lot notice's "Sözleşmeye Esas Kısımlarının Yaklaşık Maliyeti" as cells outside
    any row, which HTML5 puts in a row of their own (a parser that walks the rows as written loses
    it). A table nested in a cell is that cell's text, and `<br>` separates words."""
    if not html.strip():
        return Notice([])
    body = LexborHTMLParser(html).body
    if body is None:
        return Notice([])
    heading = _heading(body)
    rows = [[cell.text(deep=True, separator=" ") for cell in tr.iter() if cell.tag in _CELL_TAGS]
            for tr in body.css("tr") if not _in_cell(tr)]
    return read_rows(heading, rows, body.text(deep=True))


def parse_notice(text: str, *, html: bool) -> Notice:
    return parse_html(text) if html else parse_markdown(text)


def looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith("<") and any(tag in text[:5000].lower() for tag in ("<table", "<tr", "<html", "<div", "<p"))
