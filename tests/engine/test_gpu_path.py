"""The GPU decode path, simulated on the CPU: precision choice, length buckets, kept caches,
one draw per sentence, lazy completion checks, overflow detection and graph capture failures
(a GPU's memory and batches: test_gpu_memory.py)."""

import pytest
import torch

from app.core.errors import NumericalError
from app.decode import memory, precision, static_steps
from app.decode.loop import DecodeLoop
from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.decode.row_sampling import row_uniforms
from tests.support.decode_hooks import step_hooked

TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]
EOS_AUDIO = 625
PARAMS = PassParams(0.3, 0.7, 20, 1.05, 40)


def _generate(loop, chat, params=PARAMS, seeds=(1, 2, 3), texts=TEXTS):
    emb, mask = code_prompt(chat, texts, "[speed_5]", None, None, None)
    return list(loop.generate(emb, mask, True, params, list(seeds), eos=EOS_AUDIO))[-1]


def _same(a, b):
    assert [t.shape for t in a.tokens] == [t.shape for t in b.tokens]
    for x, y in zip(a.tokens, b.tokens):
        assert torch.equal(x, y)
    for x, y in zip(a.hiddens, b.hiddens):
        torch.testing.assert_close(x, y, rtol=1e-4, atol=1e-4)


def _fixed_shape(chat):
    loop = DecodeLoop(chat, "eager", "fp32")
    loop.static_steps = True  # what runs on a GPU, without the graph
    return loop


# -- precision --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "capability, expected",
    [((6, 1), "fp16"), ((7, 5), "fp16"), ((8, 0), "bf16"), ((8, 9), "bf16"), ((12, 0), "bf16")],
)
def test_automatic_gpu_precision_needs_native_bf16(capability, expected, monkeypatch):
    # PyTorch 2.14 says yes for emulated bf16 on GTX 10xx-RTX 20xx: it must not be asked.
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert precision.choose("auto", "cuda", capability) == (expected, None)


@pytest.mark.parametrize("asked, device", [("int8", "cuda"), ("fp16", "cpu")])
def test_a_choice_for_the_other_device_falls_back_to_automatic_with_a_note(asked, device):
    chosen, note = precision.choose(asked, device, (7, 5))
    runs = precision.choose("auto", device, (7, 5))[0]  # fp16 on that card; int8 (or fp32) on a CPU
    assert chosen == runs and runs != asked
    assert asked in note and runs in note and "automatic" in note


def test_unknown_precision_is_still_refused():
    with pytest.raises(Exception, match="Unknown precision"):
        precision.choose("fp8", "cpu")


def test_synthesizer_with_a_precision_this_device_lacks_loads_and_says_so(tiny_model):
    from app.synthesis.synthesizer import Synthesizer

    synth = Synthesizer(tiny_model, device="cpu", precision="fp16")
    synth.load()
    automatic = precision.choose("auto", "cpu")[0]  # int8 where x86 int8 kernels exist
    assert synth.precision == automatic and synth.decode_label == f"jit-{automatic}"
    assert len(synth.notes) == 1 and "fp16 is not available on the CPU" in synth.notes[0]


# -- one draw per sentence --------------------------------------------------------------
def test_a_sentences_random_numbers_drawn_at_once_equal_one_draw_per_step(chat):
    loop = DecodeLoop(chat, "eager", "fp32")
    table = row_uniforms([11, 12], 2048, 4, loop.device)
    for row, seed in enumerate([11, 12]):
        g = torch.Generator().manual_seed(seed)
        per_step = torch.stack([torch.rand(4, 1, generator=g).reshape(-1) for _ in range(2048)])
        assert torch.equal(table[row], per_step)


# -- lazy completion checks -------------------------------------------------------------
def test_checking_completion_every_few_steps_gives_the_same_sentences(chat):
    ends = {0: 3, 1: 13}

    def force_ends(step, logits, rows):
        for place, row in enumerate(rows.tolist()):
            if ends.get(row) is not None and step >= ends[row]:
                logits[place * 4 : (place + 1) * 4] = float("-inf")
                logits[place * 4 : (place + 1) * 4, EOS_AUDIO] = 0.0
        steps.append(step)

    results = []
    for every in (1, 8):
        loop = _fixed_shape(chat)
        loop.sync_every = every
        steps = []
        loop.filter_step = step_hooked(loop, force_ends)
        results.append(
            (
                _generate(
                    loop,
                    chat,
                    PassParams(0.3, 0.7, 20, 1.05, 40),
                    texts=[TEXTS[0], TEXTS[2]],
                    seeds=[1, 3],
                ),
                len(steps),
            )
        )
    (exact, exact_steps), (lazy, lazy_steps) = results
    assert [t.shape[0] for t in exact.tokens] == [3, 13]
    _same(exact, lazy)
    assert exact.hit_limit == lazy.hit_limit == [False, False]
    assert (
        exact_steps == 14 and exact_steps <= lazy_steps < exact_steps + 8
    )  # ran on at most a few steps


