"""`X-Take-Check: retry`: each sentence's take is checked (app.audio's take checker) and a
failing one made again with the next seed, up to MORE_TRIES more times, before anything is
sent; the best-scoring take of each sentence is kept. What the check found goes back in
`X-Take-Check-Findings` (docs/server.md). Without the header nothing here runs.

The checks run on the engine's thread between batches (`Engine.call`): PyTorch keeps a thread
pool per thread that ran its kernels, and more such threads beside the engine slow decoding.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from app.core import SEED_MAX, AudioChunk, StudioError, SynthesisRequest, SynthesisResult
from app.i18n import _
from app.server.errors import ApiError

if TYPE_CHECKING:
    from app.audio import TakeReport

HEADER = "X-Take-Check"
log = logging.getLogger("chattts_studio.server")

FINDINGS_HEADER = "X-Take-Check-Findings"
# Sentences the header lists (only those re-made or still flagged): proxies refuse headers of
# more than 4-8 KB, and one entry is about 60 bytes (tests/server/test_take_check_header.py).
LISTED_MAX = 40
RETRY = "retry"
OFF = "off"
MORE_TRIES = 2  # a failing sentence is made at most this many more times
CALL_TIMEOUT_S = 600.0


def wants_retry(value: str | None) -> bool:
    """True for `retry`; False without the header or for `off`; 400 for anything else."""
    if value is None:
        return False
    word = value.strip().lower()
    if word in (RETRY, OFF):
        return word == RETRY
    raise ApiError(
        400,
        _(
            "The header {header} takes the value {retry} or {off}, not {value}; leave it out to "
            "skip the check."
        ).format(header=HEADER, retry=RETRY, off=OFF, value=repr(value[:40])),
        code="invalid_header",
        param=HEADER,
    )


@dataclass(frozen=True)
class SentenceTake:
    audio: np.ndarray
    report: TakeReport  # of the kept take
    tries: int  # takes made of this sentence
    kept: int  # which of them is kept (0: the first)


class Retaker:
    """Checks a finished job's sentences and makes the failing ones again (on the caller's
    thread; the engine does the work). `stop()` ends it between takes, from any thread."""

    def __init__(self, engine, request: SynthesisRequest, priority):
        self.engine, self.request, self.priority = engine, request, priority
        self._stopped = threading.Event()
        self._job: Any = None

    def stop(self) -> None:
        self._stopped.set()
        job = self._job
        if job is not None:
            job.cancel()

    def run(self, job) -> tuple[SynthesisResult, list[SentenceTake]]:
        """The first result and each sentence's kept take. Raises what the engine raises."""
        self._job = job
        result = job.result()
        from app.audio import guess_language

        language = guess_language([self.request.text])
        out = []
        for audio, text in self._sentences(result):
            out.append(self._best(audio, result.sample_rate, text, language, result.speaker))
        return result, out

    def _sentences(self, result: SynthesisResult) -> list[tuple[np.ndarray, str | None]]:
        if not result.marks:
            return [(result.audio, self.request.text)]
        return [
            (
                result.audio[m.start : m.end],
                self.request.text[m.text_start : m.text_end] if m.span is not None else None,
            )
            for m in result.marks
        ]

    def _check(self, audio: np.ndarray, rate: int, text: str | None, language: str):
        from app.audio import Expectation, TakeReport, check_take

        expect = Expectation(text=text, language=language)
        try:
            return self.engine.call(lambda: check_take(audio, rate, expect), timeout=CALL_TIMEOUT_S)
        except StudioError:
            raise
        except Exception:  # a damaged model file, a busy engine: the take goes out unchecked
            log.exception("a sentence's take was not checked")
            return TakeReport((), len(audio) / rate, 0.0, None, checked=False)

    def _best(self, audio, rate, text, language, speaker) -> SentenceTake:
        report = self._check(audio, rate, text, language)
        best = SentenceTake(audio, report, 1, 0)
        tries = 1
        while (
            report.checked
            and report.flagged
            and text
            and tries <= MORE_TRIES
            and not self._stopped.is_set()
        ):
            audio = self._again(text, tries, speaker)
            report = self._check(audio, rate, text, language)
            tries += 1
            if report.score > best.report.score:
                best = SentenceTake(audio, report, tries, tries - 1)
        return replace(best, tries=tries)

    def _again(self, text: str, attempt: int, speaker: str) -> np.ndarray:
        """The sentence alone with the next seed, in the voice the request was made in."""
        request = replace(
            self.request,
            text=text,
            seed=(self.request.seed + attempt) % (SEED_MAX + 1),
            voice_lock=False,
        )
        if request.speaker is None and request.reference is None and speaker:
            request.speaker = speaker
        job = self._job = self.engine.submit(request, self.priority)
        if self._stopped.is_set():  # stopped while it was being submitted
            job.cancel()
        return job.result().audio


def findings_header(takes: list[SentenceTake]) -> str:
    """Compact JSON (ASCII, for a header): whether takes were checked, how many sentences, and
    for each sentence made again or still flagged (at most LISTED_MAX, in order) its index, how
    many takes were made, which was kept and the kinds of what is wrong with it."""
    checked = all(t.report.checked for t in takes)
    notable = [(i, t) for i, t in enumerate(takes) if t.tries > 1 or t.report.findings]
    sentences = [
        {
            "index": i,
            "tries": t.tries,
            "kept": t.kept,
            "findings": [f.kind.value for f in t.report.findings],
        }
        for i, t in notable[:LISTED_MAX]
    ]
    found = {
        "checked": checked,
        "count": len(takes),
        "sentences": sentences,
        "truncated": len(notable) > LISTED_MAX,
    }
    return json.dumps(found, separators=(",", ":"))


class CheckedJob:
    """The kept takes as a job the response streams: a chunk per sentence, then the result."""

    def __init__(self, result: SynthesisResult, takes: list[SentenceTake], retaker: Retaker):
        self.id = 0
        self._result, self._takes, self._retaker = result, takes, retaker

    def cancel(self) -> None:
        self._retaker.stop()

    def __iter__(self):
        total = len(self._takes)
        for index, take in enumerate(self._takes):
            yield AudioChunk(index, total, take.audio, self._result.sample_rate)
        audio = (
            np.concatenate([t.audio for t in self._takes]) if self._takes else self._result.audio
        )
        yield replace(self._result, audio=audio)
