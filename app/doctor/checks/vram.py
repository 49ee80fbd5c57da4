"""vram: enough free GPU memory for ChatTTS (it falls back to the CPU below 2 GB)."""

from app.doctor import facts
from app.doctor.result import Verdict

ID, TITLE = "vram", "GPU memory"


def check(s):
    v = Verdict(ID, TITLE)
    if not s.gpus:
        return v.skip("No NVIDIA GPU found.")
    gpu = max(s.gpus, key=lambda g: g.get("memory_free_mb") or g.get("memory_total_mb") or 0)
    free = gpu.get("memory_free_mb")
    total = gpu.get("memory_total_mb")
    if free is None and total is None:
        return v.unreadable("the GPU's memory")
    free = free if free is not None else total
    details = f"{gpu.get('name')}: {free} MB free of {total} MB."
    if free < facts.VRAM_MIN_MB:
        return v.warn(f"Only {free} MB of GPU memory is free; ChatTTS needs {facts.VRAM_MIN_MB} MB, "
                      "so it will run on the CPU.", details=details,
                      fix="Close games, browsers or other programs using the GPU, then restart ChatTTS Studio.")
    if free < facts.VRAM_COMFORTABLE_MB:
        return v.warn(f"{free} MB of GPU memory is free: enough, but long texts may run out.",
                      details=details, fix="Close other programs that use the GPU for more headroom.")
    return v.ok(f"{free} MB of GPU memory free.", details=details)