# -- length buckets and kept caches -----------------------------------------------------
def test_buckets_double_up_to_the_capacity(monkeypatch):
    assert static_steps.capacity_for(2100, 4096) == 2304
    assert static_steps.capacity_for(4000, 4096) == 4096
    assert static_steps.buckets(2304) == [256, 512, 1024, 2048, 2304]
    assert static_steps.bucket_for(257, [256, 512, 2304]) == 512
    assert static_steps.bucket_for(256, [256, 512, 2304]) == 256


def test_fixed_shape_steps_attend_to_the_smallest_bucket_and_match_the_growing_step(
    chat, monkeypatch
):
    monkeypatch.setattr(static_steps, "SLOT_ROUND", 16)
    growing = DecodeLoop(chat, "eager", "fp32")
    fixed = _fixed_shape(chat)
    lengths = []
    real = fixed.run_stack

    def spy(x, rows_at, mask, k, v, write_at, length):
        if x.shape[1] == 1:
            lengths.append((int(write_at[0]) + 1, length, mask.shape[-1]))
        return real(x, rows_at, mask, k, v, write_at, length)

    monkeypatch.setattr(fixed, "run_stack", spy)
    _same(_generate(growing, chat), _generate(fixed, chat))
    sizes = static_steps.buckets(
        fixed.static_entry(3, lengths[0][0] - 1 + PARAMS.max_new_tokens).capacity
    )
    assert len({length for _, length, _ in lengths}) >= 2  # it switched buckets on the way
    for written, length, mask_len in lengths:
        assert length == mask_len == static_steps.bucket_for(written, sizes)


def test_caches_are_kept_across_requests_and_stale_values_change_nothing(chat):
    loop = _fixed_shape(chat)
    first = _generate(loop, chat, seeds=(1, 2, 3))
    entry = loop.static_caches.get(*loop.static_caches.keys()[0])
    address = entry.k.data_ptr()
    _generate(loop, chat, seeds=(7, 8, 9))  # leaves other values in the cache
    again = _generate(loop, chat, seeds=(1, 2, 3))
    assert loop.static_caches.get(*loop.static_caches.keys()[-1]).k.data_ptr() == address
    _same(first, again)


def test_kept_caches_are_bounded_and_freed(chat):
    loop = _fixed_shape(chat)
    for batch in range(1, static_steps.KEEP_ENTRIES + 3):
        loop.static_entry(batch, 100)
    assert len(loop.static_caches.keys()) == static_steps.KEEP_ENTRIES
    assert loop.static_caches.keys()[-1] == (static_steps.KEEP_ENTRIES + 2, 256)
    loop.release_static()
    assert loop.static_caches.keys() == []


def test_memory_held_by_kept_caches_counts_as_free_when_choosing_a_batch(chat, monkeypatch):
    loop = _fixed_shape(chat)
    monkeypatch.setattr(memory, "EXTRA_PER_ROW", 0)
    per_row = loop.cache_bytes_per_row(2304)
    monkeypatch.setattr(memory, "free_bytes", lambda _device: per_row)  # room for half a row
    assert memory.choose_batch(loop, 2304, 4) == 1
    loop.static_entry(4, 2304)
    assert loop.kept_cache_bytes() == 4 * loop.cache_bytes_per_row(2304)
    assert memory.choose_batch(loop, 2304, 4) == 2  # (4 + 1) / 2 rows


def test_a_new_cache_that_does_not_fit_frees_the_kept_ones_first(chat, monkeypatch):
    loop = _fixed_shape(chat)
    loop.static_entry(1, 256)
    real = loop.static_caches._allocate
    calls = []

    def tight(batch, capacity):
        calls.append(len(loop.static_caches.keys()))
        if loop.static_caches.keys():
            raise torch.OutOfMemoryError("CUDA out of memory.")
        return real(batch, capacity)

    monkeypatch.setattr(loop.static_caches, "_allocate", tight)
    loop.static_entry(2, 256)
    assert calls == [1, 0] and loop.static_caches.keys() == [(2, 256)]


