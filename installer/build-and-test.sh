#!/usr/bin/env bash
# Build the PyInstaller bundle from build.spec and run its self-test (Linux smoke test).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" -m pip install -q ".[build]"
start=$(date +%s)
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller build.spec
echo "build: $(( $(date +%s) - start )) s, $(du -sh dist/ChatTTSStudio | cut -f1)"
QT_QPA_PLATFORM=offscreen dist/ChatTTSStudio/chattts-studio self-test --json dist/self-test.json
CHATTTS_STUDIO_BUNDLE=dist/ChatTTSStudio "$PY" -m pytest -q tests/frozen
