"""The main window end to end: real worker thread, tiny model, fake sound output."""

import threading

import numpy as np
import soundfile as sf
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.audio.wav import to_pcm16
from app.core import ModelKind
from app.selftest.fake_audio import FakeOutput
from app.workers.threads import running_threads
from tests.support.decode_hooks import step_hooked
from tests.ui.conftest import LOAD_TIMEOUT_MS, RUN_TIMEOUT_MS, run_to_end

LONG_TEXT = "".join(f"这是第{n}句话，用来测试停止按钮。" for n in "一二三四五六七八九十") * 2


def test_play_streams_chunks_to_the_output_and_keeps_the_result(qtbot, window):
    output = window.output
    run_to_end(qtbot, window, "你好，世界。Hello there.")
    assert output.starts == 1 and output.sample_rate == 24_000
    assert len(output.chunks) >= 2  # streamed: pieces of each sentence as they were ready
    assert output.ended
    entries = window.history.entries()
    assert len(entries) == 1 and window.history_panel.list.count() == 1
    saved, rate = window.history.audio(entries[0])
    assert rate == 24_000
    # What was heard is what was saved (to 16-bit precision).
    assert np.array_equal(to_pcm16(output.played()), to_pcm16(saved))
    assert "s of audio in" in window.status.text()
    assert "noise, not speech" in window.status.text()
    assert entries[0].model_kind is ModelKind.RANDOM_WEIGHTS  # the entry says what made it
    assert window.voice_panel.speaker_string() == entries[0].speaker


def test_a_result_keeps_the_kind_of_the_model_that_made_it(qtbot, window, monkeypatch):
    """A reload begun while a request runs (the controller then says OFFICIAL until it knows
    again) must not relabel noise from the test model as speech."""
    started = []
    window.speech.started.connect(
        lambda: (
            started.append(True),
            monkeypatch.setattr(window.model, "model_kind", lambda: ModelKind.OFFICIAL),
        )
    )
    run_to_end(qtbot, window, "Hello there.")
    assert started and window.model.model_kind() is ModelKind.OFFICIAL
    assert window.history.entries()[0].model_kind is ModelKind.RANDOM_WEIGHTS
    assert "noise, not speech" in window.status.text()


def test_export_writes_a_valid_wav_with_a_name_from_the_first_words(
    qtbot, window, tmp_path, monkeypatch
):
    run_to_end(qtbot, window, "Hello wonderful world of speech. Second sentence.")
    asked = {}

    def fake_dialog(parent, caption, start, filters):
        asked["start"] = start
        return str(tmp_path / "export"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_dialog)
    qtbot.mouseClick(window.export_button, Qt.MouseButton.LeftButton)
    assert asked["start"].endswith("Hello_wonderful_world_of_speech_Second.wav")
    info = sf.info(str(tmp_path / "export.wav"))
    assert (info.samplerate, info.channels, info.subtype) == (24_000, 1, "PCM_16")
    assert info.frames > 0
    assert window.settings.last_export_dir == str(tmp_path)


def test_export_to_an_unwritable_place_shows_an_error_dialog(qtbot, window, tmp_path, monkeypatch):
    run_to_end(qtbot, window, "你好。")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    entry_id = window.history_panel.selected_id()
    assert window.history_panel.export_to(entry_id, str(tmp_path / "missing" / "x.wav")) is False
    assert len(shown) == 1 and "does not exist" in shown[0]
    assert not (tmp_path / "missing").exists()


class DecodePause:
    """Holds the decode loop inside one of its steps (on the worker thread) and then counts the
    steps it starts after being let go. The tiny model decodes a long text faster than a busy
    machine delivers a chunk to the window, so a Stop test pauses the decode itself: Stop then
    lands while a decode is in flight, and what follows shows whether it really stopped."""

    def __init__(self, window, monkeypatch, at_call: int = 40, release_on_cancel: bool = False):
        self.reached, self.release = threading.Event(), threading.Event()
        self.at_call, self.calls, self.after = at_call, 0, 0
        synth = window.model.synthesizer()
        # The warm-up's sentences run on the same loop; only the Play's steps are counted.
        assert synth.warmed.wait(60)
        monkeypatch.setattr(synth.loop, "filter_step", step_hooked(synth.loop, self._step))
        if release_on_cancel:  # for a close, where the test cannot act once it started
            scheduler = window.model.engine().scheduler
            real = scheduler.cancel
            monkeypatch.setattr(
                scheduler, "cancel", lambda ticket: (real(ticket), self.release.set())
            )

    def _step(self, _step, logits, _rows):
        logits[:, 625] = float("-inf")  # no sentence ends: there is always more to stop
        self.calls += 1
        if self.release.is_set():
            self.after += 1
        elif self.calls == self.at_call:
            self.reached.set()
            self.release.wait(30)