# -- overflow ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "prec, advice", [("fp16", "choose fp32 precision"), ("fp32", "models verify")]
)
def test_numbers_that_overflow_stop_with_a_sentence_instead_of_silence(
    chat, monkeypatch, prec, advice
):
    loop = _fixed_shape(chat)
    loop.sync_every = 8
    loop.precision = prec
    real = loop.run_stack
    calls = []

    def overflow(x, *args):
        out = real(x, *args)
        calls.append(1)
        if len(calls) > 5:
            out = out.clone()
            out[1] = float("inf")
        return out

    monkeypatch.setattr(loop, "run_stack", overflow)
    with pytest.raises(NumericalError, match=advice) as caught:
        _generate(loop, chat)
    assert "sentence 2 of the batch" in str(caught.value)
    assert loop.static_caches.keys() == []  # no poisoned cache is kept


# -- graph capture ----------------------------------------------------------------------
class _FakeCuda:
    """Enough of torch.cuda to run GraphedStep's capture on CPU tensors."""

    def __init__(self, monkeypatch, fail=None):
        self.graph_kwargs, self.streams_set, self.fail = [], [], fail
        outer = self

        class Stream:
            def wait_stream(self, _other):
                pass

        class Graph:
            def __init__(self, _graph, **kwargs):
                outer.graph_kwargs.append(kwargs)

            def __enter__(self):
                if outer.fail:
                    raise outer.fail

            def __exit__(self, *exc):
                return False

        class CUDAGraph:
            def replay(self):
                pass

        self.current = Stream()
        monkeypatch.setattr(torch.cuda, "Stream", Stream)
        monkeypatch.setattr(torch.cuda, "stream", lambda _s: _NullContext())
        monkeypatch.setattr(torch.cuda, "current_stream", lambda *a: self.current)
        monkeypatch.setattr(torch.cuda, "set_stream", self.streams_set.append)
        monkeypatch.setattr(torch.cuda, "graph", Graph)
        monkeypatch.setattr(torch.cuda, "CUDAGraph", CUDAGraph)
        monkeypatch.setattr(torch.cuda, "graph_pool_handle", lambda: "pool")


class _NullContext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _graph_loop(chat):
    loop = _fixed_shape(chat)
    loop.cuda_graphs = True
    return loop


def test_graphs_are_captured_per_bucket_once_in_thread_local_mode_and_shared_across_requests(
    chat, monkeypatch
):
    fake = _FakeCuda(monkeypatch)
    loop = _graph_loop(chat)
    loop.prepare_graphs(2, 600)
    entry = loop.static_entry(2, 600)
    assert sorted(entry.graphs) == static_steps.buckets(entry.capacity) == [256, 512, 768]
    assert len(fake.graph_kwargs) == 3
    assert all(
        k == {"pool": "pool", "capture_error_mode": "thread_local"} for k in fake.graph_kwargs
    )
    loop.prepare_graphs(2, 600)
    assert len(fake.graph_kwargs) == 3  # kept, not captured again


def test_a_failed_capture_restores_the_stream_and_is_not_retried(chat, monkeypatch, caplog):
    fake = _FakeCuda(
        monkeypatch, fail=RuntimeError("operation not permitted when stream is capturing")
    )
    loop = _graph_loop(chat)
    result = _generate(loop, chat)
    assert fake.streams_set == [fake.current]  # back on the stream it was on
    assert loop.cuda_graphs is False and loop.mode == "eager"
    assert "CUDA graph capture failed" in caplog.text
    _generate(loop, chat)
    assert len(fake.graph_kwargs) == 1  # never tried again
    _same(result, _generate(_fixed_shape(chat), chat))  # and the request still completed


def test_out_of_memory_during_capture_reaches_the_batch_halving(chat, monkeypatch):
    fake = _FakeCuda(monkeypatch, fail=torch.OutOfMemoryError("CUDA out of memory."))
    loop = _graph_loop(chat)
    with pytest.raises(torch.OutOfMemoryError):
        _generate(loop, chat)
    assert fake.streams_set == [fake.current]
    assert loop.cuda_graphs is True  # OOM is not "graphs do not work here"


def test_warm_up_captures_the_graphs_of_the_shapes_requests_will_use(synthesizer, monkeypatch):
    prepared = []
    monkeypatch.setattr(synthesizer.loop, "prepare_graphs", lambda b, t: prepared.append((b, t)))
    for part in synthesizer.speech.warm_up_parts([(1, 2304), (4, 2304)]):
        part()
    assert (1, 2304) in prepared and (4, 2304) in prepared
    assert {b for b, t in prepared if t < 1024} == {1, 4}  # the refine pass too
