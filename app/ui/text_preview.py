"""The preview under the text: exactly what will be spoken, made when Preview is pressed and
again a moment after typing stops while it is shown; a text too long to remake at each pause
says its preview is stale instead (the main window owns one, app/ui/main_window.py)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from app.core import StudioError


class TextPreview(QObject):
    # Up to this many characters the preview is made again as the text changes (normalizing runs
    # on the GUI thread); a longer text says it is stale instead, so typing never stalls
    # (test_a_long_text_s_preview_says_it_is_stale; figures:
    # docs/design/constants.md#preview_live_chars).
    PREVIEW_LIVE_CHARS = 5_000

    def __init__(self, text_panel, model, parent=None):
        super().__init__(parent)
        self.text_panel = text_panel
        self.model = model
        # A shown preview follows the text, a moment after typing stops (test_the_preview_follows_the_text).
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)
        self._timer.timeout.connect(self.show)
        text_panel.preview_button.clicked.connect(self.show)
        text_panel.editor.textChanged.connect(self._text_changed)

    def show(self) -> None:
        """Show exactly what will be spoken."""
        try:
            prepared = self.model.prepare(self.text_panel.text())
        except StudioError as exc:
            self.text_panel.show_preview(str(exc))
            return
        self.text_panel.show_preview(
            prepared.spoken + "".join(f"\n⚠ {w}" for w in prepared.warnings)
        )

    def _text_changed(self) -> None:
        if not self.text_panel.preview.isVisible():
            return
        if len(self.text_panel.editor.toPlainText()) <= self.PREVIEW_LIVE_CHARS:
            self._timer.start()
        else:
            self._timer.stop()
            self.text_panel.show_preview(
                self.tr("The text has changed; press Preview to see what will be spoken.")
            )
