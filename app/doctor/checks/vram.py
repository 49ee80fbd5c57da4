"""vram: enough free GPU memory for ChatTTS (it falls back to the CPU below 2 GB)."""

from app.doctor import facts
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "vram", N_("GPU memory")


def _roomiest(s) -> dict:
    return max(s.gpus, key=lambda g: g.get("memory_free_mb") or g.get("memory_total_mb") or 0)


def _free_mb(s):
    gpu = _roomiest(s)
    free = gpu.get("memory_free_mb")
    return free if free is not None else gpu.get("memory_total_mb")


def falls_back_to_cpu(s) -> bool:
    """ChatTTS will run on the CPU for lack of GPU memory (the recommendation follows it)."""
    if not s.gpus:
        return False
    free = _free_mb(s)
    return free is not None and free < facts.MIN_FREE_GPU_MB


def check(s):
    v = Verdict(ID, TITLE)
    if not s.gpus:
        return v.skip(_("No NVIDIA GPU found."))
    gpu = _roomiest(s)
    free, total = _free_mb(s), gpu.get("memory_total_mb")
    if free is None:
        return v.unreadable(_("the GPU's memory"))
    details = _("{gpu}: {free} MB free of {total} MB.").format(
        gpu=gpu.get("name"), free=free, total=total
    )
    if falls_back_to_cpu(s):
        return v.warn(
            _(
                "Only {free} MB of GPU memory is free; ChatTTS needs {need} MB, so it will run on "
                "the CPU."
            ).format(free=free, need=facts.MIN_FREE_GPU_MB),
            details=details,
            fix=_(
                "Close games, browsers or other programs using the GPU, then restart ChatTTS Studio."
            ),
        )
    if free < facts.VRAM_COMFORTABLE_MB:
        return v.warn(
            _("{free} MB of GPU memory is free: enough, but long texts may run out.").format(
                free=free
            ),
            details=details,
            fix=_("Close other programs that use the GPU for more headroom."),
        )
    return v.ok(_("{free} MB of GPU memory free.").format(free=free), details=details)
