"""Waveforms: a sentence's audio, or a chapter's sentences side by side with their boundaries.

Audio is reduced once to an envelope (the minimum and maximum of each block of samples), so a
chapter of hours draws from a few hundred kilobytes; each repaint reduces the envelope again to
one min/max pair per pixel column with numpy, which is cheap enough for the GUI thread.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.retranslate import Retranslating

# Samples per envelope point for a chapter: 24 kHz audio gives about 94 points a second, finer
# than any chapter is drawn, and a sentence's own waveform uses every sample.
CHAPTER_BLOCK = 256
WAVE_COLOR = "#3d6fb0"


def reduce_columns(
    mins: np.ndarray, maxs: np.ndarray, columns: int
) -> tuple[np.ndarray, np.ndarray]:
    """One (min, max) per column over `columns` equal spans of the points; a column narrower
    than one point repeats the point under it."""
    n = len(mins)
    if n == 0 or columns <= 0:
        return np.zeros(max(columns, 0), np.float32), np.zeros(max(columns, 0), np.float32)
    starts = (np.arange(columns, dtype=np.int64) * n) // columns
    # reduceat gives the point itself where a span is empty (equal consecutive starts).
    return np.minimum.reduceat(mins, starts), np.maximum.reduceat(maxs, starts)


def envelope(audio: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """The min and max of each `block` samples (the last block may be shorter)."""
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if block <= 1 or len(audio) == 0:
        return audio, audio
    starts = np.arange(0, len(audio), block)
    return np.minimum.reduceat(audio, starts), np.maximum.reduceat(audio, starts)


@dataclass
class Waveform:
    """What the view draws: envelope points, and where each part (sentence) starts among them."""

    mins: np.ndarray
    maxs: np.ndarray
    samples_per_point: int = 1
    sample_rate: int = 24_000
    starts: list[int] = field(default_factory=list)  # the first point of each part
    keys: list = field(default_factory=list)  # what each part is (a sentence id)

    @property
    def points(self) -> int:
        return len(self.mins)

    @property
    def seconds(self) -> float:
        return self.points * self.samples_per_point / self.sample_rate

    @classmethod
    def of_audio(cls, audio: np.ndarray, sample_rate: int = 24_000, key=None) -> Waveform:
        mins, maxs = envelope(audio, 1)
        return cls(mins, maxs, 1, sample_rate, [0], [key])

    @classmethod
    def of_parts(
        cls,
        parts: list[tuple[object, np.ndarray]],
        sample_rate: int = 24_000,
        block: int = CHAPTER_BLOCK,
    ) -> Waveform:
        """Parts (key, audio) one after another; each part is reduced on its own, so a
        boundary falls exactly on a point."""
        return cls.of_envelopes(
            [(key, envelope(audio, block)) for key, audio in parts], sample_rate, block
        )

    @classmethod
    def of_envelopes(
        cls,
        parts: list[tuple[object, tuple[np.ndarray, np.ndarray]]],
        sample_rate: int = 24_000,
        block: int = CHAPTER_BLOCK,
    ) -> Waveform:
        """Parts (key, (mins, maxs)) already reduced with `block`; a part without points is left out."""
        parts = [(key, lo_hi) for key, lo_hi in parts if len(lo_hi[0])]
        if not parts:
            return cls(np.zeros(0, np.float32), np.zeros(0, np.float32), block, sample_rate)
        starts = np.cumsum([0] + [len(lo) for _key, (lo, _hi) in parts[:-1]]).tolist()
        return cls(
            np.concatenate([lo for _key, (lo, _hi) in parts]),
            np.concatenate([hi for _key, (_lo, hi) in parts]),
            block,
            sample_rate,
            starts,
            [key for key, _lo_hi in parts],
        )

    def columns(self, width: int) -> tuple[np.ndarray, np.ndarray]:
        return reduce_columns(self.mins, self.maxs, width)

    def boundary_x(self, width: int) -> list[float]:
        """The x of each part's start, for a view `width` pixels wide."""
        return [start * width / self.points for start in self.starts] if self.points else []

    def part_at(self, x: float, width: int):
        """The key of the part under pixel column x, or None."""
        if not self.points or width <= 0 or not 0 <= x < width:
            return None
        point = int(x * self.points / width)
        index = bisect.bisect_right(self.starts, point) - 1
        return self.keys[index] if index >= 0 else None

    def span_x(self, key, width: int) -> tuple[float, float] | None:
        if key not in self.keys or not self.points:
            return None
        index = self.keys.index(key)
        end = self.starts[index + 1] if index + 1 < len(self.starts) else self.points
        return self.starts[index] * width / self.points, end * width / self.points


class WaveformView(Retranslating, QWidget):
    """Draws a Waveform; a click on a part emits its key; the selected part is shaded."""

    partClicked = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.waveform: Waveform | None = None
        self.selected = None
        self._cache: tuple[int, int, np.ndarray, np.ndarray] | None = None
        self._placeholder = ""
        self.setMinimumHeight(70)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.retranslate()

    def sizeHint(self) -> QSize:
        return QSize(400, 110)

    def set_waveform(self, waveform: Waveform | None, selected=None) -> None:
        self.waveform, self.selected, self._cache = waveform, selected, None
        self.update()

    def select(self, key) -> None:
        self.selected = key
        self.update()

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.update()

    def column_peaks(self, width: int) -> tuple[np.ndarray, np.ndarray]:
        """Peaks per column for `width`, cached until the waveform or the width changes."""
        key = (id(self.waveform), width)
        if self._cache is None or self._cache[:2] != key:
            self._cache = (*key, *self.waveform.columns(width))
        return self._cache[2], self._cache[3]

    def mousePressEvent(self, event) -> None:
        if self.waveform is not None and event.button() == Qt.MouseButton.LeftButton:
            key = self.waveform.part_at(event.position().x(), self.width())
            if key is not None:
                self.select(key)
                self.partClicked.emit(key)
        super().mousePressEvent(event)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        w, h = self.width(), self.height()
        if self.waveform is None or not self.waveform.points:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, self._placeholder or self._empty
            )
            return
        span = self.waveform.span_x(self.selected, w) if len(self.waveform.keys) > 1 else None
        if span is not None:
            highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
            highlight.setAlpha(60)
            painter.fillRect(QRectF(span[0], 0, span[1] - span[0], h), highlight)
        mins, maxs = self.column_peaks(w)
        mid = h / 2
        painter.setPen(QPen(QColor(WAVE_COLOR), 1))
        for x, (lo, hi) in enumerate(zip(mins.tolist(), maxs.tolist())):
            top, bottom = mid - max(-1.0, min(1.0, hi)) * mid, mid - max(-1.0, min(1.0, lo)) * mid
            painter.drawLine(QPointF(x + 0.5, top), QPointF(x + 0.5, max(bottom, top + 1)))
        if len(self.waveform.starts) > 1:
            painter.setPen(
                QPen(QColor(palette.color(QPalette.ColorRole.Highlight)), 1, Qt.PenStyle.DashLine)
            )
            for x in self.waveform.boundary_x(w)[1:]:
                painter.drawLine(QPointF(x, 0), QPointF(x, h))

    def retranslate(self) -> None:
        self._empty = self.tr("No audio yet")
        self.update()
