"""How TorchScript runs a compiled step: int8 with the executor's graph optimization off (its
first call would otherwise wait for it, and int8 runs no faster with it), every other precision
with it on; the switch is the calling thread's and is put back after every call, also one that
fails, so no other model in the process is affected."""

import pytest
import torch

from app.decode.loop import DecodeLoop
from app.decode.options import DecodeOptions
from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.decode.unoptimized import Unoptimized

EOS_AUDIO = 625


def _optimizing() -> bool:
    return torch._C._get_graph_executor_optimize()


def _spy(fn, seen: list):
    def call(*args):
        seen.append(_optimizing())
        return fn(*args)

    return call


def _generate(loop, chat, tokens=6):
    emb, mask = code_prompt(chat, ["你好。"], "[speed_5]", None, None, None)
    return list(
        loop.generate(
            emb, mask, True, PassParams(0.7, 0.7, 20, 1.05, tokens, tokens), [1], eos=EOS_AUDIO
        )
    )[-1]


def test_int8_steps_run_unoptimized_and_the_threads_switch_is_put_back(synthesizer):
    chat = synthesizer.parts
    loop = DecodeLoop(chat, "jit", "int8")
    assert loop.mode == "jit"
    seen = {"step": [], "filter": [], "draw": []}
    loop._run.fn = _spy(loop._run.fn, seen["step"])
    loop._filter.fn = _spy(loop._filter.fn, seen["filter"])
    loop._draw.fn = _spy(loop._draw.fn, seen["draw"])
    result = _generate(loop, chat)
    assert result.tokens[0].shape[0] == 6
    assert len(seen["step"]) == 6  # the prompt's pass and five steps
    assert seen["filter"] and seen["draw"]
    assert not any(seen["step"] + seen["filter"] + seen["draw"])
    assert _optimizing()


def test_fp32_steps_keep_the_executors_optimization(synthesizer):
    chat = synthesizer.parts
    loop = DecodeLoop(chat, "jit", "fp32")
    assert loop.mode == "jit" and loop._run is None
    seen = []
    loop._stack = _spy(loop._stack, seen)
    _generate(loop, chat)
    assert seen and all(seen)


def test_the_benchmarks_can_compare_against_the_optimizing_executor(synthesizer):
    loop = DecodeLoop(
        synthesizer.parts, "jit", "int8", options=DecodeOptions(int8_unoptimized=False)
    )
    assert loop.mode == "jit" and loop._run is None


def test_a_failing_call_still_puts_the_switch_back():
    def fails(*_args):
        assert not _optimizing()
        raise RuntimeError("the step failed")

    with pytest.raises(RuntimeError, match="the step failed"):
        Unoptimized(fails)(1, 2)
    assert _optimizing()


def test_a_thread_that_had_it_off_keeps_it_off():
    seen = []
    with torch.jit.optimized_execution(False):
        Unoptimized(lambda: seen.append(_optimizing()))()
        assert not _optimizing()
    assert seen == [False] and _optimizing()


def test_only_a_step_whose_first_calls_cost_more_is_warmed_up_with_sentences(synthesizer):
    from app.decode.speech import FastSpeech

    chat = synthesizer.parts
    int8 = DecodeLoop(chat, "jit", "int8")
    assert not int8.first_calls_cost
    assert FastSpeech(chat, int8).warm_up_parts([]) == []
    fp32 = synthesizer.loop
    assert fp32.precision == "fp32" and fp32.first_calls_cost
    assert len(FastSpeech(chat, fp32).warm_up_parts([])) == 2
