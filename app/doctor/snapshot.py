"""The snapshot: everything the probes read from a machine, as one JSON document (version 1).

Format: ../shared/doctor-snapshot.md. A field that could not be read is null; checks then
say "could not read ...", never guess. Unknown fields are ignored; we add a few of our own
(`env_block_bytes`, `path_missing`, `probe_errors`).
"""

from __future__ import annotations

import os
from pathlib import Path

from app.atomic import write_json_atomic
from app.core import StudioError, UnreadableFileError, read_json_capped
from app.doctor.snapshot_schema import clean_snapshot
from app.i18n import _

SNAPSHOT_VERSION = 1
# How a user saves a snapshot to attach to a report (the sentences that ask for one name it).
SAVE_SNAPSHOT_COMMAND = "doctor --save-snapshot FILE"
MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024  # a real snapshot is a few KB; PATH and registry dominate
SECTIONS = (
    "os",
    "python",
    "env",
    "registry",
    "nvidia",
    "torch",
    "wsl",
    "dlls",
    "paths",
    "code_page",
    "disk_free_bytes",
    "model",
    "network",
    "audio",
    "hotkeys",
)


class SnapshotError(StudioError):
    """A snapshot file that cannot be read."""


class Snapshot(dict):
    def at(self, *keys, default=None):
        """Nested lookup: snap.at("torch", "cuda"); None (or default) where anything is missing."""
        node = self
        for key in keys:
            if (isinstance(node, dict) and key in node) or (
                isinstance(node, list) and isinstance(key, int) and -len(node) <= key < len(node)
            ):
                node = node[key]
            else:
                return default
        return default if node is None else node

    @property
    def is_windows(self) -> bool:
        return self.at("os", "system") == "Windows"

    @property
    def gpus(self) -> list[dict]:
        return list(self.at("nvidia", "gpus", default=[]))

    def env(self, name: str) -> str | None:
        return self.at("env", name)


def load_snapshot(path: os.PathLike | str) -> Snapshot:
    target = Path(path)
    try:
        data = read_json_capped(target, MAX_SNAPSHOT_BYTES, "snapshot")
    except UnreadableFileError as exc:
        raise SnapshotError(str(exc)) from None
    if not isinstance(data, dict) or data.get("snapshot_version") != SNAPSHOT_VERSION:
        raise SnapshotError(
            _(
                "{file} is not a doctor snapshot of version {version}; save a new one "
                "with {command}."
            ).format(file=target, version=SNAPSHOT_VERSION, command=SAVE_SNAPSHOT_COMMAND)
        )
    return Snapshot(clean_snapshot(data, str(target)))


def save_snapshot(snapshot: dict, path: os.PathLike | str) -> Path:
    return write_json_atomic(path, dict(snapshot))
