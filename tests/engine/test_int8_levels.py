"""The int8 step's activation levels (decode/int8_levels.py): 255 only where this CPU's kernel
sums them exactly, 127 where a pair of products saturates 16 bits (AVX2 without VNNI), and the
row-scaled Linear quantizes to the levels chosen."""

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from app.decode import int8_levels, int8_rows
from app.decode.int8_levels import FULL, SAFE, kernel, row_levels, sums_exactly


def _quantized(x: torch.Tensor, scale: float, zero_point: int) -> torch.Tensor:
    return (torch.round(x / scale) + zero_point).clamp(0, 255).to(torch.int32)


def _weights(packed) -> tuple[torch.Tensor, torch.Tensor]:
    weight, _bias = packed.unpack()
    return weight.int_repr().to(torch.int32), weight.q_per_channel_scales().float()


def _pairwise_saturating(x, scale, zero_point, packed):
    """fbgemm's AVX2 product, modelled: u8 x s8 products added two by two into 16 bits with
    saturation (vpmaddubsw), then summed in 32 bits."""
    q = _quantized(x, scale, zero_point) - zero_point
    w, w_scale = _weights(packed)
    products = q[:, None, :] * w[None, :, :]
    pairs = products.view(*products.shape[:-1], -1, 2).sum(-1).clamp(-32768, 32767)
    return pairs.sum(-1).float() * scale * w_scale


def _exact(x, scale, zero_point, packed):
    q = _quantized(x, scale, zero_point) - zero_point
    w, w_scale = _weights(packed)
    return (q.double() @ w.double().T) * scale * w_scale.double()


def test_the_probe_keeps_7_bits_where_pairs_of_products_saturate():
    assert sums_exactly(SAFE, _pairwise_saturating)
    assert not sums_exactly(FULL, _pairwise_saturating)


def test_the_probe_takes_8_bits_where_products_are_summed_exactly():
    assert sums_exactly(FULL, _exact)


def test_the_model_of_a_saturating_kernel_is_this_kernel_where_nothing_saturates():
    """The AVX2 model above is fbgemm's product wherever 7-bit activations keep the pairs in
    16 bits, so the probe's 127 verdict is about saturation, not a different product."""
    g = torch.Generator().manual_seed(3)
    weight = torch.randint(-128, 128, (24, 96), generator=g, dtype=torch.int8)
    x = torch.rand(3, 96, generator=g)
    packed = int8_levels._packed(weight)
    ours = _pairwise_saturating(x, 1.0 / SAFE, 0, packed)
    torch.testing.assert_close(kernel(x, 1.0 / SAFE, 0, packed), ours, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("rows", [1, 4])
def test_the_levels_chosen_here_are_summed_exactly_on_any_input(rows):
    levels = row_levels()
    assert levels in (FULL, SAFE)
    g = torch.Generator().manual_seed(rows)
    weight = torch.randint(-128, 128, (64, 768), generator=g, dtype=torch.int8)
    # Pairs of one sign at the limits: what overflows 16 bits at 255 levels.
    weight[:, :8] = torch.tensor([127, 127, -128, -128], dtype=torch.int8).repeat(2)
    x = torch.rand(rows, 768, generator=g)
    x[:, :8] = 1.0
    packed = int8_levels._packed(weight)
    got = kernel(x, 1.0 / levels, 0, packed).double()
    torch.testing.assert_close(got, _exact(x, 1.0 / levels, 0, packed), rtol=1e-5, atol=1e-3)


def _row_error(monkeypatch, levels: int, linear: torch.nn.Linear, x: torch.Tensor) -> float:
    """The layer's error from rounding the activations alone (against its own int8 weights)."""
    monkeypatch.setattr(int8_rows, "row_levels", lambda: levels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layer = int8_rows.RowScaledLinear([linear])
        weight = layer.params._weight_bias()[0].dequantize()
    assert layer.scale == pytest.approx(1.0 / levels)
    with torch.no_grad():
        reference = x @ weight.T
        return float((layer(x) - reference).norm() / reference.norm())


def test_a_row_scaled_layer_quantizes_to_the_cpus_levels(monkeypatch):
    """At 255 levels a row's rounding error is half of 127's; the layer follows
    row_levels() (on a CPU that sums only 127, both are the same layer)."""
    torch.manual_seed(5)
    linear = torch.nn.Linear(768, 256, bias=False)
    x = torch.randn(4, 768)
    here = row_levels()
    at_full, at_safe = (_row_error(monkeypatch, n, linear, x) for n in (FULL, SAFE))
    monkeypatch.setattr(int8_rows, "row_levels", int8_levels.row_levels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert int8_rows.RowScaledLinear([linear]).scale == pytest.approx(1.0 / here)
    if here == FULL:
        assert at_full < 0.6 * at_safe


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return {flag for line in f if line.startswith("flags") for flag in line.split()}
    except OSError:
        return set()


def test_the_levels_follow_the_cpus_vnni():
    """fbgemm multiplies with VNNI where the CPU has AVX-512 VNNI (all 255 levels) and adds
    saturating pairs where it has no VNNI at all (127). AVX-VNNI alone is left to the probe."""
    flags = _cpu_flags()
    if {"avx512_vnni", "avx512bw", "avx512vl"} <= flags:
        assert row_levels() == FULL
    elif flags and not {"avx512_vnni", "avx_vnni"} & flags:
        assert row_levels() == SAFE
    else:
        assert row_levels() in (FULL, SAFE)


def test_without_fbgemm_or_its_product_the_rows_keep_7_bits(monkeypatch):
    monkeypatch.setattr(int8_levels, "x86_engine", lambda: False)
    assert int8_levels._probed.__wrapped__() == SAFE
    monkeypatch.setattr(int8_levels, "x86_engine", lambda: True)

    def unsupported(levels, product=kernel):
        raise RuntimeError("not implemented for this packed parameter type")

    monkeypatch.setattr(int8_levels, "sums_exactly", unsupported)
    assert int8_levels._probed.__wrapped__() == SAFE


def test_the_probe_neither_shows_nor_raises_torchs_notice_it_logs_it():
    """PyTorch warns once per process about quantized tensors, maybe inside the probe: under
    -W error the probe still answers, and the notice goes to the program's log."""
    code = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stdout, level=logging.INFO, format='%(name)s %(message)s')\n"
        "from app.decode.int8_levels import row_levels\n"
        "print('levels', row_levels())\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert f"levels {row_levels()}" in done.stdout
    assert "chattts_studio.int8 UserWarning" in done.stdout and "deprecated" in done.stdout
    assert "Warning" not in done.stderr, done.stderr
