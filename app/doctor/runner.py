"""Run every check over a snapshot; a crashing or hanging check becomes an `error` result."""

from __future__ import annotations

import concurrent.futures
import logging
from dataclasses import dataclass, field

from app.doctor import checks as check_modules
from app.doctor.probes.base import Probe, collect
from app.doctor.recommendation import Recommendation, safe_recommend
from app.doctor.result import ERROR, FAIL, Basis, CheckResult
from app.doctor.snapshot import SAVE_SNAPSHOT_COMMAND, Snapshot
from app.i18n import _, current_language

log = logging.getLogger("chattts_studio.doctor")

CHECK_TIMEOUT_S = 10.0


@dataclass
class Report:
    snapshot: Snapshot
    results: list[CheckResult]
    recommendation: Recommendation
    # The language its sentences are in; a window that changes language judges the snapshot again.
    language: str = field(default_factory=current_language)

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.status == FAIL]

    def result(self, check_id: str) -> CheckResult | None:
        return next((r for r in self.results if r.id == check_id), None)

    def to_dict(self) -> dict:
        return {
            "checks": [r.to_dict() for r in self.results],
            "recommendation": self.recommendation.to_dict(),
        }


def run_checks(snapshot: Snapshot, modules=check_modules.ALL, timeout_s: float = CHECK_TIMEOUT_S):
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="check")
    futures = [(m, pool.submit(m.check, snapshot)) for m in modules]
    results = []
    for module, future in futures:
        try:
            results.append(future.result(timeout=timeout_s))
        except concurrent.futures.TimeoutError:
            results.append(
                CheckResult(
                    module.ID,
                    _(module.TITLE),
                    ERROR,
                    _("The check did not finish within {seconds} s.").format(
                        seconds=f"{timeout_s:.0f}"
                    ),
                    fix=_("Run the doctor again; if it repeats, report it with a saved snapshot."),
                    basis=Basis.TIMED_OUT,
                )
            )
        except Exception as exc:
            log.exception("check %s crashed", module.ID)
            results.append(
                CheckResult(
                    module.ID,
                    _(module.TITLE),
                    ERROR,
                    _("The check did not complete."),
                    details=f"{type(exc).__name__}: {exc}",
                    fix=_("Report this with a saved snapshot ({command}).").format(
                        command=SAVE_SNAPSHOT_COMMAND
                    ),
                    basis=Basis.CRASHED,
                )
            )
    pool.shutdown(wait=False, cancel_futures=True)
    return results


def rejudge(report: Report, modules=check_modules.ALL) -> Report:
    """The same snapshot judged again (quick: no probing), e.g. in another language."""
    results = run_checks(report.snapshot, modules)
    return Report(report.snapshot, results, safe_recommend(report.snapshot, results))


def run_doctor(probe: Probe, modules=check_modules.ALL) -> Report:
    snapshot = collect(probe)
    results = run_checks(snapshot, modules)
    return Report(snapshot, results, safe_recommend(snapshot, results))
