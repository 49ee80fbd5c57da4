"""The domain packages, app.doctor, app.server and app.narration (and all they import) must work
where Qt cannot even be imported: the domains and the doctor are shared with the command line, the
server runs headless, narration renders from the command line too."""

import subprocess
import sys

BLOCK_QT = r"""
import importlib.abc, sys
class NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6', 'PySide2'):
            raise ImportError('Qt is blocked in this test: ' + name)
sys.meta_path.insert(0, NoQt())
import pkgutil, importlib
packages = ["app.core", "app.model", "app.decode", "app.synthesis", "app.audio", "app.library",
            "app.text", "app.voices", "app.doctor", "app.server", "app.narration"]
for package in map(importlib.import_module, packages):
    for mod in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):
        importlib.import_module(mod.name)
import app.synthesis.engine, app.synthesis.synthesizer, app.cli, app.cli.serve, app.selftest.random_model
try:
    import PySide6
except ImportError:
    pass
else:
    raise SystemExit('blocker failed')
loaded = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')]
assert not loaded, loaded
print('ok', *[len([m for m in sys.modules if m.startswith(p + '.')]) for p in packages])
"""


def test_engine_imports_without_qt():
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK_QT], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok ")
    *domains, doctor, server, narration = map(int, proc.stdout.split()[1:])
    assert len(domains) == 8 and min(domains) >= 2 and sum(domains) >= 80  # every domain module
    assert doctor >= 20  # doctor modules, every check included
    assert server >= 5  # server modules
    assert narration >= 15  # narration modules: project, render, inputs, export


def test_engine_import_is_light():
    """Importing the engine must not import ChatTTS/torch: the window has to appear first."""
    code = (
        "import sys, app.synthesis.synthesizer, app.synthesis.engine, app.model.store, app.cli; "
        "print(sorted(m for m in ('ChatTTS', 'torch', 'transformers') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
