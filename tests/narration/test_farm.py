"""The render farm on the tiny model: two local worker processes give the same takes as one,
sample for sample; a worker killed (SIGKILL) midway loses only its sentences in flight, which are
rendered again; a worker whose model is damaged is refused before it takes work and the render
finishes on the other; each take records which worker made it. A worker renders the sentences in
flight on it in one batch, to the takes it makes one at a time (the same tokens and voices, the
audio within the engine's float rounding), and a cancel stops every one of them."""

from __future__ import annotations

import os
import signal
import threading
import time

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


def cpu(name, model, threads=1, **more):
    return WorkerSpec(name, str(model), "cpu", "fp32", threads=threads, **more)


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


def assert_same_batched(expected, got):
    """Sentences that shared a batch: the same tokens (lengths), the audio within the engine's
    float rounding (tests/narration/test_render.py); each chapter's first sentence, made alone
    for its voice, to the bit."""
    assert expected.keys() == got.keys()
    for key in expected:
        assert len(expected[key]) == len(got[key]), key
        np.testing.assert_allclose(expected[key], got[key], atol=1e-5)
        if key[1] == 0:
            assert np.array_equal(expected[key], got[key]), key


def test_two_workers_give_the_same_takes_as_one_and_a_killed_one_is_replaced(
    one_worker, tiny_model, tmp_path
):
    # One sentence at a time on each worker: whichever made it, alone, its take is the same to
    # the bit (sentences sharing a batch: test_a_batching_worker_gives_the_takes_...).
    farm = local_farm([cpu("cpu0", tiny_model, in_flight=1), cpu("cpu1", tiny_model, in_flight=1)])
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
    farm = local_farm([cpu("good", tiny_model, in_flight=1), cpu("damaged", model_copy)])
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


def test_a_worker_renders_its_sentences_in_flight_in_one_batch_as_it_would_one_by_one(tiny_model):
    """In this process (its engine's steps observed): four sentences handed to a worker at once
    decode in one batch of four rows, to the audio each makes alone; a cancel of every one stops
    them all, and the worker goes on."""
    from app.core.errors import SynthesisCancelled
    from app.core.request import SynthesisRequest
    from app.narration.farm.worker import RenderWorker
    from tests.support.decode_hooks import hooking_steps

    worker = RenderWorker(cpu("here", tiny_model, threads=None))
    try:
        requests = [
            SynthesisRequest(text, seed=seed, **FAST)
            for seed, text in enumerate(
                ["第一句话。", "第二句话。", "今天天气很好。", "我们去公园。"], 3
            )
        ]
        alone = [worker.handle("render", r, i)[1].audio for i, r in enumerate(requests)]
        rows: list[int] = []
        with hooking_steps(
            worker.synth.loop, lambda _step, _logits, live: rows.append(live.numel())
        ):
            together = _in_flight(worker, requests, 10)
        assert max(rows) == 4  # one batch of the four
        for one, batched in zip(alone, together):
            assert batched[0] == "ok"
            assert len(batched[1].audio) == len(one)
            np.testing.assert_allclose(batched[1].audio, one, atol=1e-5)

        long = SamplingParams(max_new_tokens=2000, min_new_tokens=2000)
        slow = [
            SynthesisRequest(r.text, seed=r.seed, refine_text=False, sampling=long)
            for r in requests
        ]
        replies: dict = {}
        threads = [
            threading.Thread(
                target=lambda i=i: replies.__setitem__(i, worker.handle("render", slow[i], 20 + i))
            )
            for i in range(4)
        ]
        rows.clear()
        with hooking_steps(
            worker.synth.loop, lambda _step, _logits, live: rows.append(live.numel())
        ):
            for t in threads:
                t.start()
            deadline = time.monotonic() + 120
            while (not rows or rows[-1] < 4) and time.monotonic() < deadline:  # all four decode
                time.sleep(0.01)
            for i in range(4):
                worker.cancel(20 + i)
            for t in threads:
                t.join(60)
        assert [replies[i][:2] for i in range(4)] == [("error", SynthesisCancelled.__name__)] * 4
        assert len(rows) < 1000  # stopped well before their 2000 tokens
        again = worker.handle("render", requests[0], 30)
        assert again[0] == "ok" and np.array_equal(again[1].audio, alone[0])
    finally:
        worker.close()


