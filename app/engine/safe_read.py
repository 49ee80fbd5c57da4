"""Reading files that may be hostile: a size cap before anything is parsed.

Reading stops at the cap plus one byte, so `/dev/zero`, a FIFO that never ends or a
multi-gigabyte file costs at most the cap in memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.engine.errors import StudioError

MAX_JSON_BYTES = 8 * 1024 * 1024


class UnreadableFileError(StudioError):
    """A file is missing, too large, or not what it should be; the message names it."""


def read_bytes_capped(path: os.PathLike | str, cap: int, what: str = "file") -> bytes:
    target = Path(path)
    try:
        with open(target, "rb") as f:
            data = f.read(cap + 1)
    except FileNotFoundError:
        raise UnreadableFileError(f"The {what} {target} cannot be read (it does not exist).") from None
    except IsADirectoryError:
        raise UnreadableFileError(f"{target} is a folder; give a {what}.") from None
    except OSError as exc:
        raise UnreadableFileError(f"The {what} {target} cannot be read ({exc.strerror or exc}).") from None
    if len(data) > cap:
        raise UnreadableFileError(f"The {what} {target} is larger than {cap:,} bytes; "
                                  "it is not one this program wrote, so it was not read.")
    return data


def read_json_capped(path: os.PathLike | str, cap: int = MAX_JSON_BYTES, what: str = "file") -> Any:
    data = read_bytes_capped(path, cap, what)
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        raise UnreadableFileError(f"The {what} {path} is not valid JSON (it is damaged); "
                                  "it was left as it is and not used.") from None
