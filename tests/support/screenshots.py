"""Screenshots of the main window in English and Chinese, the read-along and the tray's menu,
for the README.

Run under a real X server (Xvfb), with a model folder; the window shows exactly what a user
would see, including the banner that marks a random-weight model as noise:

    xvfb-run -s "-screen 0 1280x800x24" python -m tests.support.screenshots OUT_DIR --model DIR
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

SAMPLES = {
    "en": "ChatTTS Studio turns text into natural speech on your own computer.\n"
    "Pick a voice, press Play, and hear the first sentence while the rest is still being made.",
    "zh_CN": "ChatTTS Studio 在你自己的电脑上把文字变成自然的语音。\n"
    "选一个音色，按下播放，第一句话在其余部分生成时就开始朗读。",
}


def _wait(app, predicate, timeout_s: float = 300) -> None:
    deadline = time.perf_counter() + timeout_s
    while not predicate() and time.perf_counter() < deadline:
        app.processEvents()
        time.sleep(0.01)


def take_screenshots(out_dir: str, model_dir: str) -> list[Path]:
    os.environ.setdefault("CHATTTS_STUDIO_HOME", tempfile.mkdtemp(prefix="chattts-shots-"))
    from PySide6.QtWidgets import QApplication

    from app.selftest.fake_audio import FakeOutput
    from app.ui.i18n import apply_language
    from app.ui.main_window import MainWindow
    from app.ui.settings import Settings

    app = QApplication.instance() or QApplication([])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = Settings()
    settings.model_dir = model_dir
    settings.params = {"refine_text": False}
    window = MainWindow(settings, output=FakeOutput())
    window.resize(1100, 680)
    window.move(0, 0)
    window.show()
    window.start()
    _wait(app, lambda: window.model_status is not None)
    written = []
    for language, text in SAMPLES.items():
        apply_language(language)
        window.text_panel.set_text(text)
        window.play()
        _wait(app, lambda: not window.is_busy())
        for _ in range(30):
            app.processEvents()
            time.sleep(0.01)
        path = out / f"main-window-{language}.png"
        window.screen().grabWindow(
            0, 0, 0, window.frameGeometry().width(), window.frameGeometry().height()
        ).save(str(path))
        written.append(path)
    written.append(_read_along(app, window, out / "read-along-en.png"))
    written.append(_tray_menu(app, window, out / "tray-menu-en.png"))
    _wait(app, lambda: window.last_report is not None)
    window.open_doctor()
    dialog = window.doctor_dialog
    dialog.move(0, 0)
    for language in ("en", "zh_CN"):
        apply_language(language)
        written.append(_grab(app, dialog, out / f"doctor-panel-{language}.png"))
    dialog.close()
    apply_language("en")
    window.open_wizard()
    wizard = window.wizard
    wizard.move(0, 0)
    before = window.last_report
    wizard.next()  # the diagnostics page runs the full check again
    _wait(app, lambda: window.last_report is not before, timeout_s=120)
    written.append(_grab(app, wizard, out / "first-run-wizard-en.png", settle=100))
    wizard.close()
    window.close()
    return written


READ_ALONG = (
    "The first sentence has been read. The second one is being read now, so it is highlighted. "
    "The third waits its turn."
)


def _read_along(app, window, path: Path) -> Path:
    """The second sentence heard, highlighted, paused there (Space)."""
    from app.ui.i18n import apply_language

    apply_language("en")
    window.text_panel.set_text(READ_ALONG)
    window.play()
    _wait(app, lambda: not window.is_busy())
    window.speech.play_from(1)
    window.speech.toggle_pause()
    _wait(app, lambda: window.text_panel.highlighted() is not None, timeout_s=30)
    return _grab(app, window, path)


def _tray_menu(app, window, path: Path) -> Path:
    """The tray's menu, opened beside the window (Xvfb has no tray to click)."""
    from PySide6.QtCore import QPoint

    menu = window.anywhere.menu.menu
    geometry = window.frameGeometry()
    menu.popup(QPoint(geometry.width() - 240, geometry.height() - 200))
    for _ in range(30):
        app.processEvents()
        time.sleep(0.01)
    window.screen().grabWindow(0, 0, 0, geometry.width(), geometry.height()).save(str(path))
    menu.hide()
    window.speech.stop()
    return path


def _grab(app, widget, path: Path, settle: int = 30) -> Path:
    for _ in range(settle):
        app.processEvents()
        time.sleep(0.01)
    widget.screen().grabWindow(
        0, 0, 0, widget.frameGeometry().width(), widget.frameGeometry().height()
    ).save(str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m tests.support.screenshots",
        description="Screenshots of the window in English and Chinese, for the README.",
    )
    p.add_argument("dir", help="where to write the PNGs")
    p.add_argument("--model", required=True, help="the model folder to load")
    args = p.parse_args(argv)
    for path in take_screenshots(args.dir, args.model):
        print(f"Wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
