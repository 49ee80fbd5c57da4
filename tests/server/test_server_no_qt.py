"""app.server (and what it imports) works where Qt cannot be imported: the server runs headless."""

import subprocess
import sys

BLOCK_QT = r"""
import importlib.abc, sys
class NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6', 'PySide2'):
            raise ImportError('Qt is blocked in this test: ' + name)
sys.meta_path.insert(0, NoQt())
import importlib, pkgutil
import app.server
names = [m.name for m in pkgutil.walk_packages(app.server.__path__, 'app.server.')]
for name in names:
    importlib.import_module(name)
import app.cli.serve
assert not [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')]
print('ok', len(names))
"""


def test_server_imports_without_qt():
    proc = subprocess.run([sys.executable, "-c", BLOCK_QT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok ") and int(proc.stdout.split()[1]) >= 5
