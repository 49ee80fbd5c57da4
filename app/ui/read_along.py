"""The window's side of the read-along and the transport: the sentence heard highlighted in
the text box (and the preview), Ctrl+click to play from a sentence, Pause/Resume, next and
previous sentence, the speed of saved audio, and Help > Keyboard shortcuts.

What plays and where it is: SpeechController.reading (app/ui/controllers/reading.py). A
highlight is shown only while the text box holds the text the audio was made from.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.core import StudioError


class ReadAlong(QObject):
    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window = window
        self.speech = window.speech
        self.reading = window.speech.reading
        self.text_panel = window.text_panel
        self.reading.speed = window.settings.playback_speed
        self.speech.readingAt.connect(self.refresh)
        self.speech.pausedChanged.connect(window.ui.show_paused)
        self.speech.readingAt.connect(self._update_pause_button)
        self.text_panel.editor.textChanged.connect(self.refresh)
        self.text_panel.editor.sentenceClicked.connect(self.play_from_position)
        window.ui.pause_button.clicked.connect(self.toggle_pause)
        window.history_panel.replaying.connect(self.show_replayed_text)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        """Space is Pause only while something plays: otherwise it stays the focused widget's
        (a button pressed from the keyboard, a check box). Only in this window: the Narration
        window has its own Space (tests/ui/test_narration_read_along.py)."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(watched, QWidget)
            and watched.window() is self.window
            and event.key() == Qt.Key.Key_Space
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and not self.reading.active
        ):
            event.accept()
        return False

    def _update_pause_button(self, *_args) -> None:
        self.window.ui.pause_button.setEnabled(self.reading.active)

    def refresh(self, *_args) -> None:
        """Highlight the sentence heard, where the text box shows the text it belongs to."""
        reading = self.reading
        same = reading.text is not None and reading.text == self.text_panel.text()
        segment = reading.current
        self.text_panel.highlight(reading.span(segment) if same and segment >= 0 else None)
        self.text_panel.highlight_preview(segment if same and reading.offset == 0 else -1)

    def show_replayed_text(self, text: str) -> None:
        """A replayed entry's text goes in the box (one edit, undone with Ctrl+Z) so it can be
        followed there."""
        if self.text_panel.text() != text:
            self.text_panel.replace_text(text)
        self.refresh()

    # -- transport ------------------------------------------------------------------------
    def toggle_pause(self) -> None:
        self.speech.toggle_pause()

    def next_sentence(self) -> None:
        self.speech.skip(+1)

    def previous_sentence(self) -> None:
        self.speech.skip(-1)

    def set_speed(self, speed: float) -> None:
        self.window.settings.playback_speed = speed
        self.reading.set_speed(self.window.settings.playback_speed)

    def play_from_position(self, position: int) -> None:
        """Ctrl+click: play from the sentence at `position`: from the audio just heard when it
        is this text's, else a new request from that sentence on."""
        text = self.text_panel.text()
        if self.reading.text == text:
            for segment, (start, end) in sorted(self.reading.spans().items()):
                if start <= position <= end and self.speech.play_from(segment):
                    return
        if self.speech.busy:
            return
        try:
            prepared = self.window.model.prepare(text)
        except StudioError as exc:
            self.window.status.setText(str(exc))
            return
        starts = [s[0] for s in prepared.spans if s is not None and s[0] <= position]
        start = max(starts, default=0)
        request = self.window.current_request()
        request.text = text[start:]
        self.window.start_request(request, text_offset=start, shown_text=text)

    def show_shortcuts(self) -> None:
        from app.ui.shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self.window).exec()
