"""Killing the program while it writes takes (a real SIGKILL of a child process) loses at most
the take being written: the project opens clean and every take it lists plays."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from app.narration.project import Project, SentenceStatus
from tests.support.narration_books import book

ROOT = Path(__file__).resolve().parents[2]
WRITER = r"""
import sys
import numpy as np
from app.narration.project import Project
project = Project.open(sys.argv[1])
rng = np.random.default_rng(0)
while True:
    for sentence in project.sentences():
        project.add_take(sentence.id, rng.uniform(-0.5, 0.5, 12_000).astype(np.float32), sentence.seed)
        project.edit_text(sentence.id, sentence.text)
"""


def test_a_killed_writer_loses_at_most_one_take(tmp_path):
    project = Project.create(tmp_path / "book.ctsproj", book())
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(project.path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 120
        while sum(len(project.takes(s.id)) for s in project.sentences()) < 20:
            assert child.poll() is None, "the writer ended by itself"
            assert time.monotonic() < deadline, "the writer wrote nothing"
            time.sleep(0.05)
    finally:
        child.kill()  # SIGKILL (TerminateProcess on Windows): no clean-up runs
        child.wait()
    opened = Project.open(project.path)
    assert opened.notices == [] and opened.path == project.path
    takes = [t for s in opened.sentences() for t in opened.takes(s.id)]
    assert len(takes) >= 20
    for take in takes:
        assert len(opened.take_audio(take.id)) == 12_000
    for sentence in opened.sentences():
        # edit_text follows each add_take in its own transaction: done means its take is there
        assert sentence.status in (SentenceStatus.DONE, SentenceStatus.PENDING)
        if sentence.status == SentenceStatus.DONE:
            assert sentence.take_id in {t.id for t in takes}
