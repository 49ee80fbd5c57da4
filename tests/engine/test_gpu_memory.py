"""A GPU's memory and batches, simulated on the CPU: out-of-memory classification, free memory,
each device's batch limit, and retries that cannot splice exactly."""

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from app.core.errors import is_out_of_memory
from app.core.request import SamplingParams, SynthesisRequest
from app.decode import memory
from tests.support.decode_hooks import step_hooked


@pytest.mark.parametrize(
    "message",
    [
        "CUDA out of memory. Tried to allocate 2.00 GiB",
        "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "cuDNN error: CUDNN_STATUS_ALLOC_FAILED",
    ],
)
def test_allocation_failures_count_as_out_of_memory(message):
    assert is_out_of_memory(RuntimeError(message))
    assert not is_out_of_memory(RuntimeError("CUBLAS_STATUS_EXECUTION_FAILED"))


def test_free_gpu_memory_counts_what_pytorch_holds_unused(monkeypatch):
    monkeypatch.setattr(torch.cuda, "mem_get_info", lambda _d: (1_000, 8_000))
    monkeypatch.setattr(torch.cuda, "memory_reserved", lambda _d: 5_000)
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda _d: 3_500)
    assert memory.free_bytes(torch.device("cuda", 0)) == 2_500


def test_a_gpu_batches_up_to_its_own_limit():
    loop = SimpleNamespace(device=torch.device("cuda", 0), cache_bytes_per_row=lambda _n: 1)
    memory_free = memory.free_bytes
    try:
        memory.free_bytes = lambda _d: 2**40
        assert memory.choose_batch(loop, 2304, 64) == memory.MAX_BATCH["cuda"] == 16
        loop.device = torch.device("cpu")
        assert memory.choose_batch(loop, 2304, 64) == memory.MAX_BATCH["cpu"]
    finally:
        memory.free_bytes = memory_free


def test_later_batches_use_the_devices_batch_limit(synthesizer, monkeypatch):
    import app.synthesis.decoders as module

    monkeypatch.setattr(module, "max_batch", lambda _device: 6)
    monkeypatch.setattr(memory, "MAX_BATCH", {"cpu": 6, "cuda": 16})
    sizes = []
    monkeypatch.setattr(
        synthesizer.loop,
        "filter_step",
        step_hooked(
            synthesizer.loop, lambda step, logits, rows: step == 0 and sizes.append(len(rows))
        ),
    )
    text = "".join(f"第{n}句。" for n in range(1, 8))
    synthesizer.run(
        SynthesisRequest(
            text, refine_text=False, voice_lock=False, sampling=SamplingParams(max_new_tokens=8)
        )
    )
    assert sizes == [1, 6]


def test_an_inexact_retry_cuts_a_partly_played_sentence_with_a_warning(synthesizer, monkeypatch):
    """On a GPU a smaller batch gives other low bits: the retry would not continue the sound
    where it stopped, so a sentence already partly played ends there, said in a warning."""
    loop = synthesizer.loop
    monkeypatch.setattr(loop, "exact_across_batches", False)
    real = loop.run_stack
    seen = {"steps": 0}

    def failing(x, *args):
        if x.shape[0] > 1:
            seen["steps"] += 1
            if seen["steps"] == 30:
                raise torch.OutOfMemoryError("CUDA out of memory.")
        return real(x, *args)

    monkeypatch.setattr(loop, "run_stack", failing)
    request = SynthesisRequest(
        "第一句话。第二句话。第三句话。第四句话。",
        voice_lock=False,
        refine_text=False,
        sampling=SamplingParams(max_new_tokens=96),
    )
    chunks = []
    result = synthesizer.run(request, on_chunk=chunks.append)
    finals = [c.index for c in chunks if c.final]
    assert finals == [0, 1, 2, 3]  # each sentence ends once, in order
    cut = [w for w in result.warnings if "cut short" in w]
    assert cut and all(w.startswith(("Sentence 2", "Sentence 3", "Sentence 4")) for w in cut)
    played = {i: sum(c.samples.size for c in chunks if c.index == i) for i in range(4)}
    assert all(played[i] > 0 for i in range(4))
    assert result.audio.size == sum(played.values())
    np.testing.assert_array_equal(result.audio, np.concatenate([c.samples for c in chunks]))
