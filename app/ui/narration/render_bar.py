"""Render progress: the current chapter and the whole project, and the time left."""

from __future__ import annotations

import math
from enum import StrEnum

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from app.ui.retranslate import Retranslating


class BarState(StrEnum):
    """What the bar's last label says."""

    IDLE = "idle"
    RENDERING = "rendering"
    PAUSED = "paused"
    CANCELLED = "cancelled"
    FINISHED = "finished"


class RenderBar(Retranslating, QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.chapter_label = QLabel()
        self.chapter_label.setObjectName("renderChapterLabel")
        self.chapter_bar = QProgressBar()
        self.chapter_bar.setObjectName("renderChapterBar")
        self.overall_label = QLabel()
        self.overall_label.setObjectName("renderOverallLabel")
        self.overall_bar = QProgressBar()
        self.overall_bar.setObjectName("renderOverallBar")
        self.eta_label = QLabel()
        self.eta_label.setObjectName("renderEta")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.chapter_label)
        layout.addWidget(self.chapter_bar, 1)
        layout.addWidget(self.overall_label)
        layout.addWidget(self.overall_bar, 1)
        layout.addWidget(self.eta_label)
        self._last = None
        self._state = BarState.IDLE
        self.retranslate()

    def show_progress(self, progress) -> None:
        """A RenderProgress from the narration worker."""
        self._last = progress
        if self._state is not BarState.PAUSED:  # sentences in flight still finish after Pause
            self._state = BarState.RENDERING
        self._show()

    def set_state(self, state: BarState) -> None:
        self._state = BarState(state)
        self._show()

    def eta_text(self) -> str:
        return self.eta_label.text()

    def _show(self) -> None:
        p = self._last
        if p is None:
            for bar in (self.chapter_bar, self.overall_bar):
                bar.setRange(0, 1)
                bar.setValue(0)
            self.chapter_label.setText(self.tr("Chapter"))
        else:
            self.chapter_label.setText(
                self.tr("Chapter %1").replace("%1", str(p.chapter_index + 1))
            )
            self.chapter_bar.setRange(0, max(p.chapter_total, 1))
            self.chapter_bar.setValue(p.chapter_done)
            self.overall_bar.setRange(0, max(p.total, 1))
            self.overall_bar.setValue(p.done)
        if self._state is BarState.PAUSED:
            self.eta_label.setText(self.tr("Paused"))
        elif self._state is BarState.CANCELLED:
            self.eta_label.setText(self.tr("Cancelled"))
        elif self._state is BarState.FINISHED:
            self.eta_label.setText(self.tr("Finished"))
        elif self._state is BarState.RENDERING and p is not None:
            self.eta_label.setText(self.format_eta(p.eta_seconds))
        else:
            self.eta_label.setText("")

    def format_eta(self, seconds) -> str:
        if seconds is None or not math.isfinite(seconds):
            return self.tr("Estimating the time left...")
        if seconds < 60:
            return self.tr("Less than a minute left")
        minutes = math.ceil(seconds / 60)
        if minutes < 120:
            return self.tr("About %1 min left").replace("%1", str(minutes))
        return self.tr("About %1 h left").replace("%1", f"{seconds / 3600:.1f}")

    def retranslate(self) -> None:
        self.overall_label.setText(self.tr("Overall"))
        self._show()
