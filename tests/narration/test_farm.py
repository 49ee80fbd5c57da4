"""The render farm on the tiny model: two local worker processes give the same takes as one,
sample for sample; a worker killed (SIGKILL) midway loses only its sentence in flight, which is
rendered again; a worker whose model is damaged is refused before it takes work and the render
finishes on the other; each take records which worker made it."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from app.core.errors import StudioError
from app.core.request import SamplingParams
from app.narration.farm.local import local_farm
from app.narration.farm.plan import auto_workers, worker_specs
from app.narration.farm.worker import WorkerSpec
from app.narration.project import Project
from app.narration.render import Renderer
from tests.support.narration_books import book

# Each worker process loads its own model (seconds on a quiet machine, minutes on a busy one).
pytestmark = pytest.mark.timeout(1800)

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))


def takes(project):
    return {(s.chapter_id, s.index): project.take_audio(s.take_id) for s in project.sentences()}


def render_on(farm, path, on_progress=None, in_flight=2):
    project = Project.create(path, book(), seed=5)
    try:
        outcome = Renderer(project, farm, in_flight=in_flight, **FAST).render(
            on_progress=on_progress
        )
    finally:
        farm.close()
    return project, outcome


def cpu(name, model, threads=1):
    return WorkerSpec(name, str(model), "cpu", "fp32", threads=threads)


@pytest.fixture(scope="module")
def one_worker(tiny_model, tmp_path_factory):
    """The reference: the same book rendered by one worker process."""
    project, outcome = render_on(
        local_farm([cpu("cpu0", tiny_model)]),
        tmp_path_factory.mktemp("farm") / "one.ctsproj",
        in_flight=1,
    )
    assert outcome.state == "finished" and outcome.done == 6
    return takes(project)


def assert_same(expected, got):
    assert expected.keys() == got.keys()
    for key in expected:
        assert np.array_equal(expected[key], got[key]), key


def test_two_workers_give_the_same_takes_as_one_and_a_killed_one_is_replaced(
    one_worker, tiny_model, tmp_path
):
    farm = local_farm([cpu("cpu0", tiny_model), cpu("cpu1", tiny_model)])
    killed = []

    def kill_once(progress):
        """SIGKILL a worker while it holds a sentence (so that sentence must be queued again)."""
        if progress.done >= 1 and not killed:
            busy = [
                slot for slot in farm.farm.slots if farm.farm._current.get(slot.name) is not None
            ]
            if busy:
                killed.append((busy[0], busy[0].process.pid))
                os.kill(busy[0].process.pid, signal.SIGKILL)

    project, outcome = render_on(farm, tmp_path / "two.ctsproj", on_progress=kill_once)
    assert killed and outcome.state == "finished" and outcome.done == 6 and outcome.failed == []
    slot, pid = killed[0]
    assert slot.process.pid != pid  # a new process took its place
    assert farm.notices == []  # restarted, not retired
    assert_same(one_worker, takes(project))
    makers = {t.worker for s in project.sentences() for t in project.takes(s.id)}
    assert all(m.endswith((" on cpu0", " on cpu1")) for m in makers), makers


def test_a_worker_with_a_damaged_model_is_refused_before_work(
    one_worker, tiny_model, model_copy, tmp_path
):
    weights = next(p for p in model_copy.rglob("*.safetensors"))
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0xFF
    weights.write_bytes(bytes(data))
    farm = local_farm([cpu("good", tiny_model), cpu("damaged", model_copy)])
    project, outcome = render_on(farm, tmp_path / "refused.ctsproj")
    assert outcome.state == "finished" and outcome.done == 6
    assert len(farm.notices) == 1 and "damaged" in farm.notices[0] and "refused" in farm.notices[0]
    assert "checksum" in farm.notices[0]
    assert_same(one_worker, takes(project))
    assert {
        t.worker.rsplit(" on ", 1)[1] for s in project.sentences() for t in project.takes(s.id)
    } == {"good"}


def test_when_every_worker_is_refused_the_render_ends_with_their_reasons(model_copy, tmp_path):
    (next(model_copy.rglob("*.safetensors"))).write_bytes(b"not a model")
    farm = local_farm([cpu("only", model_copy)])
    with pytest.raises(StudioError) as ended:
        render_on(farm, tmp_path / "none.ctsproj")
    message = str(ended.value)
    assert (
        "No render worker is left" in message and "Worker only" in message and "checksum" in message
    )
    project = Project.open(tmp_path / "none.ctsproj")
    assert all(s.take_id is None for s in project.sentences())  # nothing half-made


def test_auto_means_one_per_gpu_or_cpu_workers_of_four_threads():
    assert auto_workers(cores=2, gpus=0) == 1  # this machine: the engine renders alone
    assert auto_workers(cores=16, gpus=0) == 4
    assert auto_workers(cores=16, gpus=1) == 1
    assert auto_workers(cores=16, gpus=4) == 4
    specs = worker_specs(3, "/m", cores=8, gpus=2)
    assert [(s.device, s.gpu, s.threads) for s in specs] == [
        ("cuda", 0, None),
        ("cuda", 1, None),
        ("cpu", None, 8),
    ]
    assert [s.threads for s in worker_specs(2, "/m", cores=8, gpus=0)] == [4, 4]
