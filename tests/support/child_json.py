"""A Python child process whose last line of output is JSON: what a fresh start imports, caches
and reads is seen only from a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_child(code: str, *args: str, env=None, timeout: float = 600) -> dict:
    """`python -c code args...` in the repository root; its last stdout line as JSON. A child
    that fails fails the test with the end of its stderr."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
