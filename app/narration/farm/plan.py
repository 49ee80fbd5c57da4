"""How many workers `--workers auto` means here, on which devices, with how many threads."""

from __future__ import annotations

import os

from app.core import DeviceOption
from app.narration.farm.worker import WorkerSpec

CPU_THREADS_PER_WORKER = 4  # below this a CPU worker's matmuls lose more than a second worker gains


def cuda_devices() -> int:
    try:
        import torch

        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    except Exception:
        return 0


def auto_workers(cores: int | None = None, gpus: int | None = None) -> int:
    """One per GPU when there are several; on a CPU only, one per four cores when there are at
    least eight; else 1 (the window's or the command's own engine renders)."""
    cores = cores if cores is not None else (os.cpu_count() or 1)
    gpus = gpus if gpus is not None else cuda_devices()
    if gpus >= 2:
        return gpus
    if gpus == 0 and cores >= 2 * CPU_THREADS_PER_WORKER:
        return cores // CPU_THREADS_PER_WORKER
    return 1


def worker_specs(
    count: int,
    model_dir: str,
    device: str = "auto",
    precision: str = "auto",
    cores: int | None = None,
    gpus: int | None = None,
) -> list[WorkerSpec]:
    """`count` workers: one per GPU first (device cuda:i), the rest on the CPU sharing its cores."""
    cores = cores if cores is not None else (os.cpu_count() or 1)
    gpus = (
        gpus
        if gpus is not None
        else (cuda_devices() if device in (DeviceOption.AUTO, DeviceOption.CUDA) else 0)
    )
    specs = [
        WorkerSpec(f"gpu{i}", str(model_dir), "cuda", precision, gpu=i)
        for i in range(min(gpus, count))
    ]
    cpu_workers = count - len(specs)
    for i in range(cpu_workers):
        specs.append(
            WorkerSpec(
                f"cpu{i}", str(model_dir), "cpu", precision, threads=max(1, cores // cpu_workers)
            )
        )
    return specs
