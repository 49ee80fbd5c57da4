"""The window appears before any model code is imported; translations are complete."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from app.resources import resources_dir
from scripts import update_translations

SHOW_WINDOW = r"""
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.ui.settings import Settings
from app.ui.main_window import MainWindow
from app.selftest.fake_audio import FakeOutput
w = MainWindow(Settings(), output=FakeOutput())
w.show()
app.processEvents()
heavy = sorted(m for m in ('ChatTTS', 'torch', 'transformers') if m in sys.modules)
print('visible' if w.isVisible() else 'hidden', heavy)
w.close()
"""


def test_window_is_shown_before_chattts_or_torch_is_imported(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CHATTTS_STUDIO_HOME=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-c", SHOW_WINDOW], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "visible []"


def test_chinese_translation_is_complete_and_compiled():
    ts = resources_dir() / "translations" / "chattts_studio_zh_CN.ts"
    qm = ts.with_suffix(".qm")
    tree = ET.parse(ts)
    messages = list(tree.iter("message"))
    assert len(messages) > 50
    unfinished = [
        m.find("source").text
        for m in messages
        if m.find("translation").get("type") in ("unfinished", "obsolete", "vanished")
    ]
    assert unfinished == []
    assert qm.is_file() and qm.stat().st_size > 1000


def test_every_ui_string_is_in_the_translation_file(tmp_path):
    """Running lupdate over the sources finds nothing the committed .ts lacks. Strings are
    looked up by their context (the class that says them) as well as their text: a sentence
    moved to another class is untranslated there until the catalog has it under that class."""
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    fresh = tmp_path / "fresh.ts"
    sources = [str(p) for p in update_translations.qt_sources()]  # the script's files
    subprocess.run(
        [str(lupdate), *sources, "-ts", str(fresh)], check=True, capture_output=True, timeout=120
    )

    def sources_of(path):
        return {
            (context.find("name").text, m.find("source").text)
            for context in ET.parse(path).iter("context")
            for m in context.iter("message")
        }

    committed = sources_of(resources_dir() / "translations" / "chattts_studio_zh_CN.ts")
    assert sources_of(fresh) - committed == set()


def test_committed_qm_is_compiled_from_the_committed_ts(tmp_path):
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    ts = resources_dir() / "translations" / "chattts_studio_zh_CN.ts"
    out = tmp_path / "fresh.qm"
    subprocess.run(
        [str(lrelease), str(ts), "-qm", str(out)], check=True, capture_output=True, timeout=120
    )
    assert out.read_bytes() == ts.with_suffix(".qm").read_bytes()
