"""How long a text should take to say: units of text per second of speech, per language.

A first take uses a default rate; later takes of the same project or voice pass the rate learnt
from the earlier ones (`SpeakingRate.learn`), since voices, seeds and speeds differ by more
than any constant allows. The caller names the language (this domain does not read text
rules: app.audio sits below app.text).
"""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from app.audio.takes.thresholds import DEFAULT_UNITS_PER_SECOND


def text_units(text: str, language: str) -> int:
    """What a speaker spends time on: each CJK character, and each letter or digit of other
    scripts (for Chinese, a Latin word counts as two characters' worth, about its syllables)."""
    cjk = 0
    other = 0
    for ch in text:
        if _is_cjk(ch):
            cjk += 1
        elif ch.isalnum():
            other += 1
    if language == "zh":
        # About 3 letters per syllable, one syllable per character.
        return cjk + round(other / 3)
    # In English text a stray CJK character is a syllable: about three letters' time.
    return other + 3 * cjk


def guess_language(texts: list[str]) -> str:
    """zh where Chinese characters are at least a sixth of the letters (about a syllable each)."""
    joined = "".join(texts)
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in joined)
    letters = sum(ch.isalnum() for ch in joined) - cjk
    return "zh" if cjk and cjk * 6 >= letters else "en"


def _is_cjk(ch: str) -> bool:
    return "CJK" in unicodedata.name(ch, "")


@dataclass(frozen=True)
class SpeakingRate:
    """Units of text (see `text_units`) per second of speech, for one language."""

    language: str
    units_per_second: float

    @classmethod
    def default(cls, language: str) -> SpeakingRate:
        rate = DEFAULT_UNITS_PER_SECOND.get(language, DEFAULT_UNITS_PER_SECOND["en"])
        return cls(language, rate)

    @classmethod
    def learn(
        cls, language: str, takes: Iterable[tuple[str, float]], fallback: SpeakingRate | None = None
    ) -> SpeakingRate:
        """The median rate of earlier takes, given as (text, seconds of speech); the median,
        so one bad take among them does not move it. No usable take: the fallback or default."""
        rates = [
            text_units(text, language) / seconds
            for text, seconds in takes
            if seconds > 0 and text_units(text, language) > 0
        ]
        if not rates:
            return fallback or cls.default(language)
        return cls(language, statistics.median(rates))

    def expected_seconds(self, text: str) -> float:
        return text_units(text, self.language) / self.units_per_second
