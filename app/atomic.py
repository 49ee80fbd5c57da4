"""Writing small files so that a crash never leaves half of one behind."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

# A file being written sits beside its target as `.<name>.<random>` + this until it is renamed over it.
TEMP_SUFFIX = ".partial"


def _umask() -> int:
    try:  # Linux: read it without changing it (os.umask would, for every thread, for a moment)
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def give_normal_mode(tmp: os.PathLike | str, target: os.PathLike | str) -> None:
    """mkstemp makes files 0600; give the file the mode it is replacing, else what a plain
    open() would give under the user's umask."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    os.chmod(tmp, mode)


def write_text_atomic(path: os.PathLike | str, text: str) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        give_normal_mode(tmp, target)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def write_json_atomic(path: os.PathLike | str, data) -> Path:
    return write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def read_json(path: os.PathLike | str, default):
    """The file's JSON, or `default` when it is missing or unreadable."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default
