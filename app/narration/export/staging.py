"""All of an export's files are written under temporary names beside their targets and
renamed into place only when every one of them is complete. An error, a full disk or a
cancel on the way removes the temporary files: nothing half-written, nothing overwritten.

Without overwrite, a target is claimed with a hard link, which fails if the name exists, so
a file that appears while we export is not replaced either.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from app.atomic import TEMP_SUFFIX, give_normal_mode
from app.i18n import _
from app.narration.export.errors import ExportError, explain_os_error


def refuse_existing(targets: list[Path]) -> None:
    existing = [t for t in targets if t.exists()]
    if len(existing) == 1:
        raise ExportError(
            _("{path} already exists; choose another name or allow overwriting.").format(
                path=existing[0]
            )
        )
    if existing:
        raise ExportError(
            _(
                "{count} of the files to export already exist, {path} among them; choose another "
                "name or allow overwriting."
            ).format(count=len(existing), path=existing[0])
        )


class Staging:
    def __init__(self, overwrite: bool = False):
        self.overwrite = overwrite
        self._pending: list[tuple[Path, Path]] = []  # (temporary, target)
        self._made: list[Path] = []  # folders we created, removed again if empty

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self.discard()

    def folder(self, path: Path) -> None:
        missing = []
        for parent in (path, *path.parents):
            if parent.exists():
                break
            missing.append(parent)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ExportError(explain_os_error(error, path)) from error
        self._made.extend(reversed(missing))

    def temp_for(self, target: Path) -> Path:
        self.folder(target.parent)
        try:
            fd, name = tempfile.mkstemp(
                dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX
            )
        except OSError as error:
            raise ExportError(explain_os_error(error, target)) from error
        os.close(fd)
        self._pending.append((Path(name), target))
        return Path(name)

    def commit(self) -> list[Path]:
        done: list[Path] = []
        while self._pending:
            tmp, target = self._pending[0]
            try:
                give_normal_mode(tmp, target)
                self._place(tmp, target)
            except FileExistsError as error:
                raise ExportError(
                    _(
                        "{path} appeared while exporting; it was left as it is. "
                        "Choose another name or allow overwriting."
                    ).format(path=target)
                ) from error
            except OSError as error:
                raise ExportError(explain_os_error(error, target)) from error
            self._pending.pop(0)
            done.append(target)
        self._made.clear()
        return done

    def _place(self, tmp: Path, target: Path) -> None:
        if self.overwrite:
            os.replace(tmp, target)
            return
        try:
            os.link(tmp, target)
        except OSError as error:
            if isinstance(error, FileExistsError) or error.errno == errno.EEXIST:
                raise FileExistsError(errno.EEXIST, "exists", str(target)) from error
            # A file system without hard links (FAT): check, then rename.
            if target.exists():
                raise FileExistsError(errno.EEXIST, "exists", str(target)) from error
            os.replace(tmp, target)
            return
        tmp.unlink()

    def discard(self) -> None:
        for tmp, _target in self._pending:
            tmp.unlink(missing_ok=True)
        self._pending.clear()
        for folder in reversed(self._made):
            try:
                folder.rmdir()
            except OSError:
                pass
        self._made.clear()
