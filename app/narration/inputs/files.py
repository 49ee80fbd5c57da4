"""Reading an input file: only the file named, only a regular file, never past a cap; and
turning its bytes into text whatever the encoding (UTF-8 with or without BOM, UTF-16/32
with a BOM, GBK/GB18030, others as charset-normalizer finds them).
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path

from app.i18n import _
from app.narration.inputs.limits import SourceFileError

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# Share of characters that may be control characters (other than line ends and tabs) in text.
_MAX_CONTROL_SHARE = 0.01
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def file_size(path: Path) -> int:
    """The size of a regular file; anything else (missing, a folder, a pipe, a device) is refused."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SourceFileError(_("The input file {path} does not exist.").format(path=path)) from None
    except OSError as exc:
        raise SourceFileError(_("The input file {path} cannot be read ({error}).").format(
            path=path, error=exc.strerror or exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise SourceFileError(_("{path} is a folder; give a text file.").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise SourceFileError(_("{path} is not a regular file; give a book, text or subtitle file.").format(
            path=path))
    return info.st_size


def too_large(path: Path, limit: int) -> SourceFileError:
    return SourceFileError(_("{path} is larger than the limit of {limit} MiB for this kind of file; "
                             "split it into several files.").format(path=path, limit=limit // (1024 * 1024)))


def read_bytes(path: Path, limit: int) -> bytes:
    if file_size(path) > limit:
        raise too_large(path, limit)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)   # the file may have grown since stat
    except OSError as exc:
        raise SourceFileError(_("The input file {path} cannot be read ({error}).").format(
            path=path, error=exc.strerror or exc)) from None
    if len(data) > limit:
        raise too_large(path, limit)
    return data


def _guess(data: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        return None
    # Chinese Windows writes GBK; GB18030 is its superset and decodes what GBK guesses leave out.
    encoding = "gb18030" if best.encoding in ("gbk", "gb2312", "gb18030") else best.encoding
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def decode_text(data: bytes, source: Path | str) -> str:
    """The text in `data`; bytes that are not text in any encoding are a SourceFileError."""
    text = _guess(data)
    if text is not None:
        if len(_CONTROL.findall(text)) <= _MAX_CONTROL_SHARE * len(text):
            return text
    raise SourceFileError(_("{source} is not text in an encoding we can read; save it as UTF-8 "
                            "and try again.").format(source=source))
