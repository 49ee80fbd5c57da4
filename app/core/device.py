"""Choosing where the model runs: `auto`, `cpu` or `cuda`, with the reason in words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.core.errors import DeviceError
from app.i18n import _


class DeviceOption(StrEnum):
    """Where the user (or the doctor's recommendation) asks the model to run."""

    AUTO = "auto"
    CPU = "cpu"
    CUDA = "cuda"


CHOICES = tuple(option.value for option in DeviceOption)  # plain text, for argparse and settings

# ChatTTS itself falls back to the CPU below 2 GB of free GPU memory (the doctor's vram check
# and its recommendation use this same value).
MIN_FREE_GPU_MB = 2048
# The version pyproject.toml pins (a test holds them equal). PyPI's Windows torch is CPU-only
# (and has no "+cpu" suffix); the CUDA build of the same version comes from PyTorch's own
# index. cu128 covers RTX 20xx-50xx; GTX 10xx needs cu126 (the doctor picks per GPU).
TORCH_VERSION = "2.14.1"
TORCH_WHEEL_URL = "https://download.pytorch.org/whl/{tag}"
DEFAULT_CUDA_WHEEL = "cu128"
DOCTOR = "chattts-studio doctor"


def torch_install_command(tag: str = DEFAULT_CUDA_WHEEL) -> str:
    """The pip command that replaces PyTorch with the pinned version's build from wheel index `tag`."""
    return (
        f"pip install --force-reinstall --no-deps torch=={TORCH_VERSION} "
        f"--index-url {TORCH_WHEEL_URL.format(tag=tag)}"
    )


CUDA_WHEEL_HINT = torch_install_command()


@dataclass
class DeviceChoice:
    device: str  # "cpu" or "cuda:N"
    reason: str


def _cuda_problem() -> str | None:
    """None when a CUDA kernel runs; else a sentence saying why not."""
    import torch

    if torch.version.cuda is None:
        return _(
            "this PyTorch is a CPU-only build. For an NVIDIA GPU install the CUDA build: {command}"
        ).format(command=CUDA_WHEEL_HINT)
    if not torch.cuda.is_available():
        return _(
            "PyTorch finds no usable NVIDIA GPU (no GPU, or the driver is missing or too old for CUDA "
            "{cuda}); run `{command}` for details."
        ).format(cuda=torch.version.cuda, command=DOCTOR)
    try:
        x = torch.ones(8, 8, device="cuda")
        (x @ x).sum().item()
    except Exception as exc:  # a driver/arch mismatch shows up only when a kernel runs
        return _("a CUDA kernel failed to run ({error}); run `{command}` for details.").format(
            error=exc, command=DOCTOR
        )
    return None


def choose_device(choice: str = DeviceOption.AUTO) -> DeviceChoice:
    if choice not in CHOICES:
        raise DeviceError(
            _("Unknown device {device}; use one of: {choices}.").format(
                device=repr(choice), choices=", ".join(CHOICES)
            )
        )
    if choice == DeviceOption.CPU:
        return DeviceChoice("cpu", _("chosen by the user"))
    problem = _cuda_problem()
    if choice == DeviceOption.CUDA:
        if problem:
            raise DeviceError(
                _("The GPU cannot be used: {problem} Or run on the CPU with {option}.").format(
                    problem=problem, option="--device cpu"
                )
            )
        return DeviceChoice("cuda:0", _("chosen by the user"))
    if problem:
        return DeviceChoice("cpu", _("no GPU: {problem}").format(problem=problem))
    import torch

    free, _total = torch.cuda.mem_get_info(0)
    free_mb = free // (1024 * 1024)
    if free_mb < MIN_FREE_GPU_MB:
        return DeviceChoice(
            "cpu",
            _("the GPU has only {free} MB free (ChatTTS needs {need} MB)").format(
                free=free_mb, need=MIN_FREE_GPU_MB
            ),
        )
    return DeviceChoice("cuda:0", _("NVIDIA GPU with {free} MB free").format(free=free_mb))
