"""Sentence boundaries: Wikimedia's `sentencex` segmenter, with our rules on top.

sentencex knows abbreviations, numbers, quotes and ellipses in ~300 languages; what it leaves
for us (each rule held by tests/engine/test_sentences.py):
- a closing quote or bracket stays with the sentence it closes, and a segment of
  punctuation alone joins its neighbour: ChatTTS babbles on a segment with no words;
- a sentence closed inside brackets ends at the bracket (（这是……。）然后继续。,
  "(See the appendix.) The results follow.");
- a quotation that opens a sentence keeps its attribution ("“快跑！”他喊道。");
- a quoted sentence ends at its closing quote before a capital ('at 5 p.m.” Then ...'), and
  an English sentence ends before a Chinese one ("at three p m. 他说");
- our abbreviation list decides an English dot that sentencex's Chinese rules would cut
  ("他是Dr. Smith的学生"), and in English a title that never ends a sentence ("approx. $40");
- a list marker alone opens the item after it ("1.) The first item 2.) The second item").
"""

from __future__ import annotations

import re

_WORDY = re.compile(r"[^\W_]")  # a letter, a digit or a CJK character
_OPENERS = "“‘「『\"'"
_CLOSERS = "”’」』\"')）]】》〉"
_QUOTE_PAIRS = {"“": "”", "‘": "’", "「": "」", "『": "』", '"': '"', "'": "'"}
_CLOSED_IN_BRACKETS = re.compile(
    r"[。！？]+[）)】]+(?=[^\s" + re.escape(_CLOSERS) + r"。！？，、；：…])"
    r"|[.!?][)\]]+(?=\s+[A-Z])"
)
_QUOTED_END = re.compile(r"[.!?][”\"’](?=\s+[A-Z“\"])")
# An English sentence followed by a Chinese one ("... at three p m. 他说"): sentencex takes
# "m." for an initial there.
_EN_THEN_ZH = re.compile(r"(?<=[A-Za-z])[.!?]+(?=\s+[\u3400-\u9fff])")


_LIST_MARKER = re.compile(r"\(?(?:\d{1,3}|[A-Za-z]|[ivx]{1,4})(?:\.\)|[.)])")


def _list_items(line: str) -> list[str]:
    """A line that opens with a list marker ("a.", "1)") is cut before the next markers of the
    same list ("a. The first item b. The second item"): b after a, 2 after 1."""
    first = re.match(r"\s*\(?([a-z]|\d{1,2})[.)]\)?\s", line)
    if not first:
        return [line]
    marker, start, cuts = first.group(1), 0, []
    while True:
        marker = str(int(marker) + 1) if marker.isdigit() else chr(ord(marker) + 1)
        nxt = re.compile(r"\s\(?" + re.escape(marker) + r"[.)]\)?\s").search(line, start + 1)
        if not nxt:
            break
        cuts.append(nxt.start() + 1)
        start = nxt.start() + 1
    return [line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)])]


def wordy(text: str) -> bool:
    """Does `text` hold anything speakable: a letter, a digit or a CJK character?"""
    return bool(_WORDY.search(text))


def _lang(text: str) -> str:
    from app.text.normalize import language_of

    return language_of(text)


def _cut(pieces: list[str], pattern: re.Pattern) -> list[str]:
    out = []
    for piece in pieces:
        start = 0
        for m in pattern.finditer(piece):
            out.append(piece[start : m.end()])
            start = m.end()
        out.append(piece[start:])
    return [p for p in out if p.strip()]


def _whole_quotation(piece: str) -> bool:
    piece = piece.strip()
    return len(piece) > 1 and piece[0] in _QUOTE_PAIRS and piece.endswith(_QUOTE_PAIRS[piece[0]])


def _word_before_dot(text: str) -> str:
    found = re.search(r"([A-Za-z]+)\.\s*$", text)
    return found.group(1) if found else ""


def _continues(previous: str, piece: str, lang: str) -> bool:
    """Should `piece` be read as part of the sentence before it?"""
    from app.text.normalize.abbreviations import TITLES, dot_ends_sentence

    head = piece.lstrip()
    if not wordy(piece) or (head and head[0] in _CLOSERS and head[0] not in _OPENERS):
        return True
    if previous.rstrip().endswith(".") and not dot_ends_sentence(previous.rstrip()[:-1], piece):
        # Inside Chinese our list decides every dot; in English sentencex knows more
        # abbreviations, and ours only overrule it for titles that never end one ("approx.").
        if lang == "zh" or _word_before_dot(previous).lower() in TITLES:
            return True
    # “快跑！”他喊道。: an opening quotation and its attribution are one sentence.
    return (
        _whole_quotation(previous)
        and bool(head)
        and head[0] not in _OPENERS
        and (head[0].islower() or (not head[0].isascii() and head[0].isalpha()))
    )


def _move_closers(pieces: list[str]) -> list[str]:
    """A piece that starts with closing marks gives them back to the piece before it."""
    out: list[str] = []
    for piece in pieces:
        if out:
            stripped = piece.lstrip()
            n = 0
            while n < len(stripped) and stripped[n] in _CLOSERS and stripped[n] not in _OPENERS:
                n += 1
            if n and wordy(stripped[n:]):
                out[-1] = out[-1].rstrip() + stripped[:n]
                piece = piece[len(piece) - len(stripped) + n :]
        out.append(piece)
    return out


def sentences(line: str) -> list[str]:
    """The sentences of one line, stripped, each with at least one letter, digit or CJK
    character; punctuation alone joins the sentence before it (or after it, at the start)."""
    import sentencex

    if not line.strip():
        return []
    lang = _lang(line)
    pieces = [p for item in _list_items(line) for p in sentencex.segment(lang, item) if p.strip()]
    pieces = _cut(pieces, _CLOSED_IN_BRACKETS)
    pieces = _cut(pieces, _QUOTED_END)
    pieces = _cut(pieces, _EN_THEN_ZH)
    pieces = _move_closers(pieces)
    merged: list[str] = []
    for piece in pieces:
        if merged and _continues(merged[-1], piece, lang):
            merged[-1] += piece  # the text between them is kept as it was
        else:
            merged.append(piece)
    if len(merged) > 1 and not wordy(merged[0]):
        merged[1] = merged[0] + merged[1]
        merged.pop(0)
    # A list marker alone ("1.)", "2.") opens the item after it: "1.) The first item".
    for i in range(len(merged) - 2, -1, -1):
        if _LIST_MARKER.fullmatch(merged[i].strip()):
            merged[i + 1] = merged[i] + merged[i + 1]
            merged.pop(i)
    return [m.strip() for m in merged if wordy(m)]
