"""The window's rough edges of a first week of use (issue 39, items 10-23): each button says
what it did or why it did nothing, and the sizes, names and rows a user reads are right (the
language switch: test_language_switch_rows.py)."""

import re
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from app.audio.playback import NO_DEVICE
from app.i18n import _
from app.library import VoiceLibrary
from app.selftest.fake_audio import FakeOutput
from app.ui.history_panel import default_export_name
from app.ui.voice_panel import VoicePanel
from app.voices.speakers import encode_speaker
from tests.ui.conftest import RUN_TIMEOUT_MS, run_to_end

README = Path(__file__).resolve().parents[2] / "README.md"
HAN = re.compile(r"[\u4e00-\u9fff]")


def _no_device_window(make_window):
    return make_window(output=FakeOutput(problem=_(NO_DEVICE)))


# -- 10 Save voice ------------------------------------------------------------------------------
def test_save_voice_keeps_the_name_and_is_offered_once_there_is_a_voice(qtbot, window, monkeypatch):
    panel = window.voice_panel
    messages = []
    panel.message.connect(messages.append)
    asked = []
    monkeypatch.setattr(
        QInputDialog, "getText", lambda *a, **k: (asked.append(a), ("旁白 narrator", True))[1]
    )
    assert not panel.save_button.isEnabled()  # nothing known yet: not offered
    assert "Play something" in panel.save_button.toolTip()
    panel._ask_and_save()  # a shortcut or a stale click
    assert asked == [] and "Play something" in messages[-1]  # no name asked, then thrown away

    run_to_end(qtbot, window, "音色。")
    assert panel.save_button.isEnabled()
    qtbot.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    saved = VoiceLibrary().list()
    assert [v.name for v in saved] == ["旁白 narrator"] and saved[0].seed == panel.seed_value()
    assert saved[0].speaker == window.history.entries()[0].speaker
    assert panel.speaker.text() == "旁白 narrator"  # the field now names the saved voice


# -- 13 buttons that did nothing -----------------------------------------------------------
def test_replay_without_a_device_says_why(qtbot, make_window):
    window = _no_device_window(make_window)
    run_to_end(qtbot, window, "重播。")
    qtbot.mouseClick(window.history_panel.buttons["replay"], Qt.MouseButton.LeftButton)
    assert (
        window.status.text() == NO_DEVICE
    )  # once, not "Nothing can be played: ... nothing can be played"


def test_paste_with_an_empty_or_a_bad_clipboard_says_why(qtbot, tmp_path):
    panel = VoicePanel(VoiceLibrary(tmp_path / "voices"))
    qtbot.addWidget(panel)
    said = []
    panel.message.connect(said.append)
    QGuiApplication.clipboard().setText("")
    qtbot.mouseClick(panel.paste_button, Qt.MouseButton.LeftButton)
    assert said[-1] == "The clipboard holds no text; copy a speaker string first."
    QGuiApplication.clipboard().setText("not a speaker string")
    qtbot.mouseClick(panel.paste_button, Qt.MouseButton.LeftButton)
    assert "not a valid ChatTTS speaker string" in said[-1] and panel.explicit_speaker() is None
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)  # nothing known to copy
    assert "not known yet" in said[-1]


