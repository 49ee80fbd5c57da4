"""How far a request has got, moved by every piece of audio rather than only per sentence.

A sentence can take over ten seconds to make; a bar that moved only when one ended sat still
(test_progress_moves_within_a_sentence). Until the first sentence ends, the length of the
speech is guessed from the text; after that, from the seconds each finished sentence gave.
"""

from __future__ import annotations

# Seconds of speech per character: about four Chinese characters a second, fifteen letters of English.
CJK_SECONDS, OTHER_SECONDS = 0.25, 0.067
LAST_STEP = 0.99  # what a request short of its end shows at most


def guess_seconds(text: str) -> float:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    return max(1.0, cjk * CJK_SECONDS + (len(text) - cjk) * OTHER_SECONDS)


class SpeechProgress:
    def __init__(self, text: str):
        self._guess = guess_seconds(text)
        self.seconds = 0.0  # audio made so far
        self._seconds_done = 0.0  # of it, in finished sentences
        self.done = self.total = 0
        self._shown = 0.0

    def sentences(self, done: int, total: int) -> float:
        if done != self.done:
            self._seconds_done = self.seconds
        self.done, self.total = done, total
        return self.fraction()

    def audio(self, seconds: float) -> float:
        self.seconds += seconds
        return self.fraction()

    def fraction(self) -> float:
        """0..1, never going back."""
        if self.total and self.done >= self.total:
            return 1.0
        expected = self._seconds_done / self.done * self.total if self.done else self._guess
        by_sentences = self.done / self.total if self.total else 0.0
        self._shown = max(
            self._shown, min(LAST_STEP, max(by_sentences, self.seconds / max(expected, 1e-6)))
        )
        return self._shown
