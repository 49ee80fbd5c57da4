"""Markdown (markdown-it-py, CommonMark with tables): headings become chapters.

The chapter level is the highest heading level used more than once (a lone "# Book" above
"## Chapter" headings is the book's title); deeper headings are read as text. Emphasis, links
and inline code are reduced to their words; pictures, fenced code, raw HTML tags and YAML
front matter are not spoken. Links are never followed.
"""

from __future__ import annotations

import re
from collections import Counter

from app.narration.inputs.building import DocumentBuilder
from app.narration.inputs.cleaning import join_lines
from app.narration.inputs.html_text import html_blocks
from app.narration.source import SourceDocument

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_MAX_FRONT_MATTER = 64 * 1024


def _inline_text(token) -> str:
    out: list[str] = []
    for child in token.children or ():
        # An image's alt text describes a picture and raw HTML tags are markup: neither is read.
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return "".join(out)


def _blocks(text: str) -> list[tuple[int, str]]:
    """(heading level or 0, text) in reading order."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    blocks: list[tuple[int, str]] = []
    level = 0
    for token in md.parse(text):
        if token.type == "heading_open":
            level = int(token.tag[1])
        elif token.type == "heading_close":
            level = 0
        elif token.type == "inline":
            blocks.append((level, _inline_text(token)))
        elif token.type == "html_block":
            blocks.extend((0, block) for _heading, block in html_blocks(token.content))
    return blocks


def read_markdown(text: str, source: str, title: str) -> SourceDocument:
    m = _FRONT_MATTER.match(text[:_MAX_FRONT_MATTER])
    if m:
        text = text[m.end() :]
    blocks = _blocks(text)
    counts = Counter(level for level, _ in blocks if level)
    repeated = [level for level, n in counts.items() if n > 1]
    chapter_level = min(repeated or counts or [0])
    doc = DocumentBuilder(source, "markdown", title)
    doc.chapter(title)
    for level, words in blocks:
        if level and level < chapter_level:
            if doc.title == title:
                doc.title = words.strip() or title  # the book's own title above its chapters
            continue
        if level == chapter_level and level:
            doc.chapter(words)
        else:
            doc.text(join_lines(words.split("\n")))
    return doc.build()
