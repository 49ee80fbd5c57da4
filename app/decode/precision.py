"""Which number format the decode step computes in, per device, and how to get there."""

from __future__ import annotations

import copy
from enum import StrEnum

from app.core import DeviceError
from app.i18n import _


class Precision(StrEnum):
    """The values are what settings, the command line, JSON and the step cache's keys hold."""

    AUTO = "auto"  # chosen per device (`choose`); never what runs
    FP32 = "fp32"
    FP16 = "fp16"
    BF16 = "bf16"
    INT8 = "int8"

    @classmethod
    def parse(cls, text: str) -> Precision:
        """A precision from its text, or the user's sentence naming the choices."""
        if text not in CHOICES:
            raise DeviceError(
                _("Unknown precision {precision}; use one of: {choices}.").format(
                    precision=repr(text), choices=", ".join(CHOICES)
                )
            )
        return cls(text)


CPU_CHOICES = (Precision.FP32, Precision.BF16, Precision.INT8)
CUDA_CHOICES = (Precision.FP32, Precision.FP16, Precision.BF16)
CHOICES = tuple(option.value for option in Precision)  # plain text, for argparse and settings
# bf16 is checked against fp32 only on random weights so far; until someone listens to it on
# the official weights it is opt-in and says so. int8 (decode/int8.py) is measured on a stress
# model with activation outliers too (bench/precision_quality.py, tests/engine/test_int8_quality.py)
# and is what `auto` runs on a CPU: the only real-time CPU mode (bench/int8_speed.py; figures:
# docs/design/constants.md#cpu_auto).
EXPERIMENTAL = (Precision.BF16,)
# What `auto` runs on a CPU; fp32 stays one choice away (--precision fp32, Model > Precision).
CPU_AUTO = Precision.INT8
# Reduced precisions whose overflow (not damaged files) makes numbers invalid.
HALF = (Precision.FP16, Precision.BF16)


def resolve(
    precision: str, device_type: str, capability: tuple[int, int] | None = None
) -> Precision:
    """The precision that will run; see `choose` for the sentence that goes with a fallback."""
    return choose(precision, device_type, capability)[0]


def choose(
    precision: str, device_type: str, capability: tuple[int, int] | None = None
) -> tuple[Precision, str | None]:
    """(precision that runs, a note when it is not what was asked for).

    A choice that exists only on the other device (int8 saved on a CPU, then a GPU appears)
    falls back to `auto` with a note instead of failing after the whole model has loaded.
    `capability` is the GPU's compute capability; queried when not given."""
    precision = Precision.parse(precision)
    allowed = CUDA_CHOICES if device_type == "cuda" else CPU_CHOICES
    note = None
    if precision is not Precision.AUTO and precision not in allowed:
        precision_auto = choose(Precision.AUTO, device_type, capability)[0]
        if device_type == "cuda":
            note = _(
                "Precision {precision} is not available on an NVIDIA GPU, so {fallback} runs instead "
                "(automatic); on an NVIDIA GPU you can choose {choices}."
            )
        else:
            note = _(
                "Precision {precision} is not available on the CPU, so {fallback} runs instead "
                "(automatic); on the CPU you can choose {choices}."
            )
        note = note.format(precision=precision, fallback=precision_auto, choices=", ".join(allowed))
        return precision_auto, note
    if precision is Precision.AUTO:
        if device_type == "cuda":
            return (Precision.BF16 if native_bf16(capability) else Precision.FP16), None
        return (CPU_AUTO if int8_kernels() else Precision.FP32), None
    return precision, None


def int8_kernels() -> bool:
    """Whether this PyTorch has the x86 int8 kernels (fbgemm) that make int8 fast; elsewhere (an
    ARM CPU) `auto` stays fp32."""
    from app.decode.int8_levels import x86_engine

    return x86_engine()


def native_bf16(capability: tuple[int, int] | None = None) -> bool:
    """bf16 with tensor cores: compute capability 8.0 (Ampere) or newer. PyTorch's
    `is_bf16_supported()` also says yes on GTX 10xx-RTX 20xx, where bf16 is emulated (no
    tensor cores, slow math attention), so it is not asked."""
    if capability is None:
        import torch

        capability = torch.cuda.get_device_capability()
    return tuple(capability) >= (8, 0)


def compute_dtype(precision: str):
    import torch

    return {Precision.FP16: torch.float16, Precision.BF16: torch.bfloat16}.get(
        Precision(precision), torch.float32
    )


def convert(stack, precision: str, in_place: bool = False, calibration=None, recipe=None):
    """The stack in `precision`. fp32 shares the model's weights. Otherwise the weights are
    converted: in place when the caller gives up the fp32 model (no second fp32 copy at the
    peak), else on a copy. int8: `calibration()` gives
    (x, cos, sin) for the smoothing of `decode/int8.py`; `recipe` defaults to its RECIPE."""
    if precision == Precision.FP32:
        return stack
    if precision == Precision.INT8:
        from app.decode import int8

        return int8.quantize(stack, calibration, in_place=in_place, recipe=recipe or int8.RECIPE)
    return (stack if in_place else copy.deepcopy(stack)).to(compute_dtype(precision))


def running_note(precision: str) -> str | None:
    """The sentence a client shows about the precision that runs, with how to switch (None: fp32
    or fp16, nothing to say)."""
    if precision == Precision.INT8:
        return _(
            "Precision int8 runs: the fast choice on a CPU (several times faster than fp32, and measured "
            "close to it); for fp32's exact numbers use {option}."
        ).format(option="--precision fp32")
    if precision in EXPERIMENTAL:
        return _(
            "Precision {precision} is experimental: it is faster, but not yet checked by ear on the official "
            "weights; use {option} if it sounds wrong."
        ).format(precision=precision, option="--precision fp32")
    return None
