"""The checks, one module each, in report order. Each has ID, TITLE and check(snapshot)."""

from app.doctor.checks import (
    audio_output,
    cuda_kernel,
    disk_space,
    driver_cuda,
    gpu_arch,
    hotkeys,
    hub_reachable,
    long_paths,
    model_files,
    non_ascii_path,
    path_entries,
    path_length,
    python_runtime,
    tdr,
    torch_build,
    vc_runtime,
    vram,
    wsl,
)

ALL = (
    python_runtime,
    torch_build,
    driver_cuda,
    gpu_arch,
    cuda_kernel,
    vram,
    vc_runtime,
    path_length,
    path_entries,
    long_paths,
    non_ascii_path,
    tdr,
    wsl,
    disk_space,
    model_files,
    hub_reachable,
    audio_output,
    hotkeys,
)

# Checks whose failure stops or slows synthesis: shown as a banner in the window.
AFFECT_SYNTHESIS = {
    "python_runtime",
    "torch_build",
    "driver_cuda",
    "gpu_arch",
    "cuda_kernel",
    "vc_runtime",
    "model_files",
}