def test_voice_buttons_without_a_selection_say_why(qtbot, tmp_path):
    panel = VoicePanel(VoiceLibrary(tmp_path / "voices"))
    qtbot.addWidget(panel)
    said = []
    panel.message.connect(said.append)
    saved = panel.saved
    for button in (saved.audition_button, saved.export_button, saved.delete_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert said == ["Select a saved voice in the list first."] * 3


# -- 14 no sound device: one true sentence, no "Speaking..." -------------------------------------
def test_no_device_status_does_not_say_speaking(qtbot, make_window):
    window = _no_device_window(make_window)
    seen = []
    window.speech.started.connect(lambda: seen.append(window.status.text()))
    run_to_end(qtbot, window, "没有声卡。")
    assert seen and "Speaking" not in seen[0] and "no sound device" in seen[0]


# -- 15 warnings compact ----------------------------------------------------------------------
def test_warnings_take_one_row_each_and_leave_the_text_box_its_room(qtbot, window):
    editor = window.text_panel.editor
    before = editor.height()
    warning = (
        "Sentence 1: text refinement reached its length limit, so words may be missing; try again with "
        'text refinement off (in the window: untick "Refine text first"; on the command line: --no-refine).'
    )
    window.ui.show_result_warnings(
        [warning, warning.replace("1", "2"), warning.replace("1", "3"), "Fourth."]
    )
    qtbot.waitUntil(lambda: window.result_warnings.isVisible(), timeout=2_000)
    QGuiApplication.processEvents()
    box = window.result_warnings
    assert box.count() == 4 and not box.wordWrap()  # one row each: never broken mid-word
    assert box.item(0).toolTip() == warning  # the whole sentence
    box.actions()[0].trigger()  # the right-click menu's Copy
    assert QGuiApplication.clipboard().text().splitlines()[0] == warning
    rows = box.sizeHintForRow(0)
    assert box.height() <= 3 * rows + 2 * box.frameWidth()
    assert before - editor.height() <= 3 * rows + 2 * box.frameWidth() + 12


# -- 16 preview follows the text ----------------------------------------------------------
def test_the_preview_follows_the_text(qtbot, window):
    window.text_panel.set_text("2024年")
    qtbot.mouseClick(window.text_panel.preview_button, Qt.MouseButton.LeftButton)
    assert window.text_panel.preview.toPlainText().startswith("二零二四年")
    window.text_panel.set_text("It costs $5")
    qtbot.waitUntil(
        lambda: "five dollars" in window.text_panel.preview.toPlainText(), timeout=3_000
    )


def test_a_long_text_s_preview_says_it_is_stale(qtbot, window, monkeypatch):
    window.text_panel.set_text("短。")
    qtbot.mouseClick(window.text_panel.preview_button, Qt.MouseButton.LeftButton)
    prepared = []
    real = window.model.prepare
    monkeypatch.setattr(
        window.model, "prepare", lambda text: (prepared.append(len(text)), real(text))[1]
    )
    window.text_panel.set_text("It costs $5. " * 1000)  # 13,000 characters
    qtbot.wait(600)
    assert prepared == [] and "press Preview" in window.text_panel.preview.toPlainText()
    qtbot.mouseClick(window.text_panel.preview_button, Qt.MouseButton.LeftButton)
    assert prepared == [13_000] and "five dollars" in window.text_panel.preview.toPlainText()


# -- 17 export dialog --------------------------------------------------------------------------
def test_every_export_field_is_labelled_and_its_unit_translated(qtbot):
    from app.ui.i18n import apply_language
    from app.ui.narration.export_dialog import ExportDialog

    dialog = ExportDialog()
    qtbot.addWidget(dialog)
    for spin in (dialog.loudness, dialog.sentence_pause, dialog.chapter_pause):
        label = dialog.form.labelForField(spin)
        assert label is not None and label.text(), spin.objectName()
    assert dialog.form.labelForField(dialog.loudness).text() == "Target loudness"
    assert dialog.sentence_pause.suffix() == " s"
    try:
        apply_language("zh_CN")
        qtbot.waitUntil(lambda: dialog.sentence_pause.suffix() == " 秒", timeout=5_000)
        for spin in (dialog.loudness, dialog.sentence_pause, dialog.chapter_pause):
            assert HAN.search(dialog.form.labelForField(spin).text())
        assert dialog.chapter_pause.suffix() == " 秒"
    finally:
        apply_language("en")


# -- 18 export file name -----------------------------------------------------------------------
def test_default_export_name_is_clean():
    assert default_export_name("Hello world,") == "Hello_world.wav"
    assert default_export_name("  «Hi!»  what's   up?? ") == "Hi_what_s_up.wav"
    assert default_export_name("你好，世界。") == "你好_世界.wav"
    assert default_export_name('a<b>c:d"e/f\\g|h?i*j') == "a_b_c_d_e_f.wav"  # six words at most
    assert default_export_name("con.") == "con_speech.wav"  # a device name on Windows
    assert default_export_name("...") == "speech.wav"
    assert default_export_name("COM¹") == "COM¹_speech.wav"  # Windows reserves these too
    assert default_export_name("नमस्ते दुनिया") == "नमस्ते_दुनिया.wav"  # vowel signs stay in their word
    assert default_export_name("cafe\u0301 au lait") == "caf\u00e9_au_lait.wav"
    long = default_export_name("word " * 30)
    assert len(long) <= 44 and not long[:-4].endswith("_")


def test_export_wav_suggests_the_clean_name(qtbot, window, tmp_path, monkeypatch):
    run_to_end(qtbot, window, "Hello world, this is it.")
    asked = {}
    monkeypatch.setattr(
        QFileDialog,
        "getSaveFileName",
        lambda parent, caption, start, filters: (asked.__setitem__("s", start), ("", ""))[1],
    )
    qtbot.mouseClick(window.export_button, Qt.MouseButton.LeftButton)
    assert Path(asked["s"]).name == "Hello_world_this_is_it.wav"


# -- 19 history delete asks -------------------------------------------------------------------------
def test_history_delete_asks_first(qtbot, window, monkeypatch):
    run_to_end(qtbot, window, "删除。")
    answers = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: answers.pop(0))
    answers.append(QMessageBox.StandardButton.No)
    qtbot.mouseClick(window.history_panel.buttons["delete"], Qt.MouseButton.LeftButton)
    assert len(window.history.entries()) == 1 and answers == []
    answers.append(QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(window.history_panel.buttons["delete"], Qt.MouseButton.LeftButton)
    assert window.history.entries() == []


# -- 20 progress within a sentence -----------------------------------------------------------
def test_progress_moves_within_a_sentence():
    from app.ui.controllers.progress import SpeechProgress

    progress = SpeechProgress("这是一个很长的句子，用来看进度条是否在句子中间移动。")
    shown = [progress.sentences(0, 1)]
    for _piece in range(5):
        shown.append(progress.audio(0.5))
    assert shown[0] == 0.0 and all(b > a for a, b in zip(shown, shown[1:]))
    assert shown[-1] < 1.0
    assert progress.sentences(1, 1) == 1.0


def test_the_window_s_bar_moves_with_the_audio(qtbot, window):
    values = []
    window.speech.fraction.connect(lambda _f: values.append(window.progress.value()))
    run_to_end(qtbot, window, "第一句话比较长一些。第二句。")
    distinct = sorted(set(values))
    assert len(distinct) > 3  # more steps than the two sentences' ends
    assert distinct[-1] == window.ui.PROGRESS_STEPS


# -- 21 rows not clipped -------------------------------------------------------------------------
def _fits(list_widget):
    metrics, room = list_widget.fontMetrics(), list_widget.viewport().width()
    return all(
        metrics.horizontalAdvance(line) + 8 <= room
        for r in range(list_widget.count())
        for line in list_widget.item(r).text().split("\n")
    )


def test_history_rows_and_the_speaker_field_are_not_clipped(qtbot, window):
    window.resize(1000, 640)
    run_to_end(
        qtbot,
        window,
        "这是一段很长很长的中文文本，用来看历史记录的行是否会被截断而看不到后面的字。",
    )
    window.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: window.history_panel.list.isVisible(), timeout=2_000)
    assert _fits(window.history_panel.list)
    window.tabs.setCurrentIndex(0)
    field = window.voice_panel.speaker
    qtbot.waitUntil(field.isVisible, timeout=2_000)
    assert field.fontMetrics().horizontalAdvance(field.text()) < field.contentsRect().width()


