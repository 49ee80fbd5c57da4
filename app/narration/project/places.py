"""How a notice about a damaged or unusable row names a sentence: its chapter and its number,
as the window shows them."""

from __future__ import annotations

from app.i18n import _


def where(chapter_titles: dict, chapter_id, index) -> str:
    """`chapter_titles`: chapter id -> (number from 1, title)."""
    if chapter_id in chapter_titles and type(index) is int:
        number, title = chapter_titles[chapter_id]
        return _("Chapter {chapter} ('{title}'), sentence {sentence}").format(
            chapter=number, title=title[:60], sentence=index + 1
        )
    return _("A sentence of an unknown chapter")
