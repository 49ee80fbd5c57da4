"""Reading files that may be hostile: a size cap before anything is parsed.

Reading stops at the cap plus one byte, so `/dev/zero`, a FIFO that never ends or a
multi-gigabyte file costs at most the cap in memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.errors import UnreadableFileError
from app.i18n import _

if TYPE_CHECKING:
    from pydantic import ValidationError

MAX_JSON_BYTES = 8 * 1024 * 1024


# `what` names the kind of file inside the sentences below ("voice file"); callers pass it
# already translated, and None means a plain "file".


def read_bytes_capped(path: os.PathLike | str, cap: int, what: str | None = None) -> bytes:
    target = Path(path)
    what = _("file") if what is None else what
    try:
        with open(target, "rb") as f:
            data = f.read(cap + 1)
    except FileNotFoundError:
        raise UnreadableFileError(
            _("The {what} {file} cannot be read (it does not exist).").format(
                what=what, file=target
            )
        ) from None
    except IsADirectoryError:
        raise UnreadableFileError(
            _("{file} is a folder; give a {what}.").format(file=target, what=what)
        ) from None
    except OSError as exc:
        raise UnreadableFileError(
            _("The {what} {file} cannot be read ({reason}).").format(
                what=what, file=target, reason=exc.strerror or exc
            )
        ) from None
    if len(data) > cap:
        raise UnreadableFileError(
            _(
                "The {what} {file} is larger than {cap} bytes; it is not one this program "
                "wrote, so it was not read."
            ).format(what=what, file=target, cap=f"{cap:,}")
        )
    return data


def read_json_capped(
    path: os.PathLike | str, cap: int = MAX_JSON_BYTES, what: str | None = None
) -> Any:
    data = read_bytes_capped(path, cap, what)
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        what = _("file") if what is None else what
        raise UnreadableFileError(
            _(
                "The {what} {file} is not valid JSON (it is damaged); it was left as it is "
                "and not used."
            ).format(what=what, file=path)
        ) from None


def first_bad_field(exc: ValidationError) -> str:
    """The dotted place of a record's first invalid field, named in the sentence a user sees."""
    errors = exc.errors()
    loc = errors[0].get("loc", ()) if errors else ()
    return ".".join(str(part) for part in loc) or "(the record itself)"
