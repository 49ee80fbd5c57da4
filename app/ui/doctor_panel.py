"""The Doctor panel: every check with its status, expandable details and fix; Re-run, Copy, Save.

Check summaries and fixes come from app.doctor in the language in effect (app.i18n, which the
window switches with its own); on a language change the panel judges the same snapshot again,
so every row follows. The panel's own labels are Qt translations.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.atomic import write_text_atomic
from app.core import DeviceOption
from app.doctor.report import (
    fold_not_applicable,
    not_applicable_summary,
    not_applicable_title,
    render_text,
)
from app.doctor.result import MARKS
from app.doctor.runner import rejudge
from app.i18n import current_language
from app.ui.retranslate import Retranslating

FOLDED = "not_applicable"  # the data of the row the checks for another system fold into
COLORS = {
    "ok": "#2e7d32",
    "warn": "#b26a00",
    "fail": "#c62828",
    "skip": "#757575",
    "error": "#6a1b9a",
}


class DoctorPanel(Retranslating, QWidget):
    rerunRequested = Signal()

    def __init__(self, doctor=None, parent=None):
        """`doctor`: the DoctorController whose reports it shows and which Re-run asks."""
        super().__init__(parent)
        self.report = None
        self.tree = QTreeWidget()
        self.tree.setObjectName("doctorList")
        self.tree.setColumnCount(2)
        self.tree.setRootIsDecorated(True)
        self.tree.setWordWrap(True)
        self.tree.setColumnWidth(0, 240)
        self.summary = QLabel()
        self.summary.setObjectName("doctorSummary")
        self.summary.setWordWrap(True)
        self.rerun_button = QPushButton()
        self.rerun_button.setObjectName("doctorRerunButton")
        self.copy_button = QPushButton()
        self.copy_button.setObjectName("doctorCopyButton")
        self.save_button = QPushButton()
        self.save_button.setObjectName("doctorSaveButton")
        row = QHBoxLayout()
        row.addWidget(self.rerun_button)
        row.addStretch(1)
        row.addWidget(self.copy_button)
        row.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        layout.addLayout(row)
        self.rerun_button.clicked.connect(self.start_running)
        self.copy_button.clicked.connect(self.copy_report)
        self.save_button.clicked.connect(self.save_report)
        self.retranslate()
        self._update_buttons()
        if doctor is not None:
            self.rerunRequested.connect(lambda: doctor.run(quick=False))
            doctor.reportReady.connect(self.set_report)
            doctor.failed.connect(self.show_error)
            if doctor.report is not None:
                self.set_report(doctor.report)

    def start_running(self) -> None:
        self.summary.setText(self.tr("Checking this computer..."))
        self.rerun_button.setEnabled(False)
        self.rerunRequested.emit()

    def set_report(self, report, _quick: bool = False) -> None:
        self.report = report
        self.tree.clear()
        results, elsewhere = fold_not_applicable(report.results)
        for r in results:
            item = QTreeWidgetItem([f"{MARKS[r.status]} {r.title}", r.summary])
            item.setData(0, Qt.ItemDataRole.UserRole, r.id)
            item.setForeground(0, QBrush(QColor(COLORS[r.status])))
            item.setToolTip(1, r.summary)
            for label, text in ((self.tr("Details"), r.details), (self.tr("Fix"), r.fix)):
                if text:
                    child = QTreeWidgetItem([label, text])
                    child.setToolTip(1, text)
                    item.addChild(child)
            self.tree.addTopLevelItem(item)
            item.setExpanded(r.status in ("fail", "error"))
        if elsewhere:
            self.tree.addTopLevelItem(self._folded(elsewhere))
        self._show_summary()
        self._update_buttons()

    @staticmethod
    def _folded(elsewhere) -> QTreeWidgetItem:
        """One collapsed row for the checks of another system; each check, with its reason, a
        row under it."""
        item = QTreeWidgetItem(
            [f"{MARKS['skip']} {not_applicable_title()}", not_applicable_summary(elsewhere)]
        )
        item.setData(0, Qt.ItemDataRole.UserRole, FOLDED)
        item.setForeground(0, QBrush(QColor(COLORS["skip"])))
        for r in elsewhere:
            child = QTreeWidgetItem([r.title, r.summary])
            child.setData(0, Qt.ItemDataRole.UserRole, r.id)
            child.setToolTip(1, r.summary)
            item.addChild(child)
        item.setExpanded(False)
        return item

    def show_error(self, message: str) -> None:
        self.summary.setText(message)
        self._update_buttons()

    def item_for(self, check_id: str) -> QTreeWidgetItem | None:
        """A check's row: at the top, or under the folded row of checks for another system."""
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == check_id:
                return item
            if item.data(0, Qt.ItemDataRole.UserRole) == FOLDED:
                for j in range(item.childCount()):
                    if item.child(j).data(0, Qt.ItemDataRole.UserRole) == check_id:
                        return item.child(j)
        return None

    def _show_summary(self) -> None:
        if self.report is None:
            self.summary.setText(self.tr("Not checked yet."))
            return
        counts = {
            s: sum(r.status == s for r in self.report.results) for s in ("fail", "warn", "error")
        }
        rec = self.report.recommendation
        device = (rec.device if rec else DeviceOption.CPU).value.upper()
        self.summary.setText(
            self.tr("%1 problem(s), %2 warning(s). Recommended device: %3.")
            .replace("%1", str(counts["fail"] + counts["error"]))
            .replace("%2", str(counts["warn"]))
            .replace("%3", device)
        )

    def _update_buttons(self) -> None:
        self.rerun_button.setEnabled(True)
        has = self.report is not None
        self.copy_button.setEnabled(has)
        self.save_button.setEnabled(has)

    def report_text(self) -> str:
        return render_text(self.report, verbose=True) if self.report else ""

    def copy_report(self) -> None:
        QGuiApplication.clipboard().setText(self.report_text())

    def save_report(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Save report"), "chattts-studio-doctor.txt", self.tr("Text files (*.txt)")
        )
        if path:
            self.save_report_to(path)

    def save_report_to(self, path: str) -> bool:
        try:
            write_text_atomic(path, self.report_text() + "\n")
            return True
        except OSError as exc:
            QMessageBox.critical(
                self,
                self.tr("Save report"),
                self.tr("The report could not be saved: %1").replace(
                    "%1", exc.strerror or str(exc)
                ),
            )
            return False

    def retranslate(self) -> None:
        self.tree.setHeaderLabels([self.tr("Check"), self.tr("Result")])
        self.rerun_button.setText(self.tr("Re-run"))
        self.copy_button.setText(self.tr("Copy report"))
        self.save_button.setText(self.tr("Save report..."))
        if self.report is not None:
            self.set_report(
                self.report if self.report.language == current_language() else rejudge(self.report)
            )
        else:
            self._show_summary()


class DoctorDialog(Retranslating, QDialog):
    """The panel in its own window, reachable from the Help menu and the problem banner."""

    def __init__(self, panel: DoctorPanel, parent=None):
        super().__init__(parent)
        self.setObjectName("doctorDialog")
        self.panel = panel
        layout = QVBoxLayout(self)
        layout.addWidget(panel)
        self.resize(900, 560)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Diagnostics"))
