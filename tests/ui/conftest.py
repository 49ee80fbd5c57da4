import pytest
from PySide6.QtCore import Qt

from app.selftest.fake_audio import FakeOutput

LOAD_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 120_000


@pytest.fixture
def settings(tiny_model):
    from app.ui.settings import Settings

    s = Settings()
    s.model_dir = str(tiny_model)
    # Refinement makes the tiny model decode 384 text tokens per sentence; tests that do
    # not exercise it keep runs short.
    s.params = {"refine_text": False}
    s.first_run_done = True
    return s


@pytest.fixture
def unopenable_library(monkeypatch):
    """The user's library cannot be opened (a read-only folder, say); gives the reason."""
    from app.core.errors import StudioError
    from app.ui.controllers import history as module

    real, reason = module.HistoryStore, "the library folder is read-only"

    def refuse_the_user_s(library=None):
        if library is None:
            raise StudioError(reason)
        return real(library)

    monkeypatch.setattr(module, "HistoryStore", refuse_the_user_s)
    return reason


@pytest.fixture
def make_window(qtbot, settings):
    from app.ui.main_window import MainWindow

    made = []

    def make(output=None, start=True, wait_loaded=True, settings_=None, **services):
        window = MainWindow(settings_ or settings, output=output or FakeOutput(), **services)
        made.append(window)
        window.show()
        if start:
            window.start()
            if wait_loaded:
                qtbot.waitUntil(lambda: window.model_status is not None, timeout=LOAD_TIMEOUT_MS)
        return window

    yield make
    for window in made:
        window.close()


@pytest.fixture
def window(make_window):
    return make_window()


def run_to_end(qtbot, window, text):
    window.text_panel.set_text(text)
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(window.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
