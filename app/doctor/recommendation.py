"""Where ChatTTS should run, judged from the checks: a device and why, as values and a sentence.

Code acts on `device` and `because` (and `check`); `reason` is the sentence shown to people and
is never read back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

from app.core import DeviceOption
from app.doctor import torch_advice
from app.doctor.checks import vram as vram_check
from app.doctor.result import ERROR, FAIL, WARN, CheckResult
from app.doctor.snapshot import SAVE_SNAPSHOT_COMMAND, Snapshot
from app.i18n import _

log = logging.getLogger("chattts_studio.doctor")

# Checks whose failure keeps ChatTTS off the GPU, in the order they are looked at.
BLOCKING_CHECKS = ("vc_runtime", "torch_build", "driver_cuda", "gpu_arch", "cuda_kernel", "wsl")
# A different PyTorch build helps only with these; the others need another fix first.
TORCH_FIXABLE = frozenset({"torch_build", "driver_cuda", "gpu_arch"})


class Because(StrEnum):
    NO_GPU = "no_gpu"
    CHECK_FAILED = "check_failed"  # `check` names the failed check
    TORCH_UNREADABLE = "torch_unreadable"
    TORCH_WITHOUT_CUDA = "torch_without_cuda"
    LOW_GPU_MEMORY = "low_gpu_memory"  # ChatTTS itself would fall back to the CPU
    GPU_WORKS = "gpu_works"
    NOT_WORKED_OUT = (
        "not_worked_out"  # the recommendation crashed on what was read; `error` says how
    )


@dataclass(frozen=True)
class Recommendation:
    """Read it by attribute; `to_dict()` is what the JSON report holds."""

    device: DeviceOption  # CPU or CUDA: what the window passes to the engine
    because: Because
    reason: str
    torch_install: str = ""
    check: str | None = None
    error: str = ""

    def to_dict(self) -> dict:
        data = {
            "device": self.device.value,
            "because": self.because.value,
            "reason": self.reason,
            "torch_install": self.torch_install,
        }
        if self.check:
            data["check"] = self.check
        if self.error:
            data["error"] = self.error
        return data


def recommend(snapshot: Snapshot, results: list[CheckResult]) -> Recommendation:
    """Where ChatTTS should run, why, and the PyTorch install command if one would help."""
    by_id = {r.id: r for r in results}
    command = torch_advice.advice(snapshot)[0]
    if not snapshot.gpus:
        return Recommendation(DeviceOption.CPU, Because.NO_GPU, _("No NVIDIA GPU was found."))
    for check_id in BLOCKING_CHECKS:
        r = by_id.get(check_id)
        if r is not None and r.status in (FAIL, ERROR):
            return Recommendation(
                DeviceOption.CPU,
                Because.CHECK_FAILED,
                r.summary,
                command if check_id in TORCH_FIXABLE else "",
                check=check_id,
            )
    t = snapshot.get("torch")
    if t is None:
        return Recommendation(
            DeviceOption.CPU, Because.TORCH_UNREADABLE, _("PyTorch could not be checked.")
        )
    if not t.get("cuda_available"):
        return Recommendation(
            DeviceOption.CPU, Because.TORCH_WITHOUT_CUDA, _("PyTorch cannot use the GPU."), command
        )
    vram = by_id.get(vram_check.ID)
    if vram is not None and vram.status == WARN and vram_check.falls_back_to_cpu(snapshot):
        return Recommendation(
            DeviceOption.CPU, Because.LOW_GPU_MEMORY, vram.summary, check=vram_check.ID
        )
    gpu = snapshot.gpus[0].get("name")
    reason = (
        _("{gpu} works with this PyTorch.").format(gpu=gpu)
        if gpu
        else _("The NVIDIA GPU works with this PyTorch.")
    )
    return Recommendation(DeviceOption.CUDA, Because.GPU_WORKS, reason)


def safe_recommend(snapshot: Snapshot, results: list[CheckResult]) -> Recommendation:
    """recommend(), guarded like a check: what a strange machine reports falls back to the CPU."""
    try:
        rec = recommend(snapshot, results)
        if isinstance(rec, Recommendation) and rec.device in (DeviceOption.CPU, DeviceOption.CUDA):
            return rec
        raise ValueError(f"unexpected recommendation {rec!r:.200}")
    except Exception as exc:
        log.exception("the recommendation crashed")
        return Recommendation(
            DeviceOption.CPU,
            Because.NOT_WORKED_OUT,
            _(
                "The recommendation could not be worked out from what was read; the CPU always works. Report "
                "this with a saved snapshot ({command})."
            ).format(command=SAVE_SNAPSHOT_COMMAND),
            error=f"{type(exc).__name__}: {exc}",
        )
