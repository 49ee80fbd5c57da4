"""The render farm on a local Ray cluster (ray.init(num_cpus=2), in a process of its own:
tests/narration/ray_child.py): two actors give the same takes as one local worker, an actor
killed midway is replaced and its sentence rendered again; actors holding four sentences at once
give the same takes within the engine's float rounding, and one killed while it holds two has
both rendered again; without Ray installed the sentence names the command that installs it."""

from __future__ import annotations

import builtins
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.errors import StudioError
from app.narration.farm import ray_pool
from app.narration.project import Project
from tests.narration.test_farm import (  # noqa: F401
    assert_same,
    assert_same_batched,
    one_worker,
    takes,
)

ROOT = Path(__file__).resolve().parents[2]


# Each worker loads its own model (seconds on a quiet machine, minutes on a busy one).
pytestmark = pytest.mark.timeout(1800)


def test_two_ray_actors_give_the_same_takes_and_survive_a_killed_actor(
    one_worker,  # noqa: F811 (a fixture, imported for pytest)
    tiny_model,
    tmp_path,
):
    project_path, result_path = tmp_path / "ray.ctsproj", tmp_path / "result.json"
    batched_path = tmp_path / "batched.ctsproj"
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.narration.ray_child",
            str(tiny_model),
            str(project_path),
            str(result_path),
            str(batched_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1700,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    result = json.loads(result_path.read_text(encoding="utf-8"))
    assert (
        result["killed"]
        and result["state"] == "finished"
        and result["done"] == 6
        and result["failed"] == []
    )
    assert result["notices"] == []  # replaced, not retired
    assert_same(one_worker, takes(Project.open(project_path)))
    batched = result["batched"]
    assert batched["killed"] and batched["state"] == "finished" and batched["done"] == 6
    assert batched["failed"] == [] and batched["notices"] == []
    assert_same_batched(one_worker, takes(Project.open(batched_path)))


def test_without_ray_the_sentence_names_the_install_command(monkeypatch):
    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(StudioError) as refused:
        ray_pool.import_ray()
    assert 'pip install "chattts-studio[farm]"' in str(refused.value)
