"""A coloured strip above the editor: missing model, test model, no sound, errors."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

STYLES = {
    "error": "background:#fdecea; color:#611a15; border:1px solid #f5c2c0; border-radius:4px;",
    "warning": "background:#fff4e5; color:#663c00; border:1px solid #ffd8a8; border-radius:4px;",
    "info": "background:#e8f4fd; color:#0d3c61; border:1px solid #b6dcf7; border-radius:4px;",
}


class Banner(QFrame):
    def __init__(self, object_name: str, parent=None):
        super().__init__(parent)
        self.setObjectName(object_name)
        self.label = QLabel()
        self.label.setObjectName(f"{object_name}Text")
        self.label.setWordWrap(True)
        self.label.setStyleSheet("border:none; background:transparent;")
        self.button = QPushButton()
        self.button.setObjectName(f"{object_name}Button")
        self.button2 = QPushButton()
        self.button2.setObjectName(f"{object_name}Button2")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button2)
        layout.addWidget(self.button)
        self.hide()

    def show_message(
        self,
        text: str,
        level: str = "warning",
        button: str | None = None,
        button2: str | None = None,
    ) -> None:
        self.setStyleSheet(f"#{self.objectName()} {{{STYLES[level]}}}")
        self.label.setText(text)
        for widget, label in ((self.button, button), (self.button2, button2)):
            widget.setVisible(bool(label))
            if label:
                widget.setText(label)
        self.show()

    def text(self) -> str:
        """The message while shown, else empty."""
        return "" if self.isHidden() else self.label.text()
