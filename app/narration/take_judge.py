"""Judging each take a render makes with the take checker (app.audio): what a sentence should
sound like is learnt from the project's own accepted takes, not from constants.

The expectation is fixed when a render starts (the speaking rates from the takes accepted
before it, the chapters' voices from takes stored before it or from the chapter's first
sentence, which renders alone), so the same render from the same project makes the same
decisions whatever order the engine finishes sentences in.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from app.audio import Expectation, SpeakingRate, TakeModelMissing, TakeReport, check_take
from app.audio import voice_embedding as embed
from app.i18n import _
from app.narration.project import Project, ProjectError, Sentence

log = logging.getLogger("chattts_studio.narration")

# A speaking rate is learnt from at least this many accepted takes (of one voice, else of the
# project's language): a median of fewer is one or two sentences' own pace.
LEARN_FROM = 3


def sentence_language(text: str) -> str:
    """zh where Chinese characters are at least a sixth of the letters (about a syllable each)."""
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in text)
    letters = sum(ch.isalnum() for ch in text) - cjk
    return "zh" if cjk and cjk * 6 >= letters else "en"


def not_checked() -> str:
    return _(
        "Takes are not checked: the take checker's models are not installed. Narration goes on "
        "without re-takes."
    )


def checker_failed(error: str) -> str:
    return _(
        "Takes are not checked: the take checker failed ({error}). Narration goes on without "
        "re-takes."
    ).format(error=error)


def _one_openmp_thread() -> None:
    import torch

    torch.set_num_threads(1)
    # A thread takes PyTorch's number on its first parallel kernel: take it now, while it is 1.
    torch.ones(1 << 16).sum()


class CheckThread:
    """The one thread a render's checks run on, its PyTorch kernels on one OpenMP thread: it
    starts no second pool of workers competing with the engine's decoding (ARCHITECTURE.md,
    `Engine.loading`), and the engine's batches go on meanwhile."""

    def __init__(self):
        import torch

        threads = torch.get_num_threads()
        self._pool = ThreadPoolExecutor(1, "take-check", initializer=_one_openmp_thread)
        self._pool.submit(int).result()  # started, at one thread
        # PyTorch gives threads started later the last number set: the process's again.
        torch.set_num_threads(threads)

    def run(self, work):
        return self._pool.submit(work).result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class TakeJudge:
    def __init__(self, project: Project, sentences: list[Sentence]):
        self.project = project
        self.note: str | None = None  # said once where the checker's models are missing
        accepted = [s for s in sentences if s.check is not None and s.check.checked]
        accepted = [s for s in accepted if not s.check.flagged]  # type: ignore[union-attr]
        self._rates = _learn_rates(accepted)
        self._voices: dict[tuple[int, str | None], np.ndarray | None] = {}
        by_chapter: dict[int, list[Sentence]] = defaultdict(list)
        for s in accepted:
            by_chapter[s.chapter_id].append(s)
        self._accepted = by_chapter

    def rate(self, sentence: Sentence) -> SpeakingRate:
        language = sentence_language(sentence.text)
        return self._rates.get((language, sentence.speaker)) or self._rates.get(
            (language, None), SpeakingRate.default(language)
        )

    def set_voice(self, chapter_id: int, speaker: str | None, audio: np.ndarray, rate: int) -> None:
        """The chapter's voice from its first sentence's chosen take (rendered alone, before
        any other sentence of the chapter is judged)."""
        self._voices[(chapter_id, speaker)] = self._embed(audio, rate)

    def _voice(self, sentence: Sentence, sample_rate: int) -> np.ndarray | None:
        key = (sentence.chapter_id, sentence.speaker)
        if key not in self._voices:
            # The chapter's first accepted take of this voice stored before the render.
            first = next(
                (s for s in self._accepted.get(sentence.chapter_id, []) if s.speaker == key[1]),
                None,
            )
            voice = None
            if first is not None and first.take_id is not None and first.id != sentence.id:
                try:
                    voice = self._embed(self.project.take_audio(first.take_id), sample_rate)
                except ProjectError:
                    voice = None
            self._voices[key] = voice
        return self._voices[key]

    def _embed(self, audio: np.ndarray, sample_rate: int) -> np.ndarray | None:
        try:
            return embed(audio, sample_rate)
        except TakeModelMissing:
            return None
        except Exception as exc:  # a damaged model file: the take is judged without the voice
            log.warning("the chapter's reference voice was not measured: %r", exc)
            return None

    def judge(self, sentence: Sentence, audio: np.ndarray, sample_rate: int) -> TakeReport:
        expect = Expectation(
            text=sentence.text,
            language=sentence_language(sentence.text),
            rate=self.rate(sentence),
            reference=self._voice(sentence, sample_rate),
        )
        failure = None
        try:
            report = check_take(audio, sample_rate, expect)
        except TakeModelMissing:
            report = TakeReport((), len(audio) / sample_rate, 0.0, None, checked=False)
        except Exception as exc:  # a damaged model file, odd audio: the render goes on unchecked
            log.exception("a take of sentence %s was not checked", sentence.id)
            failure = checker_failed(f"{type(exc).__name__}: {exc}"[:200])
            report = TakeReport((), len(audio) / sample_rate, 0.0, None, checked=False)
        if not report.checked and self.note is None:
            self.note = failure or not_checked()
            log.warning("%s", self.note)
        return report


def _learn_rates(accepted: list[Sentence]) -> dict[tuple[str, str | None], SpeakingRate]:
    """(language, speaker) -> rate, and (language, None) for the whole project, where enough
    accepted takes teach one."""
    groups: dict[tuple[str, str | None], list[tuple[str, float]]] = defaultdict(list)
    for s in accepted:
        language = sentence_language(s.text)
        seconds = s.check.speech_seconds  # type: ignore[union-attr]
        groups[(language, s.speaker)].append((s.text, seconds))
        if s.speaker is not None:
            groups[(language, None)].append((s.text, seconds))
    return {
        key: SpeakingRate.learn(key[0], takes)
        for key, takes in groups.items()
        if len(takes) >= LEARN_FROM
    }
