"""Where an export goes: the one file, the chapter files beside it, their subtitles.

`out` names the one file ("book.m4b"; the format's suffix is added when it has none). Chapter
files go in a folder of the same name without the suffix ("book/01 Title.m4b"), with names
any file system takes. Subtitles sit beside their audio with the same name.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.i18n import _
from app.narration.export.errors import ExportError
from app.narration.export.settings import FORMATS

SUFFIXES = {fmt: f".{fmt}" for fmt in FORMATS}
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]+')
# Names Windows refuses for a file, whatever the suffix.
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}
MAX_NAME = 80


def format_for_path(path: Path | str) -> str | None:
    """The format a file name asks for by its suffix, if it names one of ours."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else None


def one_file_path(out: Path | str, fmt: str) -> Path:
    out = Path(out).expanduser()
    asked = format_for_path(out)
    if asked is None:
        return out.with_name(out.name + SUFFIXES[fmt])
    if asked != fmt:
        raise ExportError(
            _(
                "{path} has the suffix of {asked}, but the export format is {fmt}; "
                "change the name or the format."
            ).format(path=out, asked=asked, fmt=fmt)
        )
    return out


def chapter_folder(out: Path | str, fmt: str) -> Path:
    path = one_file_path(out, fmt)
    return path.with_name(path.name[: -len(SUFFIXES[fmt])])


def safe_name(title: str, fallback: str) -> str:
    name = _UNSAFE.sub(" ", title)
    name = " ".join(name.split())[:MAX_NAME].strip(" .")
    if not name or name.split(".")[0].lower() in _RESERVED:
        return fallback
    return name


def chapter_file(folder: Path, index: int, count: int, title: str, fmt: str) -> Path:
    width = max(2, len(str(count)))
    number = f"{index + 1:0{width}d}"
    return (
        folder / f"{number} {safe_name(title, _('Chapter {n}').format(n=index + 1))}{SUFFIXES[fmt]}"
    )


def subtitle_path(audio: Path, kind: str) -> Path:
    return audio.with_suffix(f".{kind}")
