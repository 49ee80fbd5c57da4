"""The small floating player shown while reading from the tray or the hotkey (optional, Text >
Reading from anywhere): the sentence being heard, Pause/Resume, Stop and Next sentence.

It follows the speech controller like the window does (readingAt, pausedChanged) and goes
away by itself once nothing is read or played any more.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.ui.retranslate import Retranslating

MARGIN_PX = 24  # from the screen's corner
WIDTH_PX = 360
SHOWN_CHARS = 300  # of the sentence heard: unpunctuated clipboard text is one long "sentence"


class MiniPlayer(Retranslating, QWidget):
    def __init__(self, speech, stop: Callable[[], object], parent=None):
        # A window of its own (no parent widget): it floats above the others, never taking
        # the focus from the program the user reads from.
        super().__init__(parent)
        self.setObjectName("miniPlayer")
        self.setWindowFlags(
            Qt.WindowType.Tool
            | Qt.WindowType.WindowStaysOnTopHint
            | Qt.WindowType.WindowDoesNotAcceptFocus
        )
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFixedWidth(WIDTH_PX)
        self._speech = speech
        self._waiting = True  # no sentence heard yet
        self.sentence = QLabel()
        self.sentence.setObjectName("miniSentence")
        self.sentence.setWordWrap(True)
        self.pause = QPushButton()
        self.pause.setObjectName("miniPause")
        self.stop = QPushButton()
        self.stop.setObjectName("miniStop")
        self.next = QPushButton()
        self.next.setObjectName("miniNext")
        self.pause.clicked.connect(speech.toggle_pause)
        self.stop.clicked.connect(lambda: stop())
        self.next.clicked.connect(lambda: speech.skip(+1))
        buttons = QHBoxLayout()
        for button in (self.pause, self.stop, self.next):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.sentence)
        layout.addLayout(buttons)
        speech.readingAt.connect(self._on_reading_at)
        speech.pausedChanged.connect(self._name_pause)
        speech.busyChanged.connect(self._hide_when_over)
        self.retranslate()

    @property
    def reading(self):
        return self._speech.reading

    def open(self) -> None:
        """Show it in the corner of the screen, with what is heard now."""
        self._on_reading_at(self.reading.current, None)
        self.adjustSize()
        screen = QGuiApplication.primaryScreen()
        if screen is not None:
            area = screen.availableGeometry()
            self.move(
                area.right() - self.width() - MARGIN_PX, area.bottom() - self.height() - MARGIN_PX
            )
        self.show()

    def _on_reading_at(self, segment: int, _span=None) -> None:
        span = self.reading.span(segment) if segment >= 0 else None
        text = self.reading.text
        self._waiting = span is None or text is None
        if span is not None and text is not None:
            self.sentence.setText(shortened(text[span[0] : span[1]].strip()))
        elif not self._speech.busy and not self.reading.active:
            self._hide_when_over()
        else:
            self.sentence.setText(self.tr("Getting ready to read..."))
        self.next.setEnabled(segment >= 0)
        self.pause.setEnabled(self.reading.active)

    def _hide_when_over(self, *_args) -> None:
        if not self._speech.busy and not self.reading.active:
            self.hide()
            self.sentence.clear()

    def _name_pause(self, *_args) -> None:
        self.pause.setText(self.tr("Resume") if self.reading.paused else self.tr("Pause"))

    def close_for_good(self) -> None:
        """Gone with the window: it holds the speech controller's signals."""
        self._speech.readingAt.disconnect(self._on_reading_at)
        self._speech.pausedChanged.disconnect(self._name_pause)
        self._speech.busyChanged.disconnect(self._hide_when_over)
        self.hide()
        self.deleteLater()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("ChatTTS Studio"))
        self._name_pause()
        self.stop.setText(self.tr("Stop"))
        self.next.setText(self.tr("Next sentence"))
        if self._waiting and self.isVisible():
            self.sentence.setText(self.tr("Getting ready to read..."))


def shortened(sentence: str) -> str:
    """The sentence as shown: its first SHOWN_CHARS characters and an ellipsis, so that the
    player keeps to the corner of the screen."""
    if len(sentence) <= SHOWN_CHARS:
        return sentence
    return sentence[: SHOWN_CHARS - 1].rstrip() + "\u2026"
