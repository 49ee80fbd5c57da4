"""The Narration window: a project as a document of its own, beside the main window.

What it shows and does as things happen: the chosen chapter's sentences, waveforms and the
selected sentence's takes, the toolbar's actions (rendering, listening, editing, export) and
when each is possible, a render's progress and end. It follows the NarrationController and the
window's model controller, which says when only a random-weight test model is loaded: then
every render here is called noise, not speech. Its widgets and where they sit (the chapter's
waveform marks each sentence's boundary) are window_layout.py's.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QListWidgetItem, QMainWindow

from app.i18n import again
from app.narration.render_state import RenderState
from app.ui.narration.render_bar import BarState
from app.ui.narration.sentence_model import SentenceTableModel
from app.ui.narration.window_layout import NarrationLayout
from app.ui.retranslate import Retranslating


class NarrationWindow(Retranslating, QMainWindow):
    def __init__(self, controller, parent=None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("narrationWindow")
        self.controller = c = controller
        self.chapter_id = None
        self.notices: list[str] = []
        self.ui = NarrationLayout(self, c.take_info)
        for name in (
            "test_banner",
            "notice_banner",
            "chapters",
            "table_model",
            "table",
            "chapter_wave",
            "sentence_wave",
            "takes",
            "render_bar",
            "render_target",
            "tries",
            "status",
            "actions",
        ):
            setattr(self, name, getattr(self.ui, name))  # the window's own widgets, by name
        self._status_text = None  # makes the status line's text, again after a language change
        self._wire()
        self.retranslate()
        self.update_actions()
        self.resize(1100, 700)

    def _wire(self) -> None:
        c = self.controller
        for name, handler in (
            ("render", c.render),
            ("pause", self.toggle_pause),
            ("cancel", c.cancel),
            ("play_from", self.play_from_here),
            ("stop", c.stop_playing),
            ("regenerate", self.regenerate),
            ("retake_flagged", c.retake_flagged),
            ("edit", self.edit_text),
            ("lock", self.toggle_lock),
            ("export", self.export),
        ):
            self.actions[name].triggered.connect(lambda _checked=False, h=handler: h())
        c.opened.connect(self.load_project)
        c.rowChanged.connect(self._on_row_changed)
        c.chapterChanged.connect(self._on_chapter_changed)
        c.waveformsReady.connect(lambda: self._on_chapter_changed(self.chapter_id))
        c.renderStarted.connect(self._on_render_started)
        c.renderProgress.connect(self.render_bar.show_progress)
        self.render_target.changed.connect(self._on_target_changed)
        c.renderEnded.connect(self._on_render_ended)
        c.failed.connect(
            lambda message: self.say(lambda: message)
        )  # said once, in its own language
        c.exportEnded.connect(self._on_export_ended)
        c.hearing.connect(self.show_hearing)
        self._transport_actions()
        c.model.stateChanged.connect(self._on_model_state)
        self.chapters.currentRowChanged.connect(self._on_chapter_row)
        self.table.selectionModel().currentRowChanged.connect(
            lambda *_: self._on_sentence_selected()
        )
        self.table_model.editRequested.connect(c.edit_text)
        self.table_model.lockRequested.connect(c.set_locked)
        self.chapter_wave.partClicked.connect(self.select_sentence)
        self.tries.valueChanged.connect(c.set_take_tries)
        self.takes.playRequested.connect(self._play_take)
        self.takes.compareRequested.connect(self._compare_takes)
        self.takes.chooseRequested.connect(
            lambda take: self._with_sentence(lambda s: c.choose_take(s.id, take))
        )
        self.takes.regenerateRequested.connect(self.regenerate)
        self.takes.takeSelected.connect(self._show_take)

    # -- what is shown ------------------------------------------------------------------------
    def load_project(self) -> None:
        c = self.controller
        self.setWindowTitle(self._title())
        self.chapters.blockSignals(True)
        self.chapters.clear()
        for chapter in c.chapters():
            item = QListWidgetItem(
                chapter.title or self.tr("Chapter %1").replace("%1", str(chapter.index + 1))
            )
            item.setData(Qt.ItemDataRole.UserRole, chapter.id)
            self.chapters.addItem(item)
        self.chapters.blockSignals(False)
        self.chapter_id = None
        self.tries.blockSignals(True)
        self.tries.setValue(c.take_tries())
        self.tries.blockSignals(False)
        self.chapters.setCurrentRow(0 if self.chapters.count() else -1)
        self._on_model_state()

    def say(self, make_text) -> None:
        """Show make_text() in the status line; it is called again when the language changes
        (test_switching_to_chinese_retranslates_the_narration_status)."""
        self._status_text = make_text
        self.status.setText(make_text())

    def show_notices(self, notices: list[str]) -> None:
        self.notices = list(notices)
        notices = [again(n) for n in notices]
        if notices:
            self.notice_banner.show_message(
                "\n".join(notices[:5])
                + (
                    "\n" + self.tr("... and %1 more").replace("%1", str(len(notices) - 5))
                    if len(notices) > 5
                    else ""
                ),
                "info",
                self.tr("Dismiss"),
            )
        else:
            self.notice_banner.hide()

    def _on_chapter_row(self, row: int) -> None:
        item = self.chapters.item(row)
        self.chapter_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        self._reload_chapter()

    def _reload_chapter(self) -> None:
        selected = self.selected_sentence()
        rows = self.controller.rows(self.chapter_id) if self.chapter_id is not None else []
        self.table_model.set_rows(rows)
        self.chapter_wave.set_waveform(
            self.controller.chapter_waveform(self.chapter_id)
            if self.chapter_id is not None
            else None
        )
        self._chapter_placeholder()
        if selected is not None and self.table_model.row_of(selected.id) >= 0:
            self.select_sentence(selected.id)
        elif rows:
            self.table.selectRow(0)
        self._on_sentence_selected()

    def _on_row_changed(self, row) -> None:
        self.table_model.update_row(row)
        selected = self.selected_sentence()
        if selected is not None and selected.id == row.sentence.id:
            self._on_sentence_selected()

    def _on_chapter_changed(self, chapter_id) -> None:
        if chapter_id == self.chapter_id and chapter_id is not None:
            self.chapter_wave.set_waveform(
                self.controller.chapter_waveform(chapter_id), self.chapter_wave.selected
            )
            self._chapter_placeholder()

    def _chapter_placeholder(self) -> None:
        self.chapter_wave.set_placeholder(
            self.tr("Reading the audio...")
            if self.controller.envelopes.pending()
            else self.tr("Render the chapter to see its waveform")
        )

    def selected_sentence(self):
        index = self.table.currentIndex()
        return self.table_model.sentence(index.row()) if index.isValid() else None

    def select_sentence(self, sentence_id) -> None:
        row = self.table_model.row_of(sentence_id)
        if row >= 0:
            self.table.selectRow(row)
            self.table.scrollTo(self.table_model.index(row, 0))

    def _on_sentence_selected(self) -> None:
        sentence = self.selected_sentence()
        self.chapter_wave.select(sentence.id if sentence is not None else None)
        if sentence is None:
            self.takes.set_takes([], None, enabled=False)
            self.sentence_wave.set_waveform(None)
        else:
            self.takes.set_takes(self.controller.takes(sentence.id), sentence.take_id)
            self._show_take(sentence.take_id)
        self.update_actions()

    def _show_take(self, take_id) -> None:
        self.sentence_wave.set_waveform(
            self.controller.sentence_waveform(take_id) if take_id is not None else None
        )

    def show_hearing(self, sentence_id) -> None:
        """The sentence heard in bold, selected and in view (None: nothing of ours plays). An
        edit in progress keeps its row: selecting another would close the editor."""
        self.table_model.set_hearing(sentence_id)
        row = self.table_model.row_of(sentence_id) if sentence_id is not None else -1
        if row < 0:
            return
        editing = self.table.state() == QAbstractItemView.State.EditingState
        if not editing and self.table.currentIndex().row() != row:
            self.table.selectRow(row)
        self.table.scrollTo(self.table_model.index(row, 0))

    def _transport_actions(self) -> None:
        """Pause/Resume and next/previous sentence of what plays, with the main window's keys;
        Space types in a text being edited (the editor takes it first)."""
        speech = self.controller.speech
        self.transport: dict[str, QAction] = {}
        for name, keys, handler in (
            ("pause_playback", "Space", speech.toggle_pause),
            ("next_sentence", "Alt+Right", lambda: speech.skip(+1)),
            ("previous_sentence", "Alt+Left", lambda: speech.skip(-1)),
        ):
            action = QAction(self)
            action.setObjectName(f"narration_{name}")
            action.setShortcut(QKeySequence(keys))
            action.triggered.connect(lambda _checked=False, h=handler: h())
            self.addAction(action)
            self.transport[name] = action

    def _retranslate_transport(self) -> None:
        for name, text in (
            ("pause_playback", self.tr("Pause or resume playback")),
            ("next_sentence", self.tr("Next sentence")),
            ("previous_sentence", self.tr("Previous sentence")),
        ):
            self.transport[name].setText(text)

    # -- actions --------------------------------------------------------------------------------
    def _with_sentence(self, fn) -> None:
        sentence = self.selected_sentence()
        if sentence is not None:
            fn(sentence)

    def _can_play(self) -> bool:
        """Listening says why nothing would be heard (test_switching_to_chinese_retranslates_the_narration_status)."""
        speech = self.controller.speech
        problem = getattr(speech.output, "problem", None)
        if problem:
            self.say(lambda: again(problem))  # it says already that nothing can be played
            return False
        if speech.busy:
            self.say(lambda: self.tr("The main window is speaking; stop it first."))
            return False
        return True

    def _play_take(self, take) -> None:
        if self._can_play():
            self.controller.play_take(take)

    def _compare_takes(self, chosen, other) -> None:
        if self._can_play():
            self.controller.compare(chosen, other)

    def play_from_here(self) -> None:
        if not self._can_play():
            return
        self._with_sentence(
            lambda s: (
                self.controller.play_from(s.id)
                or self.say(lambda: self.tr("Nothing rendered to play from here yet."))
            )
        )

    def regenerate(self) -> None:
        self._with_sentence(lambda s: self.controller.regenerate(s.id))

    def edit_text(self) -> None:
        self._with_sentence(
            lambda s: self.table.edit(
                self.table_model.index(self.table_model.row_of(s.id), SentenceTableModel.TEXT)
            )
        )

    def toggle_lock(self) -> None:
        self._with_sentence(lambda s: self.controller.set_locked(s.id, not s.locked))

    def export(self) -> None:
        from app.ui.narration.exporting import run_export_dialog

        run_export_dialog(self, self.controller)

    def _on_export_ended(self, paths, warnings) -> None:
        from app.ui.narration.exporting import show_export_result

        show_export_result(self, paths, warnings)
        self.update_actions()

    def _on_target_changed(self, target) -> None:
        self.controller.target = target
        self.update_actions()

    def update_actions(self, *_args) -> None:
        c = self.controller
        self.render_target.set_enabled_for_render(not c.rendering)
        has_project, has_sentence = c.project is not None, self.selected_sentence() is not None
        self.actions["render"].setEnabled(c.can_render())
        self.actions["pause"].setEnabled(c.rendering)
        self.actions["cancel"].setEnabled(c.rendering)
        unlocked = has_sentence and not self.selected_sentence().locked
        self.actions["regenerate"].setEnabled(
            unlocked and c.model.engine() is not None and not c.rendering
        )
        self.takes.regenerate_button.setEnabled(self.actions["regenerate"].isEnabled())
        self.tries.setEnabled(has_project and not c.rendering)
        self.actions["retake_flagged"].setEnabled(c.can_retake_flagged())
        self.actions["edit"].setEnabled(unlocked)
        for name in ("play_from", "lock"):
            self.actions[name].setEnabled(has_sentence)
        self.actions["export"].setEnabled(has_project and not c.rendering and not c.exporting)
        self.actions["pause"].setText(self.tr("Resume") if c.paused else self.tr("Pause"))

    def _on_render_started(self) -> None:
        self.render_bar.set_state(BarState.RENDERING)
        self.say(lambda: self.tr("Rendering...") + self.noise_note())
        self.update_actions()

    def toggle_pause(self) -> None:
        self.controller.pause()
        self.render_bar.set_state(BarState.PAUSED if self.controller.paused else BarState.RENDERING)
        self.update_actions()

    def _on_render_ended(self, state: str, failed: int) -> None:
        self.render_bar.set_state(
            {
                RenderState.FINISHED: BarState.FINISHED,
                RenderState.STOPPED: BarState.CANCELLED,
                RenderState.CANCELLED: BarState.CANCELLED,
            }.get(state, BarState.IDLE)
        )
        before = self._status_text
        flagged = len(self.controller.flagged)
        notes = [again(n) for n in self.controller.render_notes]

        def text():
            words = {
                RenderState.FINISHED: self.tr("Render finished."),
                RenderState.STOPPED: self.tr("Render cancelled."),
                RenderState.CANCELLED: self.tr("Render cancelled."),
            }
            said = words[state] if state in words else before() if before else ""
            if failed:
                said += " " + self.tr("%1 sentence(s) failed; the table says why.").replace(
                    "%1", str(failed)
                )
            if flagged:
                said += " " + self.tr(
                    "%1 sentence(s) flagged by the take check; the Status column says why."
                ).replace("%1", str(flagged))
            for note in notes:
                said += " " + note
            return said + self.noise_note()

        self.say(text)
        self._reload_chapter()
        self.update_actions()

    # -- a test model is never passed off as speech -------------------------------------------
    def makes_noise(self) -> bool:
        return self.controller.model.makes_noise()

    def noise_note(self) -> str:
        return self.tr(" (test model: noise, not speech)") if self.makes_noise() else ""

    def _on_model_state(self, *_args) -> None:
        if self.makes_noise():
            self.test_banner.show_message(
                self.tr(
                    "A random-weight test model is loaded: what it renders here is noise, not speech. "
                    "Choose the official ChatTTS model folder in the main window before rendering a book."
                ),
                "warning",
            )
        elif self.controller.model.engine() is None:
            self.test_banner.show_message(
                self.tr(
                    "No model is loaded: you can read and edit the project, and rendering starts once a "
                    "model is loaded in the main window."
                ),
                "info",
            )
        else:
            self.test_banner.hide()
        self.update_actions()

    def _title(self) -> str:
        name = self.controller.path.name if self.controller.path is not None else ""
        return self.tr("Narration: %1").replace("%1", name)

    def retranslate(self) -> None:
        self.ui.retranslate()
        self._retranslate_transport()
        self._chapter_placeholder()
        self.setWindowTitle(self._title())
        self.table_model.retranslate()
        self.update_actions()
        self._on_model_state()
        if self._status_text is not None:
            self.status.setText(self._status_text())
        if self.notices and not self.notice_banner.isHidden():
            self.show_notices(self.notices)

    def closeEvent(self, event) -> None:
        self.controller.stop_playing()
        super().closeEvent(event)
