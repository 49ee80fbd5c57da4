"""The takes of the selected sentence: listen to one, compare it with the chosen one, use it,
or ask for a new take (a new seed)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.retranslate import Retranslating


def _button(name: str) -> QPushButton:
    button = QPushButton()
    button.setObjectName(name)
    return button


class TakesPanel(Retranslating, QWidget):
    playRequested = Signal(object)  # take id
    compareRequested = Signal(object, object)  # chosen take id, other take id
    chooseRequested = Signal(object)  # take id
    regenerateRequested = Signal()
    takeSelected = Signal(object)  # take id (to show its waveform)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._takes: list = []
        self._chosen = None
        self.title = QLabel()
        self.title.setObjectName("takesTitle")
        self.list = QListWidget()
        self.list.setObjectName("takesList")
        self.play_button = _button("takePlayButton")
        self.compare_button = _button("takeCompareButton")
        self.choose_button = _button("takeChooseButton")
        self.regenerate_button = _button("takeRegenerateButton")
        buttons = QHBoxLayout()
        for button in (self.play_button, self.compare_button, self.choose_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.regenerate_button)
        self.play_button.clicked.connect(lambda: self._emit_selected(self.playRequested))
        self.choose_button.clicked.connect(lambda: self._emit_selected(self.chooseRequested))
        self.compare_button.clicked.connect(self._compare)
        self.regenerate_button.clicked.connect(self.regenerateRequested)
        self.list.currentRowChanged.connect(self._on_row)
        self.list.itemDoubleClicked.connect(lambda _item: self._emit_selected(self.playRequested))
        self.set_takes([], None, enabled=False)
        self.retranslate()

    def set_takes(self, takes: list, chosen_id, enabled: bool = True) -> None:
        """The sentence's takes, oldest first; `enabled` is False when no sentence is selected."""
        self._takes, self._chosen = list(takes), chosen_id
        self.list.blockSignals(True)
        self.list.clear()
        for number, take in enumerate(self._takes, 1):
            item = QListWidgetItem(self._label(number, take))
            item.setData(Qt.ItemDataRole.UserRole, take.id)
            self.list.addItem(item)
        self._fit_rows()
        chosen_row = next((i for i, t in enumerate(self._takes) if t.id == chosen_id), -1)
        self.list.setCurrentRow(chosen_row)
        self.list.blockSignals(False)
        self.regenerate_button.setEnabled(enabled)
        self._update_buttons()

    def selected_take(self):
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _label(self, number: int, take) -> str:
        text = (
            self.tr("Take %1: seed %2, %3 s")
            .replace("%1", str(number))
            .replace("%2", str(take.seed))
            .replace("%3", f"{take.duration:.1f}")
        )
        # The mark first, so a narrow list never cuts it off.
        return ("✓ " + self.tr("in use") + " · " if take.id == self._chosen else "") + text

    def _fit_rows(self) -> None:
        """The list is at least as wide as its widest row (test_take_rows_are_not_clipped_in_chinese)."""
        metrics = self.list.fontMetrics()
        widest = max(
            (metrics.horizontalAdvance(self.list.item(r).text()) for r in range(self.list.count())),
            default=0,
        )
        self.list.setMinimumWidth(
            widest
            + 2 * self.list.frameWidth()
            + self.list.verticalScrollBar().sizeHint().width()
            + 16
        )

    def _on_row(self, _row: int) -> None:
        self._update_buttons()
        take = self.selected_take()
        if take is not None:
            self.takeSelected.emit(take)

    def _update_buttons(self) -> None:
        take = self.selected_take()
        self.play_button.setEnabled(take is not None)
        self.choose_button.setEnabled(take is not None and take != self._chosen)
        self.compare_button.setEnabled(
            take is not None and self._chosen is not None and take != self._chosen
        )

    def _emit_selected(self, signal) -> None:
        take = self.selected_take()
        if take is not None:
            signal.emit(take)

    def _compare(self) -> None:
        take = self.selected_take()
        if take is not None and self._chosen is not None:
            self.compareRequested.emit(self._chosen, take)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Takes of the selected sentence"))
        self.play_button.setText(self.tr("Play"))
        self.play_button.setToolTip(self.tr("Listen to the selected take"))
        self.compare_button.setText(self.tr("Compare"))
        self.compare_button.setToolTip(self.tr("Play the take in use, then the selected one"))
        self.choose_button.setText(self.tr("Use this take"))
        self.regenerate_button.setText(self.tr("New take (new seed)"))
        self.regenerate_button.setToolTip(
            self.tr("Render this sentence again with another seed; the earlier takes are kept")
        )
        self.set_takes(self._takes, self._chosen, self.regenerate_button.isEnabled())
