"""Run every check over a snapshot; a crashing or hanging check becomes an `error` result."""

from __future__ import annotations

import concurrent.futures
import logging
from dataclasses import dataclass, field

from app.doctor import checks as check_modules
from app.doctor import torch_advice
from app.doctor.checks import vram as vram_check
from app.doctor.probes.base import Probe, collect
from app.doctor.result import ERROR, FAIL, CheckResult
from app.doctor.snapshot import SAVE_SNAPSHOT_COMMAND, Snapshot
from app.i18n import _, current_language

log = logging.getLogger("chattts_studio.doctor")

CHECK_TIMEOUT_S = 10.0


@dataclass
class Report:
    snapshot: Snapshot
    results: list[CheckResult]
    recommendation: dict = field(default_factory=dict)
    # The language its sentences are in; a window that changes language judges the snapshot again.
    language: str = field(default_factory=current_language)

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.status == FAIL]

    def result(self, check_id: str) -> CheckResult | None:
        return next((r for r in self.results if r.id == check_id), None)

    def to_dict(self) -> dict:
        return {"checks": [r.to_dict() for r in self.results], "recommendation": self.recommendation}


def run_checks(snapshot: Snapshot, modules=check_modules.ALL, timeout_s: float = CHECK_TIMEOUT_S):
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="check")
    futures = [(m, pool.submit(m.check, snapshot)) for m in modules]
    results = []
    for module, future in futures:
        try:
            results.append(future.result(timeout=timeout_s))
        except concurrent.futures.TimeoutError:
            results.append(CheckResult(module.ID, _(module.TITLE), ERROR,
                                       _("The check did not finish within {seconds} s.").format(
                                           seconds=f"{timeout_s:.0f}"),
                                       fix=_("Run the doctor again; if it repeats, report it with a saved "
                                             "snapshot.")))
        except Exception as exc:
            log.exception("check %s crashed", module.ID)
            results.append(CheckResult(module.ID, _(module.TITLE), ERROR, _("The check did not complete."),
                                       details=f"{type(exc).__name__}: {exc}",
                                       fix=_("Report this with a saved snapshot ({command}).").format(
                                           command=SAVE_SNAPSHOT_COMMAND)))
    pool.shutdown(wait=False, cancel_futures=True)
    return results


def recommend(snapshot: Snapshot, results: list[CheckResult]) -> dict:
    """Where ChatTTS should run, why, and the PyTorch install command if one would help."""
    by_id = {r.id: r for r in results}
    command = torch_advice.advice(snapshot)[0]
    if not snapshot.gpus:
        return {"device": "cpu", "reason": _("No NVIDIA GPU was found."), "torch_install": ""}
    # A different PyTorch build helps only with these; the others need another fix first.
    torch_fixable = {"torch_build", "driver_cuda", "gpu_arch"}
    for check_id in ("vc_runtime", "torch_build", "driver_cuda", "gpu_arch", "cuda_kernel", "wsl"):
        r = by_id.get(check_id)
        if r is not None and r.status in (FAIL, ERROR):
            return {"device": "cpu", "reason": r.summary,
                    "torch_install": command if check_id in torch_fixable else ""}
    t = snapshot.get("torch")
    if t is None:
        return {"device": "cpu", "reason": _("PyTorch could not be checked."), "torch_install": ""}
    if not t.get("cuda_available"):
        return {"device": "cpu", "reason": _("PyTorch cannot use the GPU."), "torch_install": command}
    vram = by_id.get("vram")
    if vram is not None and vram.status == "warn" and vram_check.falls_back_to_cpu(snapshot):
        return {"device": "cpu", "reason": vram.summary, "torch_install": ""}
    gpu = snapshot.gpus[0].get("name")
    reason = (_("{gpu} works with this PyTorch.").format(gpu=gpu) if gpu
              else _("The NVIDIA GPU works with this PyTorch."))
    return {"device": "cuda", "reason": reason, "torch_install": ""}


def safe_recommend(snapshot: Snapshot, results: list[CheckResult]) -> dict:
    """recommend(), guarded like a check: what a strange machine reports falls back to the CPU."""
    try:
        rec = recommend(snapshot, results)
        if isinstance(rec, dict) and rec.get("device") in ("cpu", "cuda"):
            return rec
        raise ValueError(f"unexpected recommendation {rec!r:.200}")
    except Exception as exc:
        log.exception("the recommendation crashed")
        return {"device": "cpu", "torch_install": "", "error": f"{type(exc).__name__}: {exc}",
                "reason": _("The recommendation could not be worked out from what was read; the CPU always "
                            "works. Report this with a saved snapshot ({command}).").format(
                                command=SAVE_SNAPSHOT_COMMAND)}


def rejudge(report: Report, modules=check_modules.ALL) -> Report:
    """The same snapshot judged again (quick: no probing), e.g. in another language."""
    results = run_checks(report.snapshot, modules)
    return Report(report.snapshot, results, safe_recommend(report.snapshot, results))


def run_doctor(probe: Probe, modules=check_modules.ALL) -> Report:
    snapshot = collect(probe)
    results = run_checks(snapshot, modules)
    return Report(snapshot, results, safe_recommend(snapshot, results))
