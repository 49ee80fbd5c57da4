"""The download dialog: from the missing-model banner to a loaded model, and cancel."""

import json

import pytest
from PySide6.QtCore import Qt

from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME
from tests.support.fake_hub import FakeHub
from tests.ui.conftest import LOAD_TIMEOUT_MS, RUN_TIMEOUT_MS


@pytest.fixture
def tiny_is_official(tiny_model, monkeypatch):
    """The stand-in hub serves the tiny model, so its hashes play the official ones here."""
    import app.model.download as md
    from app.model.store import ModelStore

    hashes = json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["sha256"]
    monkeypatch.setattr(md, "official_sha256", lambda: hashes)
    real = ModelStore.expected_sha256
    monkeypatch.setattr(
        ModelStore,
        "expected_sha256",
        lambda self: hashes if self.model_kind.makes_speech else real(self),
    )
    return hashes


def test_download_from_the_banner_then_the_model_loads(
    qtbot, make_window, settings, tiny_model, tmp_path, tiny_is_official
):
    import shutil

    settings.model_dir = str(tmp_path / "model")
    # The tiny model's dimensions file (no weights): so the downloaded weights load as tiny.
    (tmp_path / "model").mkdir()
    shutil.copy(tiny_model / STUDIO_CONFIG_NAME, tmp_path / "model" / STUDIO_CONFIG_NAME)
    window = make_window(wait_loaded=False)
    assert (
        window.model_banner.button2.isVisible()
        and window.model_banner.button2.text() == "Download..."
    )
    qtbot.mouseClick(window.model_banner.button2, Qt.MouseButton.LeftButton)
    dialog = window.download_dialog
    with FakeHub(tiny_model) as hub:
        dialog.select_source("custom", hub.endpoint)
        with qtbot.waitSignal(dialog.downloads.worker.finished, timeout=RUN_TIMEOUT_MS):
            qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "match their sha256 checksums" in dialog.status.text(), timeout=5_000)
    assert [dialog.table.item(r, 2).text() for r in range(len(MODEL_FILES))] == ["verified"] * len(
        MODEL_FILES
    )
    qtbot.waitUntil(lambda: window.model_status is not None, timeout=LOAD_TIMEOUT_MS)
    assert window.play_button.isEnabled()
    # The source chosen is offered again next time.
    assert (settings.download_source, settings.download_url) == ("custom", hub.endpoint)
    dialog.close()
    again = window.open_download()
    assert again.url.text() == hub.endpoint and again.source.currentIndex() == 3


def test_cancel_stops_and_says_it_will_resume(
    qtbot, make_window, settings, tiny_model, tmp_path, tiny_is_official, monkeypatch
):
    import app.model.download as md

    settings.model_dir = str(tmp_path / "model")
    window = make_window(wait_loaded=False)
    dialog = window.open_download()
    monkeypatch.setattr(md, "CHUNK", 1024)  # many small blocks: time to cancel mid-file
    with FakeHub(tiny_model) as hub:
        dialog.select_source("custom", hub.endpoint)
        dialog.downloads.worker.progress.connect(
            lambda p: dialog.cancel() if p.done_bytes else None
        )
        with qtbot.waitSignal(dialog.downloads.worker.cancelled, timeout=RUN_TIMEOUT_MS):
            dialog.start()
    qtbot.waitUntil(lambda: "resume" in dialog.status.text(), timeout=5_000)
    assert dialog.start_button.isEnabled()
    assert not (tmp_path / "model" / "asset" / "Embed.safetensors").exists()
    states = [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())]
    assert not {"waiting", "downloading", "checking sha256"} & set(states), (
        states
    )  # rows say how it ended
    assert "stopped, resumes next time" in states


def test_unreachable_source_is_explained(qtbot, make_window, settings, tmp_path, monkeypatch):
    import app.model.download as md

    monkeypatch.setattr(md, "BACKOFF_S", 0.0)
    settings.model_dir = str(tmp_path / "model")
    window = make_window(wait_loaded=False)
    dialog = window.open_download()
    dialog.select_source("custom", "http://127.0.0.1:9")
    with qtbot.waitSignal(dialog.downloads.worker.failed, timeout=RUN_TIMEOUT_MS):
        dialog.start()
    qtbot.waitUntil(lambda: "127.0.0.1:9" in dialog.status.text(), timeout=5_000)
    assert "ModelScope" in dialog.status.text()


def test_import_a_folder_from_the_menu(
    qtbot, make_window, settings, tiny_model, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    settings.model_dir = str(tmp_path / "model")
    window = make_window(wait_loaded=False)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tiny_model))
    window.import_model_folder()
    qtbot.waitUntil(lambda: window.model_status is not None, timeout=LOAD_TIMEOUT_MS)
    assert (tmp_path / "model" / "asset" / "Vocos.safetensors").is_file()


def test_every_file_state_has_its_own_words_and_unfinished_rows_say_how_it_ended(
    make_window, settings, tmp_path
):
    from itertools import cycle

    from app.model.download_progress import DownloadProgress, FileProgress, FileState

    settings.model_dir = str(tmp_path / "model")
    dialog = make_window(wait_loaded=False).open_download()
    states = [state for _, state in zip(MODEL_FILES, cycle(FileState))]
    dialog.on_progress(
        DownloadProgress(
            [FileProgress(rel, 10, 5, state) for rel, state in zip(MODEL_FILES, states)]
        )
    )
    words = [dialog.table.item(row, 2).text() for row in range(len(MODEL_FILES))]
    assert len(set(words)) == len(FileState) and all(words)
    dialog.on_cancelled("The download was cancelled.")
    after = [dialog.table.item(row, 2).text() for row in range(len(MODEL_FILES))]
    for state, before, now in zip(states, words, after):
        assert now == (before if state.finished else "stopped, resumes next time"), state
