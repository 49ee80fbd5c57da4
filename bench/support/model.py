"""The random-weight model the benchmarks share: official shapes ("full") or the test size
("tiny", for --quick smoke runs), built once under the temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def bench_model(folder: str | None, quick: bool) -> tuple[Path, str]:
    """(model folder, "full" or "tiny"); builds the random model there if it is missing."""
    size = "tiny" if quick else "full"
    model = Path(folder or Path(tempfile.gettempdir()) / f"chattts-studio-bench-{size}")
    if not (model / "chattts-studio-model.json").exists():
        from app.selftest.random_model import build_random_model

        build_random_model(model, size=size, seed=0)
    return model, size


def bench_synthesizer(folder: str | None, quick: bool):
    """(the bench model loaded in fp32 on the CPU, "full" or "tiny")."""
    from app.synthesis.synthesizer import Synthesizer

    model, size = bench_model(folder, quick)
    synth = Synthesizer(model, device="cpu", precision="fp32")
    synth.load(verify=False)
    return synth, size


def run_json(argv: list[str], cwd=None, whole: bool = False, home=None) -> dict:
    """Run `python argv...` in a fresh process (offline) and return the JSON it printed: its
    last line, or with `whole` all of stdout (an indented report); {"error": its last line of
    stderr} when it failed. `home`: the program's data, cache and log folders for that run
    (CHATTTS_STUDIO_HOME), so that two revisions never share a library of another schema."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    if home is not None:
        env["CHATTTS_STUDIO_HOME"] = str(home)
    out = subprocess.run(
        [sys.executable, *argv],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout if whole else out.stdout.strip().splitlines()[-1])


def child_json(script: str, *args: str, cwd=None, home=None) -> dict:
    """Run `script --child ...args` in a fresh process (offline) and return the JSON its last
    line printed, or {"error": its last line of stderr}."""
    return run_json([script, "--child", *args], cwd=cwd, home=home)
