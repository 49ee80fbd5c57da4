"""Voice panel, text panel (open and drop .txt) and the crash dialog."""

import sys

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QMessageBox

from app.core.errors import ParameterError
from app.core.request import SynthesisRequest
from app.library.voices import VoiceLibrary
from app.ui.params_panel import OFF, ParamsPanel
from app.ui.text_panel import TextPanel
from app.ui.voice_panel import VoicePanel
from app.voices.speakers import encode_speaker
from tests.ui.conftest import run_to_end


def test_dropping_a_txt_file_loads_it(qtbot, tmp_path):
    panel = TextPanel()
    qtbot.addWidget(panel)
    src = tmp_path / "speech.txt"
    src.write_text("拖进来的文本。", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(src))])
    event = QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    panel.editor.dropEvent(event)
    assert panel.text() == "拖进来的文本。"
    assert panel.count.text() == "7 character(s)"


def test_unreadable_txt_gets_a_message_not_a_crash(qtbot, tmp_path, monkeypatch):
    panel = TextPanel()
    qtbot.addWidget(panel)
    panel.set_text("keep me")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    assert panel.load_file(str(tmp_path / "missing.txt")) is False
    assert panel.text() == "keep me"
    assert "does not exist" in shown[0]


def test_the_parameter_boxes_offer_exactly_the_levels_the_engine_accepts(qtbot):
    panel = ParamsPanel()
    qtbot.addWidget(panel)
    assert panel.apply_to(SynthesisRequest("x")) == SynthesisRequest(
        "x"
    )  # untouched: the engine's defaults
    for key in ("speed", "oral", "laugh", "break_level"):
        box = getattr(panel, key)
        low = box.minimum() + (box.minimum() == OFF)
        SynthesisRequest("x", **{key: low})
        SynthesisRequest("x", **{key: box.maximum()})
        for beyond in (low - 1, box.maximum() + 1):
            with pytest.raises(ParameterError):
                SynthesisRequest("x", **{key: beyond})
        assert panel.labels[key].text().endswith(f"({low}-{box.maximum()})")


def test_dice_changes_the_seed_and_clears_the_old_speaker(qtbot, tmp_path):
    panel = VoicePanel(VoiceLibrary(tmp_path / "voices"))
    qtbot.addWidget(panel)
    panel.set_voice(10, None)
    panel.show_seed_speaker("old-speaker")
    seeds = set()
    for _ in range(5):
        qtbot.mouseClick(panel.dice, Qt.MouseButton.LeftButton)
        seeds.add(panel.seed_value())
    assert len(seeds) > 1
    assert panel.speaker_string() == ""
    assert panel.explicit_speaker() is None


def test_pasted_speaker_string_takes_over_until_the_seed_changes(qtbot, tmp_path):
    panel = VoicePanel(VoiceLibrary(tmp_path / "voices"))
    qtbot.addWidget(panel)
    pasted = encode_speaker(np.full(8, 0.25, np.float16))
    QGuiApplication.clipboard().setText(f"  {pasted}  ")
    qtbot.mouseClick(panel.paste_button, Qt.MouseButton.LeftButton)
    assert panel.explicit_speaker() == pasted
    panel.seed.setValue(panel.seed_value() + 1)
    assert panel.explicit_speaker() is None
    seed_speaker = encode_speaker(np.full(8, 0.5, np.float16))
    panel.show_seed_speaker(seed_speaker)
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == seed_speaker


def test_saved_voices_persist_and_restore(qtbot, window, tmp_path):
    run_to_end(qtbot, window, "音色。")
    panel = window.voice_panel
    speaker = panel.speaker_string()
    seed = panel.seed_value()
    voice = panel.save_current_voice("旁白 narrator")
    assert voice is not None
    assert [v.name for v in VoiceLibrary().list()] == ["旁白 narrator"]
    assert panel.saved.voices.count() == 1
    panel.seed.setValue(seed + 5)
    panel.saved.voices.setCurrentRow(0)
    panel.saved._apply_item(panel.saved.voices.item(0))
    assert panel.seed_value() == seed
    assert panel.speaker_string() == speaker and panel.speaker.text() == "旁白 narrator"
    panel.saved.delete_selected()
    assert VoiceLibrary().list() == [] and panel.saved.voices.count() == 0


def test_unhandled_exception_shows_the_log_path(qtbot, monkeypatch):
    from app.ui.crash_dialog import install_gui_excepthook

    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_gui_excepthook("/logs/chattts-studio.log")
    try:
        raise ValueError("boom")
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert len(shown) == 1
    assert "ValueError: boom" in shown[0]
    assert "/logs/chattts-studio.log" in shown[0]
