"""The Narration window over a real project file: chapters and sentences shown with their
statuses; edits, new takes, take choice and locks go to the project and come back into the
table; rendering on the worker thread updates progress; the test model is called noise."""

import pytest
from PySide6.QtCore import Qt

from app.core import ModelKind
from app.ui.narration.controller import NarrationController
from app.ui.narration.window import NarrationWindow
from tests.ui.narration_support import FakeModel, FakeRenderer, FakeSpeech, make_project, tone

RUN_MS = 30_000


@pytest.fixture
def view(qtbot, tmp_path):
    project = make_project(tmp_path / "book.ctsproj")
    FakeRenderer.gate, FakeRenderer.made = None, []
    controller = NarrationController(FakeModel(), FakeSpeech(), renderer_factory=FakeRenderer)
    window = NarrationWindow(controller)
    qtbot.addWidget(window)
    controller.open(str(project.path))
    window.show()
    yield window
    window.close()
    assert controller.shutdown()


def _cell(window, row, column):
    m = window.table_model
    return m.data(m.index(row, column))


def _statuses(window):
    return [
        _cell(window, r, window.table_model.STATUS) for r in range(window.table_model.rowCount())
    ]


def test_chapters_on_the_left_and_the_first_chapter_s_sentences_in_the_table(view):
    assert [view.chapters.item(i).text() for i in range(view.chapters.count())] == ["One", "Two"]
    assert [_cell(view, r, view.table_model.TEXT) for r in range(3)] == [
        "Hello there.",
        "A second sentence.",
        "The third.",
    ]
    assert _statuses(view) == ["To render"] * 3
    assert view.windowTitle() == "Narration: book.ctsproj"
    view.chapters.setCurrentRow(1)
    assert (
        view.table_model.rowCount() == 1
        and _cell(view, 0, view.table_model.TEXT) == "Only one here."
    )


def test_the_test_model_is_named_noise_in_this_view(view):
    assert "noise, not speech" in view.test_banner.text()
    view.controller.model.status.model_kind = ModelKind.OFFICIAL
    view.controller.model.stateChanged.emit(None)
    assert view.test_banner.text() == ""


def test_render_adds_takes_updates_statuses_progress_and_waveform(qtbot, view):
    c = view.controller
    seen = []
    c.renderProgress.connect(seen.append)
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS) as ended:
        view.actions["render"].trigger()
    assert ended.args == ["finished", 0]
    assert [(p.chapter_done, p.chapter_total, p.done, p.total) for p in seen] == [
        (1, 3, 1, 4),
        (2, 3, 2, 4),
        (3, 3, 3, 4),
        (1, 1, 4, 4),
    ]
    assert view.render_bar.overall_bar.value() == 4 and view.render_bar.overall_bar.maximum() == 4
    assert view.render_bar.chapter_label.text() == "Chapter 2"
    assert view.render_bar.eta_text() == "Finished"
    assert _statuses(view) == ["Done"] * 3
    assert [_cell(view, r, view.table_model.DURATION) for r in range(3)] == ["0.5 s"] * 3
    assert _cell(view, 0, view.table_model.TAKE) == "1 of 1"
    assert view.status.text() == "Render finished. (test model: noise, not speech)"
    qtbot.waitUntil(
        lambda: len(view.chapter_wave.waveform.keys) == 3, timeout=RUN_MS
    )  # decoded off-thread
    wave = view.chapter_wave.waveform  # three sentences, boundaries where each starts
    assert len(wave.keys) == 3 and wave.starts == [0, 47, 94]
    assert view.chapter_wave.column_peaks(300)[1][-1] == pytest.approx(
        0.3, abs=1e-4
    )  # FLAC: 16 bits


