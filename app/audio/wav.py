"""WAV output: 16-bit PCM mono, written under a temporary name and renamed into place.

A crash, a full disk or a cancel therefore never leaves a half-written WAV with the name
the user asked for; at worst a hidden `.partial` file, which we remove on the way out.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import numpy as np

from app.atomic import TEMP_SUFFIX, give_normal_mode
from app.core import OutputError
from app.i18n import _

SAMPLE_RATE = 24_000


def explain_os_error(exc: OSError, target: Path) -> str:
    """Why `target` could not be written, in a sentence that says what to do."""
    if exc.errno == errno.ENOSPC:
        return _(
            "The disk is full, so {path} could not be written; free some space and export again."
        ).format(path=target)
    if isinstance(exc, PermissionError):
        return _(
            "{path} cannot be written: permission denied, or the file is open in another program. "
            "Close it there or choose another name."
        ).format(path=target)
    return _("{path} could not be written ({error}); choose another location.").format(
        path=target, error=exc.strerror or exc
    )


def through_links(path: os.PathLike | str) -> Path:
    """The file a symbolic link (or a chain of them) leads to; a path that is no link as it is.
    Writing replaces that file and leaves the link a link: renamed over the link's own name, the
    result used to replace the link with a file (tests/engine/test_audio_io.py)."""
    target = Path(path).expanduser()
    if not target.is_symlink():
        return target
    real = Path(os.path.realpath(target))
    if real.is_symlink():
        raise OutputError(
            _(
                "{path} is a symbolic link that leads around in a circle; remove it or choose "
                "another name."
            ).format(path=target)
        )
    return real


def check_output_path(path: os.PathLike | str) -> Path:
    """Fail now, before minutes of synthesis, if the result could not be saved there. A symbolic
    link is checked where it leads; the path is given back as the user wrote it."""
    given = Path(path).expanduser()
    target = through_links(given)
    if target != given and not target.parent.is_dir():
        raise OutputError(
            _(
                "{path} is a symbolic link to {target}, whose folder does not exist; create it "
                "or choose another name."
            ).format(path=given, target=target)
        )
    _check_target(target)
    return given


def _check_target(target: Path) -> None:
    if target.is_dir():
        raise OutputError(
            _("{path} is a folder; give a file name such as {example}.").format(
                path=target, example=target / "speech.wav"
            )
        )
    parent = target.parent
    if not parent.is_dir():
        raise OutputError(
            _("The folder {path} does not exist; create it or choose another location.").format(
                path=parent
            )
        )
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".chattts-studio-probe-"):
            pass
    except OSError as exc:
        raise OutputError(
            _("Cannot write in {path} ({error}); choose a folder you can write to.").format(
                path=parent, error=exc.strerror or exc
            )
        ) from exc
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(
            _("{path} is read-only; choose another name or make it writable.").format(path=target)
        )


def to_pcm16(samples: np.ndarray) -> np.ndarray:
    audio = np.asarray(samples, dtype=np.float32).reshape(-1)
    audio = np.nan_to_num(audio, nan=0.0, posinf=1.0, neginf=-1.0)
    return (np.clip(audio, -1.0, 1.0) * 32767.0).round().astype(np.int16)


def write_wav(
    path: os.PathLike | str,
    samples: np.ndarray,
    sample_rate: int = SAMPLE_RATE,
    follow_links: bool = True,
) -> Path:
    """`follow_links=False` for the program's own files (the history's audio): a link planted
    there is replaced, never written through to wherever it points."""
    import soundfile as sf

    given = check_output_path(path) if follow_links else Path(path)
    target = through_links(given) if follow_links else given
    if not follow_links:
        _check_target(target)
    fd, tmp_name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX
    )
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        sf.write(str(tmp), to_pcm16(samples), sample_rate, subtype="PCM_16", format="WAV")
        give_normal_mode(tmp, target)
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(explain_os_error(exc, target)) from exc
    except RuntimeError as exc:  # libsndfile reports its own write failures this way
        tmp.unlink(missing_ok=True)
        raise OutputError(
            _("{path} could not be written ({error}); choose another location.").format(
                path=target, error=exc
            )
        ) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return given
