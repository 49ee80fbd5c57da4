"""The decode step on ONNX Runtime: the Llama stack as one session (decode/ort_graph.py), called
as DecodeLoop.run_stack calls its step.

int8 here is 8-bit block-wise weights (blocks of 32 along the input, one scale each) with int8
activations per block of each row (MatMulNBits, accuracy level 4), after the same SmoothQuant
folding as the PyTorch int8 step (decode/int8.py): a row's numbers do not depend on its batch,
and a joined or padded sentence decodes as it does alone (tests/decode/test_ort_step.py). The
cache stays the loop's own fp32 tensors: each layer's slice is bound as both the past and the
present of its GroupQueryAttention, so a step writes its keys and values in place.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
import torch

from app.core import DeviceError
from app.decode.llama_step import layers_of
from app.decode.precision import Precision
from app.i18n import _

BLOCK = 32  # weights per scale along a matrix's input (MatMulNBits' smallest fast block)


def available() -> bool:
    """Whether ONNX Runtime is installed."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def choose_precision(
    precision: Precision, note: str | None, device_type: str
) -> tuple[Precision, str | None]:
    """The precision ONNX Runtime's step runs for `precision` (fp32 or int8; another falls back
    to int8 with a note), or the user's sentence when it cannot run here at all."""
    if device_type != "cpu":
        raise DeviceError(_("The ONNX Runtime decode runs on the CPU only; choose jit on a GPU."))
    if not available():
        raise DeviceError(
            _("The ONNX Runtime decode needs the onnxruntime package, which is not installed.")
        )
    if precision in (Precision.FP32, Precision.INT8):
        return precision, note
    return Precision.INT8, _(
        "Precision {precision} is not available with the ONNX Runtime decode, so int8 runs "
        "instead; you can choose fp32 or int8."
    ).format(precision=precision)


class OrtStep:
    """`stack` (an eager fp32 LlamaStack) as one ONNX Runtime session. `bits`: 8 or 4 for
    block-wise quantized weights, None for fp32; quantized weights are smoothed first (alpha
    `smoothing`, default int8's; 0: not) with `calibration()`'s (x, cos, sin), on a copy unless
    `in_place`."""

    def __init__(
        self,
        stack,
        cos: torch.Tensor,
        sin: torch.Tensor,
        bits: int | None,
        calibration: Callable[[], tuple[torch.Tensor, torch.Tensor, torch.Tensor]] | None = None,
        in_place: bool = False,
        threads: int | None = None,
        smoothing: float | None = None,
        spinning: bool = False,
    ):
        import onnxruntime as ort

        from app.decode import int8
        from app.decode.ort_graph import build_step, session

        if bits is not None:
            alpha = int8.RECIPE.alpha if smoothing is None else smoothing
            if alpha:
                if not in_place:
                    stack = copy.deepcopy(stack)
                x, c, s = (
                    calibration() if calibration is not None else int8.stack_calibration(stack)
                )
                int8.smooth(stack, x, c, s, alpha=alpha)
        self.layers = len(layers_of(stack))
        model = build_step(stack, cos, sin, bits, BLOCK)
        self.session = session(model, threads, spinning)
        self._value = ort.OrtValue.ortvalue_from_numpy
        self._bound: tuple = (None, None, None, [])

    def _binding(self, k: torch.Tensor, v: torch.Tensor):
        """The session's binding with each layer's slice of the loop's cache as an OrtValue over
        the same memory, as both past and present (made again only when the loop made a new
        cache: a join or rows leaving); the hidden states bound first, so they come out first."""
        if self._bound[0] is not k or self._bound[1] is not v:
            binding = self.session.io_binding()
            binding.bind_output("hidden", "cpu")
            values = []  # the OrtValues must live as long as the binding
            for i in range(self.layers):
                for kind, cache in (("key", k), ("value", v)):
                    value = self._value(cache[i].numpy())
                    binding.bind_ortvalue_input(f"past_{kind}_{i}", value)
                    binding.bind_ortvalue_output(f"present_{kind}_{i}", value)
                    values.append(value)
            self._bound = (k, v, binding, values)
        return self._bound[2]

    def __call__(
        self,
        x: torch.Tensor,
        positions: torch.Tensor,
        mask: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        write_at: torch.Tensor,
        length: int,
    ) -> torch.Tensor:
        """DecodeLoop.run_stack's contract: (B, S, H) hidden states after the final norm. Every
        row writes at the slots `write_at` (length - S .. length - 1: the loop's slots are
        shared by all rows, a row's own positions come in `positions`), and attends to the first
        `length` slots where `mask` (B or 1, 1, S, length) allows."""
        binding = self._binding(k, v)
        batch, steps = x.shape[0], x.shape[1]
        bias = torch.zeros(mask.shape, dtype=torch.float32).masked_fill_(~mask, float("-inf"))
        binding.bind_cpu_input("x", np.ascontiguousarray(x.float().numpy()))
        binding.bind_cpu_input(
            "position_ids",
            np.ascontiguousarray(positions.expand(batch, steps).to(torch.int64).numpy()),
        )
        binding.bind_cpu_input(
            "attention_bias",
            np.ascontiguousarray(bias.expand(batch, 1, steps, length).numpy()),
        )
        binding.bind_cpu_input("seqlens_k", np.full((batch,), length - 1, dtype=np.int32))
        binding.bind_cpu_input("total_sequence_length", np.array(length, dtype=np.int32))
        binding.bind_output("hidden", "cpu")  # again: the last run's (B, S, H) is no longer it
        self.session.run_with_iobinding(binding)
        return torch.from_numpy(binding.get_outputs()[0].numpy())
