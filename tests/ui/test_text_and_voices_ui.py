"""Control-token buttons, preview, voice lock switch, voice import/audition/recording, pronunciations."""

import numpy as np
import soundfile as sf
from PySide6.QtCore import Qt

from app.library.lexicon import PronunciationDictionary
from app.voices.speakers import encode_speaker
from tests.ui.conftest import RUN_TIMEOUT_MS


def test_token_buttons_insert_at_the_cursor(qtbot, window):
    panel = window.text_panel
    panel.set_text("你好世界")
    cursor = panel.editor.textCursor()
    cursor.setPosition(2)
    panel.editor.setTextCursor(cursor)
    qtbot.mouseClick(panel.token_buttons["[uv_break]"], Qt.MouseButton.LeftButton)
    assert panel.text() == "你好[uv_break]世界"
    qtbot.mouseClick(panel.token_buttons["[laugh]"], Qt.MouseButton.LeftButton)
    assert panel.text() == "你好[uv_break][laugh]世界"


def test_preview_shows_exactly_what_will_be_spoken(qtbot, window):
    window.text_panel.set_text("2024年5月1日[bogus]。It costs $5")
    qtbot.mouseClick(window.text_panel.preview_button, Qt.MouseButton.LeftButton)
    shown = window.text_panel.preview.toPlainText()
    assert shown.startswith("二零二四年五月一日。\nIt costs five dollars.")
    assert "[bogus]" in shown and "⚠" in shown
    assert window.text_panel.preview.isVisible()


def test_pronunciations_dialog_saves_and_the_preview_uses_them(qtbot, window):
    window.menus.actions["text.pronunciations"].trigger()
    dialog = window.pronunciation_dialog
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    dialog.table.item(0, 0).setText("ChatTTS")
    dialog.table.item(0, 1).setText("chat T T S")
    dialog.save()
    assert PronunciationDictionary().entries == {"ChatTTS": "chat T T S"}
    window.text_panel.set_text("ChatTTS 真好")
    window.preview()
    assert window.text_panel.preview.toPlainText() == "chat T T S 真好。"


def test_voice_lock_switch_reaches_the_request(window):
    assert window.current_request().voice_lock is True
    window.params_panel.voice_lock.setChecked(False)
    assert window.current_request().voice_lock is False


def test_imported_voice_is_listed_and_used(qtbot, window, tmp_path):
    import torch

    emb = np.random.default_rng(1).normal(size=64).astype(np.float32)
    torch.save(torch.from_numpy(emb), tmp_path / "narrator.pt")
    voice = window.voice_panel.saved.import_file(str(tmp_path / "narrator.pt"))
    assert voice.speaker == encode_speaker(emb.astype(np.float16))
    assert window.voice_panel.saved.voices.count() == 1
    window.voice_panel.saved.voices.setCurrentRow(0)
    window.voice_panel.saved._apply_item(window.voice_panel.saved.voices.item(0))
    assert window.current_request().speaker == voice.speaker


def test_audition_plays_a_sentence_without_touching_history(qtbot, window, tmp_path):
    import torch

    torch.save(torch.from_numpy(np.ones(64, dtype=np.float32)), tmp_path / "v.pt")
    window.voice_panel.saved.import_file(str(tmp_path / "v.pt"))
    window.voice_panel.saved.voices.setCurrentRow(0)
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(window.voice_panel.saved.audition_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=5_000)
    assert window.output.chunks
    assert window.history.entries() == []


def test_voice_from_a_recording_is_saved_and_used_as_reference(qtbot, window, tmp_path):
    wav = tmp_path / "my voice.wav"
    t = np.linspace(0, 2, 48_000, dtype=np.float32)
    sf.write(str(wav), 0.2 * np.sin(2 * np.pi * 180 * t), 24_000)
    with qtbot.waitSignal(window.speech.referenceReady, timeout=RUN_TIMEOUT_MS):
        window.voice_panel.saved.recordingVoiceRequested.emit(str(wav), "这是我的声音。")
    qtbot.waitUntil(lambda: window.voice_panel.library.get("my voice") is not None, timeout=5_000)
    saved = window.voice_panel.library.get("my voice")
    assert saved is not None and saved.reference and saved.reference_text == "这是我的声音。"
    request = window.current_request()
    assert request.reference == saved.reference
    assert request.reference_text == "这是我的声音。"


def test_a_bad_recording_gets_a_message(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    (tmp_path / "noise.wav").write_bytes(b"not audio")
    with qtbot.waitSignal(window.speech.referenceFailed, timeout=RUN_TIMEOUT_MS):
        window.voice_panel.saved.recordingVoiceRequested.emit(str(tmp_path / "noise.wav"), "文字")
    qtbot.waitUntil(lambda: bool(shown), timeout=5_000)
    assert "not an audio file" in shown[0]
