"""Narration from the main window: the File menu's entries, a project made from a text file,
rendered by the window's own engine (the tiny random model), and closing the window stops the
narration thread with the rest."""

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import RUN_TIMEOUT_MS


def test_the_file_menu_offers_new_and_open_narration(make_window):
    window = make_window(start=False)
    actions = window.menus.actions
    assert actions["file.narration_new"].text() == "New &narration from file..."
    assert actions["file.narration_open"].text() == "Open narration pro&ject..."
    assert window.narration.window is None  # nothing made, no thread, until it is used


def test_a_text_file_becomes_a_project_rendered_by_the_window_s_engine(qtbot, window, tmp_path):
    source = tmp_path / "story.txt"
    source.write_text(
        "Chapter 1\n\nThe first line. The second line.\n\nChapter 2\n\nThe last line.\n",
        encoding="utf-8",
    )
    assert window.narration.create(str(source), str(tmp_path / "story.ctsproj"))
    view = window.narration.window
    assert view.isVisible() and view.chapters.count() == 2
    assert "noise, not speech" in view.test_banner.text()  # the tiny model is a test model
    rows = view.table_model.rowCount()
    assert rows >= 1
    c = view.controller
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_TIMEOUT_MS) as ended:
        view.actions["render"].trigger()
    assert ended.args[0] == "finished"
    project = c.project
    assert not project.pending() and all(s.take_id is not None for s in project.sentences())
    view._reload_chapter()
    assert all(view.table_model.data(view.table_model.index(r, 2)) == "Done" for r in range(rows))
    qtbot.waitUntil(lambda: view.chapter_wave.waveform.points > 0, timeout=RUN_TIMEOUT_MS)
    assert "(test model: noise, not speech)" in view.status.text()


def test_a_file_that_is_not_a_project_is_refused_with_a_sentence(
    make_window, tmp_path, monkeypatch
):
    window = make_window(start=False)
    shown = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda parent, title, text: shown.append((title, text))
    )
    bad = tmp_path / "not.ctsproj"
    bad.write_bytes(b"just some bytes, not SQLite")
    assert window.narration.open(str(bad)) is False
    assert shown and shown[0][0] == "The narration project could not be opened"
    assert "not.ctsproj" in shown[0][1] and "Traceback" not in shown[0][1]


@pytest.mark.parametrize("render_first", [False, True])
def test_closing_the_main_window_leaves_no_narration_thread(
    qtbot, make_window, tmp_path, render_first
):
    from app.workers.threads import running_threads

    window = make_window(start=render_first)  # rendering needs the model
    source = tmp_path / "s.txt"
    source.write_text("One sentence here. And another one.", encoding="utf-8")
    assert window.narration.create(str(source), str(tmp_path / "s.ctsproj"))
    if render_first:
        window.narration.controller.render()  # closing in the middle of a render cancels it
    assert any(t.objectName() == "narration-worker" for t in running_threads())
    window.close()
    assert not any(t.objectName() == "narration-worker" for t in running_threads())
