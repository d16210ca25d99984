"""Clean text out of HTML: scripts, styles, navigation and forms removed, one line per block."""

from __future__ import annotations

import re
import warnings

from bs4 import BeautifulSoup, Tag, XMLParsedAsHTMLWarning

BOILERPLATE_TAGS = ("script", "style", "noscript", "nav", "header", "footer", "form", "iframe", "svg", "button")
BLOCK_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "div", "dt", "dd", "pre", "blockquote")


def soup_of(markup: str | bytes, encoding: str | None = None) -> BeautifulSoup:
    if isinstance(markup, bytes) and encoding:
        markup = markup.decode(encoding, errors="replace")
    with warnings.catch_warnings():
        # Inline-XBRL 8-K documents are XHTML; the HTML parser reads them well and is what we want.
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        return BeautifulSoup(markup, "lxml")


def squash(text: str) -> str:
    """One line: non-breaking and repeated spaces folded, ends trimmed."""
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def block_text(node: Tag) -> str:
    """The text of `node`, one line per innermost block element, boilerplate removed."""
    for tag in node.find_all(BOILERPLATE_TAGS):
        tag.decompose()
    lines: list[str] = []
    for block in node.find_all(BLOCK_TAGS):
        if block.find(BLOCK_TAGS):
            continue  # an outer block: its inner blocks give the lines
        line = squash(block.get_text(" "))
        if line:
            lines.append(line)
    if not lines:
        lines = [squash(node.get_text(" "))]
    # Consecutive duplicates come from layouts that repeat a heading in two containers.
    return "\n".join(line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1])
