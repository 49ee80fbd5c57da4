"""The Ray render of tests/narration/test_farm_ray.py, in a process of its own: `ray.init` puts
a SIGTERM handler, background threads and a local cluster's processes into whatever process
calls it, and none of that belongs in the test session's.

    python -m tests.narration.ray_child MODEL PROJECT RESULT_JSON
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path


def main(model: str, project_path: str, result_path: str) -> int:
    import ray

    from app.narration.farm.ray_pool import ray_farm
    from tests.narration.test_farm import cpu, render_on

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        farm = ray_farm("local", [cpu("actor0", model), cpu("actor1", model)])
        killed = []

        def kill_once(progress):
            """SIGKILL an actor's process while it holds a sentence (so that sentence must be queued again)."""
            if progress.done >= 1 and not killed:
                busy = [
                    slot
                    for slot in farm.farm.slots
                    if farm.farm._current.get(slot.name) is not None
                ]
                if busy:
                    killed.append(busy[0].name)
                    os.kill(ray.get(busy[0].actor.pid.remote()), signal.SIGKILL)

        _, outcome = render_on(farm, Path(project_path), on_progress=kill_once)
        result = {
            "killed": killed,
            "state": outcome.state,
            "done": outcome.done,
            "failed": outcome.failed,
            "notices": [str(n) for n in farm.notices],
        }
    finally:
        ray.shutdown()
    Path(result_path).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
