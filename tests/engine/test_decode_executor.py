"""Which TorchScript executor a compiled step gets: int8 the one that optimizes on its first
run (a Play pressed at ready waits for the warm-up's first run), every other precision
PyTorch's default, whatever was compiled before it."""

import pytest
import torch

from app.engine.decode.loop import DecodeLoop


def _profiling_executor() -> bool:
    before = torch._C._jit_set_profiling_executor(True)
    torch._C._jit_set_profiling_executor(before)
    return before


@pytest.fixture
def restored():
    before = _profiling_executor()
    yield
    torch._C._jit_set_profiling_executor(before)


def test_int8_compiles_for_the_executor_that_optimizes_once_and_fp32_for_the_default(synthesizer, restored):
    chat = synthesizer.chat
    int8 = DecodeLoop(chat, "jit", "int8")
    assert int8.mode == "jit" and not _profiling_executor()
    fp32 = DecodeLoop(chat, "jit", "fp32")
    assert fp32.mode == "jit" and _profiling_executor()
    DecodeLoop(chat, "jit", "int8")
    assert not _profiling_executor()


def test_an_eager_loop_leaves_the_executor_alone(synthesizer, restored):
    torch._C._jit_set_profiling_executor(True)
    DecodeLoop(synthesizer.chat, "eager", "int8")
    assert _profiling_executor()
