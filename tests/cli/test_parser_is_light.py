"""The command line's parser is built at every start, the window's too: it must not import the
server's FastAPI, the narration's pydantic/PyAV/soundfile or the model's torch (seconds each)."""

import subprocess
import sys

BUILD = r"""
import sys
from app.cli.parser import build_parser
build_parser()
print(sorted(m for m in ('fastapi', 'pydantic', 'av', 'soundfile', 'torch', 'ChatTTS', 'app.narration.export',
                         'app.server.app') if m in sys.modules))
"""


def test_building_the_parser_imports_nothing_heavy():
    proc = subprocess.run(
        [sys.executable, "-c", BUILD], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
