"""Which PyTorch build fits this GPU and driver, as a command the user can paste."""

from __future__ import annotations

from app.doctor import facts
from app.doctor.snapshot import Snapshot
from app.i18n import _


def best_wheel_index(snap: Snapshot) -> str | None:
    """cu126 or cu128 for the first GPU, given its architecture and the driver; None if none fits."""
    gpus = snap.gpus
    if not gpus:
        return None
    cap = tuple(gpus[0].get("compute_capability") or ())
    driver_cuda = facts.cuda_from_driver_code(snap.at("nvidia", "cuda_driver_version"))
    fitting = []
    for tag, (cuda, lowest, highest) in facts.WHEEL_INDEXES.items():
        if (
            cap
            and not (lowest <= cap[:2] <= highest)
            and not (cap[:1] == highest[:1] and cap >= highest)
        ):
            continue
        if driver_cuda is not None and driver_cuda < cuda:
            continue
        fitting.append((cuda, tag))
    return max(fitting)[1] if fitting else None


def install_command(tag: str) -> str:
    return facts.torch_install_command(tag)


def driver_needed_for(tag: str, windows: bool) -> str | None:
    cuda = facts.WHEEL_INDEXES[tag][0]
    return facts.min_driver(cuda, windows)


def advice(snap: Snapshot) -> tuple[str, str]:
    """(torch_install command or "", a sentence on what to do about the driver if anything)."""
    if not snap.gpus:
        return "", ""
    tag = best_wheel_index(snap)
    if tag:
        return install_command(tag), ""
    cap = tuple(snap.gpus[0].get("compute_capability") or ())
    wanted = "cu128" if cap and cap >= (7, 0) else "cu126"
    need = driver_needed_for(wanted, snap.is_windows)
    return install_command(wanted), _(
        "Update the NVIDIA driver to {version} or newer first ({url})."
    ).format(version=need, url=facts.DRIVER_URL)