def test_regenerate_edit_choose_and_lock_go_through_the_project(qtbot, view):
    c, project = view.controller, view.controller.project
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        c.render()
    view._reload_chapter()
    view.table.selectRow(1)
    first = view.selected_sentence()
    old_take = first.take_id
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        view.actions["regenerate"].trigger()  # a new seed, a new take, the old one kept
    again = project.sentence(first.id)
    assert again.seed != first.seed and again.take_id != old_take
    assert [t.id for t in project.takes(first.id)] == [old_take, again.take_id]
    assert _cell(view, 1, view.table_model.TAKE) == "2 of 2"
    assert view.takes.list.count() == 2

    view.takes.list.setCurrentRow(0)  # the first take back, from the takes panel
    view.takes.choose_button.click()
    assert project.sentence(first.id).take_id == old_take
    assert _cell(view, 1, view.table_model.TAKE) == "1 of 2"

    view.takes.list.setCurrentRow(1)
    view.takes.compare_button.click()  # the take in use, a gap, then the other
    played = c.speech.played[-1]
    assert len(played) == 2 * 12_000 + int(24_000 * 0.6)

    m = view.table_model
    assert m.setData(m.index(1, m.TEXT), "A changed sentence.") is False
    assert project.sentence(first.id).text == "A changed sentence."
    assert (
        _cell(view, 1, m.TEXT) == "A changed sentence." and _cell(view, 1, m.STATUS) == "To render"
    )

    view.actions["lock"].trigger()
    assert project.sentence(first.id).locked
    assert m.data(m.index(1, m.LOCK), Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    m.setData(m.index(1, m.TEXT), "Refused while locked.")
    assert project.sentence(first.id).text == "A changed sentence."
    assert "locked" in view.status.text()


def test_play_from_here_plays_the_rest_of_the_chapter(qtbot, view):
    c = view.controller
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        c.render()
    view._reload_chapter()
    view.table.selectRow(1)
    view.actions["play_from"].trigger()
    played = c.speech.played[-1]
    assert len(played) == 2 * (12_000 + int(24_000 * 0.3))
    assert played[0] == pytest.approx(0.2, abs=1e-4) and played[12_000 + 7_200] == pytest.approx(
        0.3, abs=1e-4
    )
    assert not played[12_000 : 12_000 + 7_200].any()  # the pause between sentences
    c.speech.busy = True  # Play in the main window goes on
    view.actions["play_from"].trigger()
    assert (
        len(c.speech.played) == 1
        and view.status.text() == "The main window is speaking; stop it first."
    )


def test_clicking_the_chapter_waveform_selects_that_sentence(qtbot, view):
    project = view.controller.project
    for _i, s in enumerate(project.sentences(project.chapters()[0].id)):
        project.add_take(s.id, tone(1.0, 0.2), seed=s.seed)
    view._reload_chapter()
    qtbot.waitUntil(lambda: len(view.chapter_wave.waveform.keys) == 3, timeout=RUN_MS)
    view.chapter_wave.resize(300, 60)
    qtbot.mouseClick(
        view.chapter_wave, Qt.MouseButton.LeftButton, pos=view.chapter_wave.rect().center()
    )
    assert view.selected_sentence().text == "A second sentence."
    assert view.sentence_wave.waveform.points == 24_000


def test_progress_pause_and_cancel_while_rendering(qtbot, view):
    import threading

    FakeRenderer.gate = threading.Semaphore(0)
    c = view.controller
    with qtbot.waitSignal(c.renderProgress, timeout=RUN_MS):
        c.render()
        FakeRenderer.gate.release()  # one sentence through
    assert view.actions["cancel"].isEnabled() and not view.actions["render"].isEnabled()
    assert view.render_bar.eta_text() == "About 6 min left"  # the renderer's ETA: 3 left x 120 s
    assert view.render_bar.chapter_bar.value() == 1 and view.render_bar.chapter_bar.maximum() == 3
    qtbot.waitUntil(lambda: _statuses(view)[0] == "Done", timeout=RUN_MS)
    view.actions["pause"].trigger()
    assert FakeRenderer.made[-1].paused and view.render_bar.eta_text() == "Paused"
    assert view.actions["pause"].text() == "Resume"
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS) as ended:
        view.actions["cancel"].trigger()
    assert ended.args == ["cancelled", 0] and FakeRenderer.made[-1].cancelled
    assert view.render_bar.eta_text() == "Cancelled" and view.actions["render"].isEnabled()
    assert _statuses(view) == ["Done", "To render", "To render"]  # what was made is kept