def test_take_rows_are_not_clipped_in_chinese(qtbot):
    from types import SimpleNamespace

    from app.ui.i18n import apply_language
    from app.ui.narration.takes_panel import TakesPanel

    panel = TakesPanel()
    qtbot.addWidget(panel)
    font = panel.font()
    font.setPointSize(12)  # the size of a desktop's CJK font (offscreen's is smaller)
    panel.setFont(font)
    takes = [SimpleNamespace(id=i, seed=1234567 + i, duration=12.3) for i in range(3)]
    try:
        apply_language("zh_CN")
        qtbot.waitUntil(lambda: panel.play_button.text() != "Play", timeout=5_000)
        panel.set_takes(takes, 1)
        panel.resize(panel.minimumSizeHint())
        panel.show()
        qtbot.waitExposed(panel)
        assert "✓ 使用中" in panel.list.item(1).text()
        assert _fits(panel.list)
    finally:
        apply_language("en")


# -- 22 the speaker field names the voice ----------------------------------------------------------
def test_the_speaker_field_names_the_voice_and_copy_paste_the_string(qtbot, tmp_path):
    panel = VoicePanel(VoiceLibrary(tmp_path / "voices"))
    qtbot.addWidget(panel)
    panel.seed.setValue(42)
    assert panel.speaker.text() == "Voice of seed 42" and panel.speaker.isReadOnly()
    seed_speaker = encode_speaker(np.ones(16, np.float16))
    panel.show_seed_speaker(seed_speaker)
    assert panel.speaker.text() == "Voice of seed 42"  # never the raw string
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == seed_speaker
    pasted = encode_speaker(np.full(16, 0.5, np.float16))
    QGuiApplication.clipboard().setText(pasted)
    qtbot.mouseClick(panel.paste_button, Qt.MouseButton.LeftButton)
    assert panel.speaker.text() == "Custom voice" and panel.explicit_speaker() == pasted
    panel.save_current_voice("Narrator")
    assert panel.speaker.text() == "Narrator"
    panel.seed.setValue(7)
    panel.set_voice(7, pasted)  # a restart, or a history entry
    assert panel.speaker.text() == "Narrator"