def start_and_pause(qtbot, window, pause, play):
    """Play, wait until the decode is held mid-sentence and its first audio reached the window."""
    window.text_panel.set_text(LONG_TEXT)
    play()
    qtbot.waitUntil(pause.reached.is_set, timeout=RUN_TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(window.output.chunks) > 0, timeout=RUN_TIMEOUT_MS)
    assert window.is_busy()


def test_stop_interrupts_the_decode_in_flight_and_the_next_play_works(qtbot, window, monkeypatch):
    output = window.output
    pause = DecodePause(window, monkeypatch)
    start_and_pause(
        qtbot,
        window,
        pause,
        lambda: qtbot.mouseClick(window.play_button, Qt.MouseButton.LeftButton),
    )
    with qtbot.waitSignal(window.speech.stopConfirmed, timeout=30_000):
        qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
        assert not window.is_busy()  # the button answers at once
        assert output.stops >= 1 and not output.is_active()
        pause.release.set()
    assert pause.after <= 1  # the decode ended within a step of Stop
    assert window.history.entries() == []
    assert window.status.text() == "Stopped."
    monkeypatch.undo()
    run_to_end(qtbot, window, "再来一次。")
    assert len(window.history.entries()) == 1


def test_closing_during_synthesis_stops_the_decode_and_the_worker_thread(
    qtbot, make_window, monkeypatch
):
    window = make_window()
    pause = DecodePause(window, monkeypatch, release_on_cancel=True)
    start_and_pause(qtbot, window, pause, window.play)
    window.close()
    assert running_threads() == []
    assert pause.release.is_set() and pause.after <= 1


def test_history_survives_a_restart_with_replay_regenerate_and_delete(
    qtbot, make_window, monkeypatch
):
    first = make_window()
    run_to_end(qtbot, first, "历史记录。")
    original = first.history.entries()[0]
    first.close()

    output = FakeOutput()
    second = make_window(output=output)
    assert second.history_panel.list.count() == 1
    second.history_panel.select(original.id)
    qtbot.mouseClick(second.history_panel.buttons["replay"], Qt.MouseButton.LeftButton)
    audio, _ = second.history.audio(original)
    assert np.array_equal(output.played(), audio)

    with qtbot.waitSignal(second.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(second.history_panel.buttons["regenerate"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not second.is_busy(), timeout=RUN_TIMEOUT_MS)
    assert second.text_panel.text() == "历史记录。"
    newest, older = second.history.entries()
    assert newest.request == older.request
    assert np.array_equal(second.history.audio(newest)[0], audio)  # same settings, same sound

    second.history_panel.select(older.id)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(second.history_panel.buttons["delete"], Qt.MouseButton.LeftButton)
    assert [e.id for e in second.history.entries()] == [newest.id]


def test_settings_round_trip(qtbot, make_window, settings):
    from app.ui.settings import Settings

    window = make_window(start=False)
    window.voice_panel.seed.setValue(1234)
    window.params_panel.speed.setValue(3)
    window.params_panel.top_k.setValue(7)
    window.params_panel.oral.setValue(4)
    window.move(17, 23)
    geometry = window.geometry()
    settings.output_device = "Speakers (Test)"
    settings.language = "zh_CN"
    window.close()

    fresh = Settings()
    assert fresh.seed == 1234
    assert fresh.params["speed"] == 3 and fresh.params["top_k"] == 7 and fresh.params["oral"] == 4
    assert fresh.params["laugh"] is None
    assert fresh.output_device == "Speakers (Test)"
    assert fresh.language == "zh_CN"
    assert fresh.model_dir == settings.model_dir
    again = make_window(start=False, settings_=fresh)
    assert again.voice_panel.seed_value() == 1234
    assert again.params_panel.values()["speed"] == 3
    assert again.geometry() == geometry


def test_missing_model_shows_a_banner_and_choose_folder_loads_one(
    qtbot, make_window, settings, tiny_model, tmp_path, monkeypatch
):
    settings.model_dir = str(tmp_path / "empty")
    window = make_window(wait_loaded=False)
    assert not window.model_banner.isHidden()
    assert "No ChatTTS model" in window.model_banner.text()
    assert not window.play_button.isEnabled()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tiny_model))
    qtbot.mouseClick(window.model_banner.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model_status is not None, timeout=RUN_TIMEOUT_MS)
    assert settings.model_dir == str(tiny_model)
    assert window.play_button.isEnabled()
    # A random-weight model is never presented as a voice.
    assert "noise, not speech" in window.model_banner.text()


