"""SubRip (.srt) and WebVTT (.vtt) text from where each sentence is in the exported audio.

Times are rounded to the millisecond, the finest both formats carry. A cue's text is kept on
one line: a blank line would end the cue, and WebVTT forbids "-->" and raw "<" or "&" in it.
"""

from __future__ import annotations

from collections.abc import Iterable


def _stamp(seconds: float, sep: str) -> str:
    ms = max(0, int(round(seconds * 1000)))
    return (
        f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}{sep}{ms % 1000:03d}"
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _cues(cues: Iterable[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    # A sentence with no sound (an empty take) has nothing to show.
    return [
        (start, end, _one_line(text))
        for start, end, text in cues
        if end > start and _one_line(text)
    ]


def render_srt(cues: Iterable[tuple[float, float, str]]) -> str:
    blocks = [
        f"{n}\n{_stamp(start, ',')} --> {_stamp(end, ',')}\n{text}\n"
        for n, (start, end, text) in enumerate(_cues(cues), 1)
    ]
    return "\n".join(blocks)


def _vtt_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_vtt(cues: Iterable[tuple[float, float, str]]) -> str:
    blocks = ["WEBVTT\n"] + [
        f"{_stamp(start, '.')} --> {_stamp(end, '.')}\n{_vtt_text(text)}\n"
        for start, end, text in _cues(cues)
    ]
    return "\n".join(blocks)


def render(kind: str, cues: Iterable[tuple[float, float, str]]) -> str:
    return render_srt(cues) if kind == "srt" else render_vtt(cues)
