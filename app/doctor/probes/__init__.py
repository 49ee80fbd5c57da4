"""All system access of the doctor. Checks see only the snapshot these produce."""

from app.doctor.probes.base import Probe, SnapshotProbe, collect  # noqa: F401
