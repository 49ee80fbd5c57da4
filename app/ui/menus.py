"""Menus as data: each menu a list of plain entries (id, label, shortcut, handler, when it is
enabled or checked), built into QMenus by one function. Nothing is set on the window: the
built `Menus` keeps the actions by id.

Labels are source texts marked with QT_TRANSLATE_NOOP("Menus", ...) where the entries are
written; they are translated in the "Menus" context each time the language changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

CONTEXT = "Menus"
NOTE_CHARS = 70  # a longer note is cut in the menu; its tip has it whole


@dataclass(frozen=True)
class Entry:
    id: str
    label: str
    handler: Callable[[], object] | None = None
    shortcut: QKeySequence.StandardKey | str | None = None
    enabled_when: Callable[[], bool] | None = None
    checked_when: Callable[[], bool] | None = None  # makes it checkable
    group: str | None = None  # checkable entries of one group exclude each other
    translated: bool = True  # language names are written in their own language
    note_when: Callable[[], str | None] | None = (
        None  # why it is disabled: shown after the label and as its tip
    )


@dataclass(frozen=True)
class Menu:
    id: str
    title: str
    entries: list = field(default_factory=list)  # Entry, or None for a separator
    fill: Callable[[QMenu], None] | None = None  # rebuilt each time it opens (sound devices)


def translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


class Menus(QObject):
    """The built menus: `menus[id]`, `actions[id]`; refresh() re-reads enabled/checked."""

    def __init__(self, bar: QMenuBar, spec: list[Menu]):
        super().__init__(bar)
        self.spec = spec
        self.menus: dict[str, QMenu] = {}
        self.actions: dict[str, QAction] = {}
        self.entries: dict[str, Entry] = {}
        groups: dict[str, QActionGroup] = {}
        for menu_spec in spec:
            menu = bar.addMenu("")
            menu.setObjectName(f"{menu_spec.id}Menu")
            self.menus[menu_spec.id] = menu
            if menu_spec.fill is not None:
                menu.aboutToShow.connect(lambda m=menu, fill=menu_spec.fill: fill(m))
                continue
            menu.aboutToShow.connect(self.refresh)
            menu.setToolTipsVisible(True)
            for entry in menu_spec.entries:
                if entry is None:
                    menu.addSeparator()
                    continue
                self.actions[entry.id] = self._action(menu, entry, groups)
                self.entries[entry.id] = entry
        self.refresh()
        self.retranslate()

    def _action(self, menu: QMenu, entry: Entry, groups: dict) -> QAction:
        action = menu.addAction("")
        action.setObjectName(entry.id)
        if entry.shortcut is not None:
            action.setShortcut(QKeySequence(entry.shortcut))
        if entry.checked_when is not None:
            action.setCheckable(True)
            if entry.group:
                if entry.group not in groups:
                    groups[entry.group] = QActionGroup(self)
                groups[entry.group].addAction(action)
        if entry.handler is not None:
            action.triggered.connect(lambda _checked=False, handler=entry.handler: handler())
        return action

    def refresh(self) -> None:
        for entry_id, entry in self.entries.items():
            action = self.actions[entry_id]
            if entry.enabled_when is not None:
                action.setEnabled(bool(entry.enabled_when()))
            if entry.checked_when is not None:
                action.setChecked(bool(entry.checked_when()))
            if entry.note_when is not None:
                self._label(entry)

    def _label(self, entry: Entry) -> None:
        action = self.actions[entry.id]
        text = translate(entry.label) if entry.translated else entry.label
        note = entry.note_when() if entry.note_when is not None else None
        if note:
            short = note if len(note) <= NOTE_CHARS else note[: NOTE_CHARS - 1].rstrip() + "…"
            text = f"{text}: {short}"
        action.setText(text)
        action.setToolTip(note or "")
        action.setStatusTip(note or "")

    def retranslate(self) -> None:
        for menu_spec in self.spec:
            self.menus[menu_spec.id].setTitle(translate(menu_spec.title))
        for entry in self.entries.values():
            self._label(entry)


def build_menus(bar: QMenuBar, spec: list[Menu]) -> Menus:
    return Menus(bar, spec)