def test_corrupt_model_is_explained_in_the_banner(qtbot, make_window, settings, model_copy):
    (model_copy / "asset/Vocos.safetensors").write_bytes(b"broken")
    settings.model_dir = str(model_copy)
    window = make_window(wait_loaded=False)
    qtbot.waitUntil(lambda: "checksums" in window.model_banner.text(), timeout=RUN_TIMEOUT_MS)
    assert "asset/Vocos.safetensors" in window.model_banner.text()
    assert not window.play_button.isEnabled()


def test_language_switch_retranslates_the_window(qtbot, window):
    window.menus.actions["language.zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
    assert "噪声" in window.model_banner.text()  # the test-model banner is translated too
    assert window.stop_button.text() == "停止"
    assert window.voice_panel.seed_label.text() == "种子"
    window.menus.actions["language.en"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "Play", timeout=5_000)
    assert window.settings.language == "en"


def test_no_sound_device_is_said_once_and_export_still_works(qtbot, make_window, tmp_path):
    output = FakeOutput(
        problem="No audio output device was found, so nothing can be played; "
        "Export WAV still works."
    )
    window = make_window(output=output)
    assert "No audio output device" in window.audio_banner.text()
    run_to_end(qtbot, window, "没有声卡。")
    assert output.chunks == []
    assert window.history_panel.export_to(
        window.history_panel.selected_id(), str(tmp_path / "ok.wav")
    )
    assert sf.info(str(tmp_path / "ok.wav")).frames > 0


def test_keyboard_shortcuts_play_and_stop(qtbot, window, monkeypatch):
    window.activateWindow()
    pause = DecodePause(window, monkeypatch)
    start_and_pause(
        qtbot,
        window,
        pause,
        lambda: qtbot.keyClick(
            window.text_panel.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier
        ),
    )
    with qtbot.waitSignal(window.speech.stopConfirmed, timeout=30_000):
        qtbot.keyClick(window.text_panel.editor, Qt.Key.Key_Escape)
        pause.release.set()
    assert pause.after <= 1
    assert not window.is_busy()


def test_empty_text_is_refused_in_the_status_line(qtbot, window):
    window.text_panel.set_text("   ")
    qtbot.mouseClick(window.play_button, Qt.MouseButton.LeftButton)
    assert not window.is_busy()
    assert "no text to speak" in window.status.text()


def test_object_names_for_automation(window):
    from PySide6.QtWidgets import QWidget

    for name in (
        "textInput",
        "playButton",
        "stopButton",
        "exportButton",
        "seedInput",
        "randomVoiceButton",
        "speakerString",
        "voiceList",
        "historyList",
        "progressBar",
        "statusLabel",
    ):
        assert window.findChild(QWidget, name) is not None, name


def test_precision_menu_reloads_the_model_in_that_format_and_remembers_it(qtbot, window):
    from app.decode import precision

    automatic = precision.choose("auto", "cpu")[0]  # int8 where x86 int8 kernels exist
    assert window.model_status.decode == f"jit-{automatic}"
    assert f"jit-{automatic}" in window.status.text()
    other = "fp32" if automatic != "fp32" else "int8"
    window.menus.actions[f"precision.{other}"].trigger()
    qtbot.waitUntil(
        lambda: window.model_status is not None and window.model_status.decode == f"jit-{other}",
        timeout=LOAD_TIMEOUT_MS,
    )
    assert window.settings.precision == other
    assert f"jit-{other}" in window.status.text()
    run_to_end(qtbot, window, "你好。")
    assert window.history.entries()


def test_the_status_line_says_buffering_while_playback_waits(qtbot, make_window):
    """The sound output reports from its own thread; the window shows it, then resumes."""
    import threading

    from app.audio.buffering import BufferState

    window = make_window(start=False)
    output = window.output
    waiting = []
    window.speech.bufferingChanged.connect(waiting.append)
    thread = threading.Thread(target=output.state_listener, args=(BufferState.BUFFERING,))
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: waiting == [True], timeout=5_000)
    assert window.status.text().startswith("Buffering")
    output.state_listener(BufferState.PLAYING)
    qtbot.waitUntil(lambda: waiting == [True, False], timeout=5_000)
    assert window.status.text() == "Speaking..."


def test_closing_the_window_removes_the_temporary_library_of_a_session_without_its_own(
    qtbot, make_window, unopenable_library
):
    """The user's library could not be opened: this session's history went to a temporary
    folder, which the banner said would not be kept and which closing the window removes."""
    window = make_window(start=False)
    scratch = window.history._store.library.root
    assert window.history.problem and scratch.is_dir()
    window.close()
    assert not scratch.exists()