def test_a_worker_makes_whole_takes_with_one_vocoder_call_per_batch(tiny_model, monkeypatch):
    """Nobody listens to a worker's sentence while it is made: its vocoder runs once, on the
    whole sentence, where a streaming engine (the window's) calls it every few tokens."""
    from app.core.request import SynthesisRequest
    from app.decode import speech
    from app.narration.farm.worker import RenderWorker

    calls: list[int] = []
    pushed = speech._timed_push_all

    def counted(parts, asks):
        calls.append(len(asks))
        return pushed(parts, asks)

    monkeypatch.setattr(speech, "_timed_push_all", counted)
    worker = RenderWorker(cpu("here", tiny_model, threads=None))
    try:
        long = SamplingParams(max_new_tokens=64, min_new_tokens=64)
        request = SynthesisRequest("今天天气很好。", seed=4, refine_text=False, sampling=long)
        calls.clear()  # the load's warm-up sentences
        reply = worker.handle("render", request, 1)
        assert reply[0] == "ok" and reply[1].audio.size > 60 * 2 * 256  # 64 tokens of audio
        assert calls == [1]
    finally:
        worker.close()


def _in_flight(worker, requests, first_item):
    """The worker's replies to `requests` handed to it at once (each on a thread of its own, as
    the farm's lanes do), in their order."""
    replies: dict = {}
    threads = [
        threading.Thread(
            target=lambda i=i: replies.__setitem__(
                i, worker.handle("render", requests[i], first_item + i)
            )
        )
        for i in range(len(requests))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return [replies[i] for i in range(len(requests))]


def test_a_batching_worker_gives_the_takes_of_one_at_a_time_and_cancel_stops_all(
    one_worker, tiny_model, tmp_path
):
    """One worker process with four sentences in flight: the takes of the one-at-a-time render
    (same tokens and voices, the audio within float rounding); then, on long sentences, a cancel
    while four are in flight stops them all at once and leaves them pending."""
    project, outcome = render_on(
        local_farm([cpu("cpu0", tiny_model, in_flight=4)]),
        tmp_path / "batched.ctsproj",
        in_flight=4,
    )
    assert outcome.state == "finished" and outcome.done == 6 and outcome.failed == []
    assert_same_batched(one_worker, takes(project))

    farm = local_farm([cpu("cpu0", tiny_model, in_flight=4)])
    long = dict(
        refine_text=False, sampling=SamplingParams(max_new_tokens=2000, min_new_tokens=2000)
    )
    chapter = (
        ("One", ("第一句话。", "第二句话。", "第三句话。", "今天天气很好。", "我们去公园。")),
    )
    slow = Project.create(tmp_path / "slow.ctsproj", book(chapter), seed=5)
    renderer = Renderer(slow, farm, in_flight=4, **long)
    timing = {}

    def cancel_when_four_fly(progress):
        """The first sentence (alone: it makes the voice) took lead_s; then cancel four."""
        if progress.done == 1 and "lead_s" not in timing:
            timing["lead_s"] = progress.wall_seconds

    def watch():
        deadline = time.monotonic() + 600
        while len(farm.farm._current.get("cpu0", [])) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)  # they decode
        timing["cancelled"] = time.monotonic()
        renderer.cancel()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        outcome = renderer.render(on_progress=cancel_when_four_fly)
        stopped_s = time.monotonic() - timing["cancelled"]
    finally:
        farm.close()
    assert outcome.state == "cancelled" and outcome.done == 1 and outcome.failed == []
    assert [s.take_id is None for s in slow.sentences()] == [False, True, True, True, True]
    assert stopped_s < timing["lead_s"] / 2  # four stopped long before one alone would end


def test_a_killed_worker_s_sentences_in_flight_are_all_rendered_again(
    one_worker, tiny_model, tmp_path
):
    """Two workers with two sentences each in flight; one is killed holding two: both go back
    to the queue (each then tried alone) and the render finishes with the same takes."""
    farm = local_farm([cpu("cpu0", tiny_model, in_flight=4), cpu("cpu1", tiny_model, in_flight=4)])
    killed = []

    def kill_holding_two():
        """SIGKILL a worker while it holds two sentences (both must be queued again)."""
        deadline = time.monotonic() + 600
        while not killed and time.monotonic() < deadline:
            with farm.farm._state:
                busy = [s for s in farm.farm.slots if len(farm.farm._current.get(s.name, [])) >= 2]
                if busy:
                    killed.append(len(farm.farm._current[busy[0].name]))
                    os.kill(busy[0].process.pid, signal.SIGKILL)
            time.sleep(0.005)

    threading.Thread(target=kill_holding_two, daemon=True).start()
    project, outcome = render_on(farm, tmp_path / "killed.ctsproj", in_flight=4)
    assert killed and killed[0] >= 2
    assert outcome.state == "finished" and outcome.done == 6 and outcome.failed == []
    assert farm.notices == []
    assert_same_batched(one_worker, takes(project))
