"""A first start converts the step's layers two at a time (decode/layer_threads.py): the int8
step it builds is the same, bit for bit, as one converted a layer at a time."""

import threading

import pytest
import torch

from app.decode import int8, int8_rows, layer_threads
from app.decode.int8_rows import RowScaledLinear, _per_channel_int8
from app.decode.llama_step import layers_of
from app.decode.loop import DecodeLoop
from tests.support.outlier_model import stress_view


def test_each_layer_runs_two_at_a_time_and_keeps_the_order():
    both_in = threading.Barrier(2, timeout=10)  # breaks unless two layers run at once
    names = set()

    def work(i):
        if i < 2:
            both_in.wait()
        names.add(threading.current_thread().name)
        return i * i

    assert layer_threads.each_layer(work, range(6)) == [i * i for i in range(6)]
    assert len(names) == 2


def test_per_channel_weights_are_the_observers_bits():
    """max(max, -min) for max |w|, and division in place, change nothing: the same int8 and scales
    as the formula of PyTorch's per-channel observer (largest magnitude / 127.5)."""
    g = torch.Generator().manual_seed(3)
    weight = torch.randn(96, 80, generator=g) * torch.rand(96, 1, generator=g) * 4
    weight[5] = 0.0  # an all-zero row: the smallest scale, not a division by zero
    scale = (weight.abs().amax(1) / 127.5).clamp(min=torch.finfo(torch.float32).eps).double()
    expected = torch.round(weight / scale.float()[:, None]).clamp_(-128, 127).to(torch.int8)
    q = _per_channel_int8(weight)
    assert torch.equal(q.int_repr(), expected)
    assert torch.equal(q.q_per_channel_scales(), scale)


def _state(stack) -> list[torch.Tensor]:
    """Everything the converted stack computes with: norms, int8 matrices, scales, sums."""
    out = []
    for layer in layers_of(stack):
        out += [layer.ln_in.detach(), layer.ln_post.detach()]
        for linear in (layer.qkv, layer.o, layer.gate_up, layer.down):
            assert isinstance(linear, RowScaledLinear)
            weight, _ = torch.ops.quantized.linear_unpack(linear.params._packed_params)
            out += [weight.int_repr(), weight.q_per_channel_scales(), linear.weight_sums]
    return out


@pytest.fixture(scope="module")
def stress(chat):
    return stress_view(chat)


def test_two_threads_convert_the_same_step_as_one_layer_after_another(stress, monkeypatch):
    loop = DecodeLoop(stress, "eager", "fp32")

    def calibration():
        return int8.calibration_prompt(loop.emb_text, loop.emb_code), loop._cos, loop._sin

    threaded = _state(int8.quantize(loop._stack, calibration))

    def in_order(work, layers):  # on this thread, as before the threads
        return [work(layer) for layer in layers]

    monkeypatch.setattr(int8, "each_layer", in_order)
    monkeypatch.setattr(int8_rows, "each_layer", in_order)
    serial = _state(int8.quantize(loop._stack, calibration))
    assert len(serial) == len(threaded) > 0
    assert all(torch.equal(a, b) for a, b in zip(serial, threaded, strict=True))


def test_smoothing_scales_are_the_bits_of_max_abs():
    g = torch.Generator().manual_seed(5)
    weights = [torch.randn(40, 24, generator=g) * 3, torch.randn(16, 24, generator=g)]
    weights[1][:, 7] = 0.0  # a column of zeros: the scale's floor
    act = torch.rand(24, generator=g) * 50
    w_max = torch.stack([w.abs().amax(0) for w in weights]).amax(0).float()
    expected = (act.clamp(min=1e-5).pow(0.5) / w_max.clamp(min=1e-5).pow(0.5)).clamp(min=1e-5)
    assert torch.equal(int8._scales(act, weights, 0.5), expected)