# -- 23 the model's size -----------------------------------------------------------------------------
def test_the_model_size_is_said_alike_in_window_and_readme(qtbot, make_window):
    window = make_window(start=False)
    readme = set(
        re.findall(
            r"about (\d+(?:\.\d+)?) GB\)?[,;]? is downloaded|weights \(about (\d+(?:\.\d+)?) GB\)",
            README.read_text(encoding="utf-8"),
        )
    )
    sizes = {size for pair in readme for size in pair if size}
    assert len(sizes) == 1, sizes
    (size,) = sizes
    window.open_wizard()
    model_page = window.wizard.pages[2]
    assert f"about {size} GB" in model_page.subTitle()
    dialog = window.open_download()
    assert f"about {size} GB" in dialog.where.text()
    dialog.close()
    window.wizard.close()


# -- 12 a download host the doctor found silent -------------------------------------------------------
def test_a_silent_host_is_said_at_once(qtbot, make_window, settings, tmp_path):
    from tests.ui.test_doctor_ui import recording_synthesizer, snapshot_probe

    settings.model_dir = str(tmp_path / "model")
    window = make_window(
        wait_loaded=False,
        doctor_probe_factory=snapshot_probe("win_hub_unreachable_no_model"),
        synthesizer_factory=recording_synthesizer(),
    )
    qtbot.waitUntil(lambda: window.last_report is not None, timeout=30_000)
    assert window.doctor.unreachable_host() == "huggingface.co"
    dialog = window.open_download()
    assert "huggingface.co did not answer" in dialog.status.text()  # before any click
    dialog.select_source("modelscope")
    assert dialog.status.text() == ""  # another host: nothing to say
    dialog.select_source("huggingface")
    dialog.downloads.worker.cancel = lambda: None
    dialog.downloads.requestDownload.disconnect()  # no network in tests
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.status.text().startswith("Trying huggingface.co again")
    from types import SimpleNamespace

    dialog.on_progress(
        SimpleNamespace(files=[], total_bytes=0, done_bytes=0, speed_bps=0, eta_s=None)
    )
    assert "0.0 MB" not in dialog.status.text() and "huggingface.co" in dialog.status.text()
    dialog._set_running(False)
    dialog.close()


# -- 13 the wizard's Play pressed while the model loads plays once it is ready --------------------------
def test_test_sentence_pressed_while_loading_plays_when_ready(qtbot, make_window):
    from tests.ui.conftest import LOAD_TIMEOUT_MS

    window = make_window(start=False)
    window.open_wizard()
    page = window.wizard.pages[3]
    qtbot.mouseClick(page.play, Qt.MouseButton.LeftButton)
    assert page.result.text().startswith("The model is still loading")
    with qtbot.waitSignal(window.speech.finished, timeout=LOAD_TIMEOUT_MS + RUN_TIMEOUT_MS):
        window.start()
    qtbot.waitUntil(lambda: "noise" in page.result.text(), timeout=5_000)
    window.wizard.close()
