"""XHTML (an EPUB chapter, a Markdown HTML block) -> paragraphs of text and its headings.

The stdlib parser never fetches anything and never recurses, so a hostile page costs time
in proportion to its size. Scripts, styles, pictures, ruby annotations and the head are
left out; block elements end a paragraph.
"""

from __future__ import annotations

from html.parser import HTMLParser

from app.narration.inputs.cleaning import one_line

_BLOCKS = {
    "p",
    "div",
    "br",
    "li",
    "tr",
    "td",
    "th",
    "blockquote",
    "section",
    "article",
    "aside",
    "pre",
    "dd",
    "dt",
    "hr",
    "table",
    "ul",
    "ol",
    "dl",
    "figure",
    "figcaption",
    "header",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "body",
    "nav",
    "main",
    "caption",
}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_SKIPPED = {
    "script",
    "style",
    "head",
    "title",
    "svg",
    "math",
    "noscript",
    "template",
    "iframe",
    "object",
    "audio",
    "video",
    "canvas",
    "rt",
    "rp",
    "button",
    "select",
    "textarea",
}
_VOID = {
    "img",
    "br",
    "hr",
    "meta",
    "link",
    "input",
    "source",
    "track",
    "wbr",
    "area",
    "base",
    "col",
    "embed",
    "param",
}


class _TextParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[bool, str]] = []  # (is a heading, text)
        self._parts: list[str] = []
        self._skip = 0
        self._heading = 0

    def _flush(self):
        text = one_line("".join(self._parts))
        self._parts = []
        if text:
            self.blocks.append((self._heading > 0, text))

    def handle_starttag(self, tag, attrs):
        if tag in _SKIPPED and tag not in _VOID:
            self._skip += 1
        elif tag in _BLOCKS:
            self._flush()
            if tag in _HEADINGS:
                self._heading += 1

    def handle_startendtag(self, tag, attrs):
        if tag in _BLOCKS:
            self._flush()

    def handle_endtag(self, tag):
        if tag in _SKIPPED and tag not in _VOID:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCKS:
            self._flush()
            if tag in _HEADINGS:
                self._heading = max(0, self._heading - 1)

    def handle_data(self, data):
        if not self._skip:
            self._parts.append(data)


def html_blocks(markup: str) -> list[tuple[bool, str]]:
    """Paragraphs in reading order, each flagged when it is a heading."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    parser._flush()
    return parser.blocks
