"""The probe interface, the snapshot probe, and `collect()` which builds a snapshot from either."""

from __future__ import annotations

import concurrent.futures
import logging
from datetime import datetime, timezone

from app.doctor.snapshot import SECTIONS, SNAPSHOT_VERSION, Snapshot

log = logging.getLogger("chattts_studio.doctor")

SECTION_TIMEOUT_S = 60.0


class Probe:
    """`read(section)` returns that snapshot section's value (None: unreadable)."""

    def read(self, section: str):
        raise NotImplementedError


class SnapshotProbe(Probe):
    """Answers from a recorded snapshot: touches nothing of the machine it runs on."""

    def __init__(self, snapshot: dict):
        self.snapshot = Snapshot(snapshot)

    def read(self, section: str):
        return self.snapshot.get(section)

    def extras(self) -> dict:
        return {k: v for k, v in self.snapshot.items() if k not in SECTIONS}


def collect(probe: Probe, sections=SECTIONS, timeout_s: float = SECTION_TIMEOUT_S) -> Snapshot:
    """Read every section; one that crashes or hangs becomes null, noted in probe_errors."""
    snap = Snapshot(
        snapshot_version=SNAPSHOT_VERSION,
        taken=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    errors = {}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=6, thread_name_prefix="probe")
    futures = {section: pool.submit(probe.read, section) for section in sections}
    for section, future in futures.items():
        try:
            snap[section] = future.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            snap[section] = None
            errors[section] = f"timed out after {timeout_s:.0f} s"
        except Exception as exc:  # a probe bug must not lose the rest of the report
            log.exception("probe %s failed", section)
            snap[section] = None
            errors[section] = f"{type(exc).__name__}: {exc}"
    pool.shutdown(wait=False, cancel_futures=True)
    extras = getattr(probe, "extras", dict)()
    snap.update(extras)
    if errors:
        snap["probe_errors"] = errors
    return snap