def test_the_render_bar_words_the_time_left(qtbot):
    from app.ui.narration.render_bar import RenderBar

    bar = RenderBar()
    qtbot.addWidget(bar)
    assert bar.format_eta(None) == "Estimating the time left..."
    assert bar.format_eta(30) == "Less than a minute left"
    assert bar.format_eta(61) == "About 2 min left"
    assert bar.format_eta(3 * 3600) == "About 3.0 h left"


def test_export_writes_the_chosen_takes_through_the_export_api(qtbot, view, tmp_path, monkeypatch):
    import soundfile as sf
    from PySide6.QtWidgets import QDialog, QFileDialog

    from app.narration.export.settings import ExportSettings
    from app.ui.narration.export_dialog import ExportDialog

    c = view.controller
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        c.render()
    c._export_settings = ExportSettings(
        format="wav", loudness=None, sentence_pause=0.5, chapter_pause=1.0, subtitles="srt"
    )
    monkeypatch.setattr(ExportDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "out" / "book"), "")
    )
    (tmp_path / "out").mkdir()
    with qtbot.waitSignal(c.exportEnded, timeout=RUN_MS) as ended:
        view.actions["export"].trigger()
    paths, _warnings = ended.args
    assert sorted(p.rsplit("/", 1)[-1] for p in paths) == ["book.srt", "book.wav"]
    info = sf.info(str(tmp_path / "out" / "book.wav"))
    with sf.SoundFile(str(tmp_path / "out" / "book.wav")) as written:
        assert (written.title, written.artist) == (
            "Book",
            "Jane Doe",
        )  # the book's, from the project
    # 4 sentences of 0.5 s, 2 pauses inside chapter one, 1 between the chapters
    assert info.frames == 4 * 12_000 + 2 * 12_000 + 24_000
    assert (tmp_path / "out" / "book.srt").read_text(encoding="utf-8").count("-->") == 4
    assert view.status.text().startswith("Exported 2 file(s)")


def test_the_export_dialog_makes_export_settings(qtbot):
    from app.narration.export.settings import ExportSettings
    from app.ui.narration.export_dialog import ExportDialog

    dialog = ExportDialog(ExportSettings(format="flac", subtitles="vtt", loudness=-20.0))
    qtbot.addWidget(dialog)
    assert dialog.format.currentText() == "FLAC" and dialog.subtitles.currentText() == "WebVTT"
    dialog.normalize.setChecked(False)
    dialog.per_chapter.setChecked(True)
    s = dialog.settings()
    assert (s.format, s.subtitles, s.loudness, s.per_chapter, s.one_file) == (
        "flac",
        "vtt",
        None,
        True,
        True,
    )
    dialog.one_file.setChecked(False)
    dialog.per_chapter.setChecked(False)
    assert not dialog.ok_button.isEnabled()  # ExportSettings needs one of them


def test_opening_another_project_mid_render_cancels_it_and_ignores_its_tail(qtbot, view, tmp_path):
    import threading

    FakeRenderer.gate = threading.Semaphore(0)
    c = view.controller
    messages = []
    c.failed.connect(messages.append)
    c.render()
    other = make_project(tmp_path / "other.ctsproj", chapters=(("Elsewhere", ("Untouched.",)),))
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS) as ended:
        c.open(str(other.path))  # cancels the first project's render
    assert ended.args[0] == "cancelled" and FakeRenderer.made[-1].cancelled
    assert view.chapters.item(0).text() == "Elsewhere" and _statuses(view) == ["To render"]
    assert messages == []


def test_a_cancel_that_comes_before_the_render_starts_still_cancels_it(qtbot):
    from app.workers.narration_worker import NarrationWorker

    worker = NarrationWorker(FakeRenderer)
    worker.cancel()  # queued: the worker thread has not begun it
    ended = []
    worker.ended.connect(lambda state, failed: ended.append(state))
    FakeRenderer.gate, FakeRenderer.made = None, []

    class Project:
        def pending(self):
            return []

        def chapters(self):
            return []

    worker.render(Project(), object(), None, {})
    assert FakeRenderer.made[-1].cancelled and len(ended) == 1
    worker.render(Project(), object(), None, {})  # the cancel was for that render only
    assert not FakeRenderer.made[-1].cancelled
