"""Find number-like spans and rewrite each in the language of the text around it."""

from __future__ import annotations

import re

from app.text.normalize.kinds import Kind
from app.text.normalize.render import render
from app.text.normalize.rules import _CJK, _LATIN, RULES


def language_of(text: str) -> str:
    """'zh' unless Latin letters clearly dominate (a Chinese word counts for about four letters).
    Text without letters at all (just "618") is read in Chinese, ChatTTS's first language."""
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text))
    return "en" if latin and cjk < latin / 4 else "zh"


def _context_language(text: str, start: int, end: int, default: str) -> str:
    """A span with Chinese in it is Chinese; else the script of the nearest letter on either
    side decides; else the whole text's."""
    if _CJK.search(text, start, end):
        return "zh"
    before = text[max(0, start - 12) : start].rstrip()
    after = text[end : end + 12].lstrip()
    # The next sentence is not this number's context ("at 3:30 pm. 他说" is English).
    if text[end - 1 : end] in ".!?" or after[:1] in (".", "!", "?", "。", "！", "？"):
        after = ""
    stop = max(before.rfind(". "), before.rfind("。"), before.rfind("！"), before.rfind("？"))
    if stop != -1:
        before = before[stop + 1 :].rstrip()
    for ch in (before[-1:] if before else "", after[:1]):
        if ch and _CJK.match(ch):
            return "zh"
    for ch in (before[-1:] if before else "", after[:1]):
        if ch and _LATIN.match(ch):
            return "en"
    for side in (before[::-1], after):
        for ch in side:
            if _CJK.match(ch):
                return "zh"
            if _LATIN.match(ch):
                return "en"
    return default


def normalize(
    text: str, lang: str | None = None, glue: str = " ", kinds=None, skip=frozenset()
) -> str:
    """Rewrite every number-like span into words; everything else is left as it is. `kinds`
    (default: all) is a set of rule kinds, or a test `kinds(kind, span_lang, match)`: a span it
    refuses is left for the next reader (combined.py).
    `glue` joins the words of one spoken span and the word right after it (its unit or what
    it counts): the splitter never cuts at a non-breaking space, so "four dollars" stays whole."""
    default = lang or language_of(text)
    out: list[str] = []
    declined: set[tuple[str, int]] = set()  # a rule that matched but said "not mine"
    # Each rule's next match, searched again only once the reading has passed its start: the
    # text does not change, so no earlier match can appear (the preview runs this per keystroke).
    upcoming: dict[str, re.Match | None] = {}
    pos = 0
    while pos < len(text):
        best = None
        for kind, pattern in RULES:
            if (isinstance(kinds, (set, frozenset)) and kind not in kinds) or kind in skip:
                continue
            m = upcoming.get(kind)
            if kind not in upcoming or (
                m is not None and (m.start() < pos or (kind, m.start()) in declined)
            ):
                m = pattern.search(text, pos)
                while m and (kind, m.start()) in declined:
                    m = pattern.search(text, m.start() + 1)
                upcoming[kind] = m
            if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                best = (kind, m)
        if best is None:
            break
        kind, m = best
        span_lang = (
            "en"
            if kind == Kind.ABBREVIATION
            else _context_language(
                text,
                *(m.span("digits") if kind == Kind.CONTEXT_DIGITS else m.span()),
                default,
            )
        )
        if callable(kinds) and not kinds(kind, span_lang, m):
            spoken = None
        else:
            spoken = render(kind, m, span_lang, text, partial=kinds is not None)
        if spoken is None:
            declined.add((kind, m.start()))
            continue
        before, end = text[pos : m.start()], m.end()
        # Keep words apart in English ("5kg" -> "five kilograms"); Chinese needs no spaces.
        if span_lang == "en" and before and before[-1].isalnum():
            spoken = " " + spoken
        elif span_lang == "en" and not before and out and out[-1][-1:].isalnum():
            spoken = " " + spoken if spoken[:1].isalnum() else spoken  # $12@12%: dollars at
        nxt = text[end : end + 1]
        if (
            span_lang == "en"
            and nxt
            and (nxt.isalnum() or _CJK.match(nxt))
            and not spoken.endswith(" ")
        ):
            spoken += " "
        if glue != " " and kind != Kind.ABBREVIATION:
            lead, trail = (
                spoken[: len(spoken) - len(spoken.lstrip(" "))],
                spoken[len(spoken.rstrip(" ")) :],
            )
            spoken = lead + spoken.strip(" ").replace(" ", glue) + trail
            if not trail and re.match(r" [A-Za-z]", text[end : end + 2]):
                spoken += glue
                end += 1
        out.append(before + spoken)
        pos = end
    out.append(text[pos:])
    return "".join(out)
