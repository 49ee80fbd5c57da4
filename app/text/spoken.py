"""What the model is finally given: our pipeline, then ChatTTS's own text filter.

ChatTTS's `Normalizer` (ChatTTS/norm.py) needs `import ChatTTS` (torch, transformers: ~10 s)
and numba (seconds of compiling), yet it only translates characters. `ChatTTSTextFilter`
does the same in plain Python from the same homophones table, so `chattts-studio normalize`
shows the exact text without loading the model stack; a test checks that both agree.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re

from app.core import InputTextError
from app.i18n import _
from app.text.prepare import PreparedText, prepare_text

_SPEAKABLE = re.compile(r"[A-Za-z\u4e00-\u9fff]")

# Copied from ChatTTS 0.2.5 norm.py (the test compares against the real thing).
_REJECT = re.compile(r"[^\u4e00-\u9fffA-Za-z，。、,\. ]")
_TAG = re.compile(r"\[[\w_]+\]")
_CHINESE_CHAR = re.compile(r"[\u4e00-\u9fff]")
_ENGLISH_WORD = re.compile(r"\b[A-Za-z]+\b")
_SIMPLIFY = str.maketrans(
    {
        "：": "，",
        "；": "，",
        "！": "。",
        "（": "，",
        "）": "，",
        "【": "，",
        "】": "，",
        "『": "，",
        "』": "，",
        "「": "，",
        "」": "，",
        "《": "，",
        "》": "，",
        "－": "，",
        ":": ",",
        ";": ",",
        "!": ".",
        "(": ",",
        ")": ",",
        ">": ",",
        "<": ",",
        "-": ",",
    }
)
_HALF_TO_FULL = str.maketrans(
    {
        "!": "！",
        '"': "“",
        "'": "‘",
        "#": "＃",
        "$": "＄",
        "%": "％",
        "&": "＆",
        "(": "（",
        ")": "）",
        ",": "，",
        "-": "－",
        "*": "＊",
        "+": "＋",
        ".": "。",
        "/": "／",
        ":": "：",
        ";": "；",
        "<": "＜",
        "=": "＝",
        ">": "＞",
        "?": "？",
        "@": "＠",
        "\\": "＼",
        "^": "＾",
        "`": "｀",
        "{": "｛",
        "|": "｜",
        "}": "｝",
        "~": "～",
    }
)


def _split_tags(text: str) -> tuple[list[str], list[str]]:
    """ChatTTS's _split_tags, step for step (text after an unclosed "[" is dropped there too)."""
    texts: list[str] = []
    tags: list[str] = []
    current_text = current_tag = ""
    for c in text:
        if c == "[":
            texts.append(current_text)
            current_text, current_tag = "", c
        elif current_tag != "":
            current_tag += c
        else:
            current_text += c
        if c == "]":
            tags.append(current_tag)
            current_tag = ""
    if current_text != "":
        texts.append(current_text)
    return texts, tags


def _combine_tags(texts: list[str], tags: list[str]) -> str:
    tags = list(tags)
    return "".join(t + (tags.pop(0) if tags else "") for t in texts)


def homophones_path() -> str:
    """ChatTTS's homophones table, found without importing the package (which loads torch)."""
    spec = importlib.util.find_spec("ChatTTS")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "res", "homophones_map.json")
        if os.path.isfile(path):
            return path
    import ChatTTS  # an unusual install (a zip): let the package say where it is

    return os.path.join(os.path.dirname(ChatTTS.__file__), "res", "homophones_map.json")


class ChatTTSTextFilter:
    """Same call and result as ChatTTS's Normalizer with our normalizers registered."""

    def __init__(self, table_path: str | None = None):
        with open(table_path or homophones_path(), encoding="utf-8") as f:
            table: dict[str, str] = json.load(f)
        self._homophones = str.maketrans(table)

    def __call__(
        self,
        text: str,
        do_text_normalization: bool = True,
        do_homophone_replacement: bool = True,
        lang: str | None = None,
    ) -> str:
        from app.text.normalize import normalize

        if do_text_normalization:
            if lang is None:
                lang = (
                    "zh"
                    if len(_CHINESE_CHAR.findall(text)) > len(_ENGLISH_WORD.findall(text))
                    else "en"
                )
            texts, tags = _split_tags(text)
            texts = [normalize(t, lang) for t in texts]
            text = _combine_tags(texts, tags) if tags else texts[0]
            if lang == "zh":
                text = text.translate(_HALF_TO_FULL)
        invalid = bool(_REJECT.search(_TAG.sub("", text)))
        if invalid:
            text = text.translate(_SIMPLIFY)
        if do_homophone_replacement:
            text = text.translate(self._homophones)
        if invalid:
            texts, tags = _split_tags(text)
            texts = [_REJECT.sub("", t) for t in texts]
            text = _combine_tags(texts, tags) if tags else texts[0]
        return text


def spoken_segments(text: str, dictionary, chattts_norm) -> PreparedText:
    """The segments exactly as the model gets them: our pipeline, then ChatTTS's own
    normalizer (or ChatTTSTextFilter); segments left with nothing to say are dropped."""
    prepared = prepare_text(text, dictionary)
    segments = []
    spans = []
    for index, seg in enumerate(prepared.segments):
        spoken = chattts_norm(seg, True, True)
        if _SPEAKABLE.search(spoken):
            segments.append(spoken)
            spans.append(prepared.span(index))
    if not segments:
        raise InputTextError(
            _(
                "The text has nothing ChatTTS can read aloud: it speaks Chinese and English words, "
                "so spell out symbols in words."
            )
        )
    return PreparedText(segments, prepared.warnings, spans)
