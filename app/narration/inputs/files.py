"""Reading an input file: only the file named, only a regular file, never past a cap; and
turning its bytes into text whatever the encoding (UTF-8 with or without BOM, UTF-16/32
with a BOM, UTF-16 without one, GBK/GB18030, others as charset-normalizer finds them).
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path

from app.i18n import _
from app.narration.inputs.limits import SourceFileError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Share of characters that may be control characters (other than line ends and tabs) in text.
_MAX_CONTROL_SHARE = 0.01
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
# Share of UTF-16 code units with a zero high byte that marks BOM-less UTF-16 (one a line is ~2%).
_MIN_UTF16_NUL_SHARE = 0.01


def file_size(path: Path) -> int:
    """The size of a regular file; anything else (missing, a folder, a pipe, a device) is refused."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SourceFileError(
            _("The input file {path} does not exist.").format(path=path)
        ) from None
    except OSError as exc:
        raise SourceFileError(
            _("The input file {path} cannot be read ({error}).").format(
                path=path, error=exc.strerror or exc
            )
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise SourceFileError(_("{path} is a folder; give a text file.").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise SourceFileError(
            _("{path} is not a regular file; give a book, text or subtitle file.").format(path=path)
        )
    return info.st_size


def too_large(path: Path, limit: int) -> SourceFileError:
    return SourceFileError(
        _(
            "{path} is larger than the limit of {limit} MiB for this kind of file; "
            "split it into several files."
        ).format(path=path, limit=limit // (1024 * 1024))
    )


def read_bytes(path: Path, limit: int) -> bytes:
    if file_size(path) > limit:
        raise too_large(path, limit)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # the file may have grown since stat
    except OSError as exc:
        raise SourceFileError(
            _("The input file {path} cannot be read ({error}).").format(
                path=path, error=exc.strerror or exc
            )
        ) from None
    if len(data) > limit:
        raise too_large(path, limit)
    return data


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 with no BOM, from where its NUL bytes fall: every ASCII character (spaces, line
    ends, digits, Latin letters) is a code unit with a zero high byte, at odd offsets in
    little-endian, even in big-endian. Such bytes are also valid UTF-8 (NULs and all), so this
    is asked first; a CJK-only text with few NULs is left to charset-normalizer."""
    units = len(data) // 2
    if units < 2 or len(data) % 2:
        return None
    nul_low, nul_high = data[0::2].count(0), data[1::2].count(0)
    for nuls, others, encoding in (
        (nul_high, nul_low, "utf-16-le"),
        (nul_low, nul_high, "utf-16-be"),
    ):
        # "一" (U+4E00) puts a NUL on the other side: those may be many, never most.
        if nuls >= max(2, units * _MIN_UTF16_NUL_SHARE) and nuls >= 4 * others:
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                return None
    return None


def _guess(data: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                return None
    text = _utf16_without_bom(data)
    if text is not None:
        return text
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
    raise SourceFileError(
        _(
            "{source} is not text in an encoding we can read; save it as UTF-8 and try again."
        ).format(source=source)
    )
