"""A render killed midway (a real SIGKILL of the process rendering) and resumed in another
process gives the same takes as one render that was never interrupted: the same voices (each
chapter's reference), the same tokens and the same audio, to the bit. The killed process runs
the model as the resuming one does (device and precision): an int8 child against an fp32 parent
gave takes apart by up to 1.7e-5 and, after the start without ChatTTS changed the rounding, the third
chapter's reference apart by one code on every run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from app.core.request import SamplingParams
from app.narration.project import Project, SentenceStatus
from app.narration.render import Renderer
from tests.support.narration_books import book

ROOT = Path(__file__).resolve().parents[2]
FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))
CHAPTERS = tuple(
    (f"Chapter {c}", tuple(f"第{c}章，第{n}句话。" for n in range(4))) for c in range(3)
)
CHILD = r"""
import sys
from app.core.request import SamplingParams
from app.synthesis.engine import Engine
from app.synthesis.synthesizer import Synthesizer
from app.narration.project import Project
from app.narration.render import Renderer
synth = Synthesizer(sys.argv[1], device=sys.argv[3], precision=sys.argv[4])
synth.load()
Renderer(Project.open(sys.argv[2]), Engine(synth), in_flight=1, refine_text=False,
         sampling=SamplingParams(max_new_tokens=48)).render()
"""


def _done(project: Project) -> int:
    return sum(s.status == SentenceStatus.DONE for s in project.sentences())


def test_a_killed_render_resumes_to_the_same_audio(tmp_path, tiny_model, engine, synthesizer):
    killed = Project.create(tmp_path / "killed.ctsproj", book(CHAPTERS), seed=9)
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            str(tiny_model),
            str(killed.path),
            synthesizer.device_request,
            synthesizer.precision_request,
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 600
        while _done(killed) < 3:
            assert child.poll() is None, "the render process ended by itself"
            assert time.monotonic() < deadline, "the render process made nothing"
            time.sleep(0.02)
    finally:
        child.kill()  # SIGKILL: no handler, no clean-up
        child.wait()
    assert child.returncode != 0
    reopened = Project.open(killed.path)
    assert reopened.notices == [] and 3 <= _done(reopened) < 12

    e = engine(start=True)
    assert Renderer(reopened, e, in_flight=1, **FAST).render().remaining == 0
    whole = Project.create(tmp_path / "whole.ctsproj", book(CHAPTERS), seed=9)
    assert Renderer(whole, e, in_flight=1, **FAST).render().remaining == 0
    assert [c.reference for c in whole.chapters()] == [c.reference for c in reopened.chapters()]
    for a, b in zip(whole.sentences(), reopened.sentences(), strict=True):
        assert (a.chapter_id, a.index, a.seed) == (b.chapter_id, b.index, b.seed)
        expected, got = whole.take_audio(a.take_id), reopened.take_audio(b.take_id)
        assert len(expected) == len(got), (a.chapter_id, a.index)
        np.testing.assert_array_equal(expected, got)
