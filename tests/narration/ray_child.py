"""The Ray renders of tests/narration/test_farm_ray.py, in a process of its own: `ray.init` puts
a SIGTERM handler, background threads and a local cluster's processes into whatever process
calls it, and none of that belongs in the test session's.

    python -m tests.narration.ray_child MODEL PROJECT RESULT_JSON [BATCHED_PROJECT]

PROJECT: two actors of one sentence at a time, one killed while it holds a sentence.
BATCHED_PROJECT: two actors of four sentences at once, one killed while it holds two.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path


def _farm(ray, model: str, in_flight: int):
    from app.narration.farm.ray_pool import ray_farm
    from tests.narration.test_farm import cpu

    return ray_farm(
        "local",
        [cpu("actor0", model, in_flight=in_flight), cpu("actor1", model, in_flight=in_flight)],
    )


def _result(farm, outcome, killed) -> dict:
    return {
        "killed": killed,
        "state": outcome.state,
        "done": outcome.done,
        "failed": outcome.failed,
        "notices": [str(n) for n in farm.notices],
    }


def _one_at_a_time(ray, model: str, project_path: str) -> dict:
    from tests.narration.test_farm import render_on

    farm = _farm(ray, model, 1)
    killed = []

    def kill_once(progress):
        """SIGKILL an actor's process while it holds a sentence (so that sentence must be queued again)."""
        if progress.done >= 1 and not killed:
            busy = [
                slot for slot in farm.farm.slots if farm.farm._current.get(slot.name) is not None
            ]
            if busy:
                killed.append(busy[0].name)
                os.kill(ray.get(busy[0].actor.pid.remote()), signal.SIGKILL)

    _, outcome = render_on(farm, Path(project_path), on_progress=kill_once)
    return _result(farm, outcome, killed)


def _batched(ray, model: str, project_path: str) -> dict:
    from tests.narration.test_farm import render_on

    farm = _farm(ray, model, 4)
    killed: list = []

    def kill_holding_two():
        """SIGKILL an actor's process while it holds two sentences (both must be queued
        again)."""
        deadline = time.monotonic() + 600
        while not killed and time.monotonic() < deadline:
            with farm.farm._state:
                busy = [s for s in farm.farm.slots if len(farm.farm._current.get(s.name, [])) >= 2]
            if busy:
                killed.append(busy[0].name)
                os.kill(ray.get(busy[0].actor.pid.remote()), signal.SIGKILL)
            time.sleep(0.005)

    threading.Thread(target=kill_holding_two, daemon=True).start()
    _, outcome = render_on(farm, Path(project_path), in_flight=4)
    return _result(farm, outcome, killed)


def main(model: str, project_path: str, result_path: str, batched_path: str = "") -> int:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = _one_at_a_time(ray, model, project_path)
        if batched_path:
            result["batched"] = _batched(ray, model, batched_path)
    finally:
        ray.shutdown()
    Path(result_path).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:5]))
