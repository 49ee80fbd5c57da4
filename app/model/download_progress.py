"""Where a model download stands: each file's state and bytes, and the whole job's speed and
time left. ModelDownloader (download.py) fills it in; the download dialog and `models download`
show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class FileState(StrEnum):
    """Where one file of a download stands; the download dialog words each one itself."""

    WAITING = "waiting"
    PRESENT = "present"  # already in the folder and verified: not fetched
    DOWNLOADING = "downloading"
    VERIFYING = "verifying"  # fetched, its sha256 being checked
    OK = "ok"  # fetched and verified
    FAILED = "failed"  # failed its checksum twice

    @property
    def finished(self) -> bool:
        """Whether the download is done with this file (for good or ill)."""
        return self in (FileState.PRESENT, FileState.OK, FileState.FAILED)


@dataclass
class FileProgress:
    relpath: str
    total: int | None = None
    done: int = 0
    state: FileState = FileState.WAITING
    sha256_ok: bool | None = None


@dataclass
class DownloadProgress:
    files: list[FileProgress] = field(default_factory=list)
    speed_bps: float = 0.0
    message: str = ""

    @property
    def done_bytes(self) -> int:
        return sum(f.done for f in self.files)

    @property
    def total_bytes(self) -> int:
        return sum(f.total or 0 for f in self.files)

    @property
    def eta_s(self) -> float | None:
        left = self.total_bytes - self.done_bytes
        return left / self.speed_bps if self.speed_bps > 0 and left >= 0 else None
