"""Small SourceDocuments and take audio for the narration tests."""

from __future__ import annotations

import numpy as np

from app.narration.source import SourceChapter, SourceDocument, SourceSentence


def book(
    chapters=(
        ("One", ("第一句话。", "第二句话。", "第三句话。")),
        ("Two", ("今天天气很好。", "我们去公园。", "然后回家。")),
    ),
) -> SourceDocument:
    return SourceDocument(
        "A book",
        "text",
        tuple(
            SourceChapter(title, tuple(SourceSentence(text) for text in texts))
            for title, texts in chapters
        ),
    )


def script() -> SourceDocument:
    lines = (("Alice", "你好。"), ("Bob", "你好吗？"), ("Alice", "我很好。"), (None, "他们笑了。"))
    return SourceDocument(
        "A play",
        "script",
        (SourceChapter("Scene", tuple(SourceSentence(text, speaker=who) for who, text in lines)),),
    )


def cues() -> SourceDocument:
    return SourceDocument(
        "Cues",
        "subtitles",
        (
            SourceChapter(
                "",
                (
                    SourceSentence("第一句。", start=0.5, end=2.0),
                    SourceSentence("第二句。", start=2.5, end=4.25),
                ),
            ),
        ),
    )


def noise(seconds: float = 0.5, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).uniform(-0.5, 0.5, int(24_000 * seconds))).astype(
        np.float32
    )
