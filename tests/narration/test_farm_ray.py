"""The render farm on a local Ray cluster (ray.init(num_cpus=2)): two actors give the same takes
as one local worker, an actor killed midway is replaced and its sentence rendered again; without
Ray installed the sentence names the command that installs it."""

from __future__ import annotations

import builtins
import os
import signal

import pytest

from app.engine.errors import StudioError
from app.narration.farm import ray_pool
from app.narration.farm.ray_pool import ray_farm
from tests.narration.test_farm import assert_same, cpu, one_worker, render_on, takes  # noqa: F401


# Each worker loads its own model (seconds on a quiet machine, minutes on a busy one).
pytestmark = pytest.mark.timeout(1800)

@pytest.fixture(scope="module")
def ray_cluster():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_two_ray_actors_give_the_same_takes_and_survive_a_killed_actor(one_worker, ray_cluster, tiny_model,  # noqa: F811
                                                                     tmp_path):
    farm = ray_farm("local", [cpu("actor0", tiny_model), cpu("actor1", tiny_model)])
    killed = []

    def kill_once(progress):
        """SIGKILL an actor's process while it holds a sentence (so that sentence must be queued again)."""
        if progress.done >= 1 and not killed:
            busy = [slot for slot in farm.farm.slots if farm.farm._current.get(slot.name) is not None]
            if busy:
                killed.append((busy[0], busy[0].actor))
                os.kill(ray_cluster.get(busy[0].actor.pid.remote()), signal.SIGKILL)

    project, outcome = render_on(farm, tmp_path / "ray.ctsproj", on_progress=kill_once)
    assert killed and outcome.state == "finished" and outcome.done == 6 and outcome.failed == []
    assert farm.notices == []                          # replaced, not retired
    assert_same(one_worker, takes(project))


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
