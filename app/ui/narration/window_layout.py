"""The Narration window's widgets and where they sit: chapters on the left, the sentence table
with the chapter's and the sentence's waveforms in the middle, takes on the right, the toolbar's
actions with their shortcuts and words, banners above and the render bar below. The window
(window.py) wires them to its controller and reacts to what they say."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QListWidget,
    QMainWindow,
    QSpinBox,
    QSplitter,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.ui.banner import Banner
from app.ui.narration.render_bar import RenderBar
from app.ui.narration.render_target import RenderTargetBox
from app.ui.narration.sentence_model import SentenceTableModel
from app.ui.narration.takes_panel import TakesPanel
from app.ui.narration.waveform import WaveformView

# The toolbar: (action name, shortcut) in order, None for a separator; the render target box
# sits before "play_from", beside the buttons of the render it sets.
TOOLBAR: tuple[tuple[str, str | None] | None, ...] = (
    ("render", "Ctrl+R"),
    ("pause", None),
    ("cancel", None),
    None,
    ("play_from", "Ctrl+Space"),
    ("stop", None),
    None,
    ("regenerate", "Ctrl+G"),
    ("retake_flagged", None),
    ("edit", "F2"),
    ("lock", "Ctrl+L"),
    None,
    ("export", "Ctrl+E"),
)


class NarrationLayout(QObject):
    def __init__(self, window: QMainWindow, take_info):
        super().__init__(window)
        self.test_banner = Banner("narrationTestBanner")
        self.notice_banner = Banner("narrationNoticeBanner")
        self.notice_banner.button.clicked.connect(self.notice_banner.hide)
        self.chapters = QListWidget()
        self.chapters.setObjectName("narrationChapters")
        self.table_model = SentenceTableModel(window, take_info=take_info)
        self.table = QTableView()
        self.table.setObjectName("narrationSentences")
        self.table.setModel(self.table_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        # Fixed widths but for the text: sizing a column to its contents reads every row, and a
        # row's take count is a query.
        header = self.table.horizontalHeader()
        for column, width in (
            (SentenceTableModel.NUMBER, 44),
            (SentenceTableModel.STATUS, 90),
            (SentenceTableModel.DURATION, 70),
            (SentenceTableModel.TAKE, 60),
            (SentenceTableModel.LOCK, 50),
        ):
            header.resizeSection(column, width)
        header.setSectionResizeMode(SentenceTableModel.TEXT, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().hide()
        self.chapter_wave = WaveformView()
        self.chapter_wave.setObjectName("chapterWaveform")
        self.sentence_wave = WaveformView()
        self.sentence_wave.setObjectName("sentenceWaveform")
        self.takes = TakesPanel()
        self.render_bar = RenderBar()
        self.render_target = RenderTargetBox()
        self.status = QLabel()
        self.status.setObjectName("narrationStatus")
        # Takes a flagged sentence gets (the project's setting), beside Re-take flagged.
        self.tries_label = QLabel()
        self.tries = QSpinBox()
        self.tries.setObjectName("narrationTries")
        self.tries.setRange(1, 10)
        self.actions: dict[str, QAction] = {}
        self._build_toolbar(window)
        self._layout(window)

    def _build_toolbar(self, window: QMainWindow) -> None:
        bar = QToolBar()
        bar.setObjectName("narrationToolbar")
        bar.setMovable(False)
        window.addToolBar(bar)
        for spec in TOOLBAR:
            if spec is None:
                bar.addSeparator()
                continue
            name, keys = spec
            if name == "play_from":  # where the render runs, beside its buttons
                bar.addWidget(self.render_target)
                bar.addSeparator()
            action = bar.addAction("")
            action.setObjectName(f"narration_{name}")
            if keys:
                action.setShortcut(QKeySequence(keys))
            self.actions[name] = action
            if name == "retake_flagged":
                bar.addWidget(self.tries_label)
                bar.addWidget(self.tries)

    def _layout(self, window: QMainWindow) -> None:
        middle = QSplitter(Qt.Orientation.Vertical)
        middle.addWidget(self.table)
        middle.addWidget(self.chapter_wave)
        middle.addWidget(self.sentence_wave)
        middle.setStretchFactor(0, 4)
        middle.setSizes([420, 140, 110])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.chapters)
        split.addWidget(middle)
        split.addWidget(self.takes)
        split.setStretchFactor(1, 4)
        split.setSizes([200, 650, 250])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self.test_banner)
        layout.addWidget(self.notice_banner)
        layout.addWidget(split, 1)
        layout.addWidget(self.render_bar)
        window.setCentralWidget(central)
        window.statusBar().addWidget(self.status, 1)

    def retranslate(self) -> None:
        """The actions' words and tips, and the sentence waveform's placeholder."""
        labels = {
            "render": (
                self.tr("Render"),
                self.tr("Render every sentence not yet rendered (Ctrl+R)"),
            ),
            "cancel": (self.tr("Cancel"), self.tr("Stop rendering; finished sentences are kept")),
            "play_from": (
                self.tr("Play from here"),
                self.tr("Play the chapter from the selected sentence"),
            ),
            "stop": (self.tr("Stop"), self.tr("Stop playing")),
            "regenerate": (
                self.tr("New take"),
                self.tr("Render the selected sentence again with a new seed"),
            ),
            "retake_flagged": (
                self.tr("Re-take flagged"),
                self.tr(
                    "Render again, each with its next seed, every sentence whose take the "
                    "take check flagged (a warning sign in the Status column)"
                ),
            ),
            "edit": (self.tr("Edit text"), self.tr("Change the selected sentence's text (F2)")),
            "lock": (
                self.tr("Lock"),
                self.tr(
                    "Lock or unlock the selected sentence: a locked sentence "
                    "keeps its text and take until it is unlocked (Ctrl+L)"
                ),
            ),
            "export": (self.tr("Export..."), self.tr("Write audio files and subtitles")),
        }
        for name, (text, tip) in labels.items():
            self.actions[name].setText(text)
            self.actions[name].setToolTip(tip)
        self.tries_label.setText(self.tr("Tries:"))
        tip = self.tr(
            "How many takes a sentence gets when the take check flags them; the best is kept "
            "(saved in the project)"
        )
        self.tries_label.setToolTip(tip)
        self.tries.setToolTip(tip)
        self.sentence_wave.set_placeholder(
            self.tr("Select a rendered sentence to see its waveform")
        )
