"""Using a model the user already has: a folder in the official layout or a Hugging Face cache.

Accepted: a folder holding `asset/...`; a Hugging Face cache (`models--2Noise--ChatTTS`, its
`snapshots/` folder, or one snapshot). Files are copied (or hard-linked, which costs no
space on the same drive) into a staging folder, verified, and only then moved into place.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from app.core import ModelCorruptError, ModelMissingError, OutputError
from app.i18n import _
from app.model.files import (
    HF_CACHE_NAME,
    MODEL_FILES,
    PARTIAL_DIR,
    QUARANTINE_DIR,
    STUDIO_CONFIG_NAME,
)
from app.model.store import ModelStore


def find_model_root(path: os.PathLike | str) -> Path:
    """The folder that holds `asset/` inside what the user pointed at."""
    src = Path(path).expanduser()
    if not src.is_dir():
        raise ModelMissingError(_("{folder} is not a folder.").format(folder=src))
    candidates = [src]
    for snapshots in (
        src / "snapshots",
        src / HF_CACHE_NAME / "snapshots",
        src / "hub" / HF_CACHE_NAME / "snapshots",
    ):
        if snapshots.is_dir():
            # Newest snapshot first: the one a plain download would use.
            candidates += sorted(
                (p for p in snapshots.iterdir() if p.is_dir()),
                key=lambda p: p.stat().st_mtime,
                reverse=True,
            )
    if src.name == "snapshots":
        candidates += sorted(
            (p for p in src.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True
        )
    for root in candidates:
        if all((root / rel).exists() for rel in MODEL_FILES):
            return root
    best = max(candidates, key=lambda r: sum((r / rel).exists() for rel in MODEL_FILES))
    missing = [rel for rel in MODEL_FILES if not (best / rel).exists()]
    raise ModelMissingError(
        _(
            "{folder} does not hold a complete ChatTTS model: {missing} of {total} files are missing ({files}). "
            "Choose the folder that contains {asset}, or a Hugging Face cache folder {cache}."
        ).format(
            folder=src,
            missing=len(missing),
            total=len(MODEL_FILES),
            files=", ".join(missing),
            asset="asset/",
            cache=HF_CACHE_NAME,
        ),
        missing=missing,
    )


def _place(src: Path, dest: Path, link: bool) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    real = src.resolve()  # a hub cache snapshot holds symlinks into blobs/
    if link:
        try:
            os.link(real, dest)
            return
        except OSError:
            pass  # another drive or no hard links: copy instead
    shutil.copy2(real, dest)


def _unwritable(target: Path, exc: OSError) -> OutputError:
    return OutputError(
        _(
            "The model folder {folder} cannot be written ({reason}); choose a folder you "
            "can write to, on a disk with space."
        ).format(folder=target, reason=exc.strerror or exc)
    )


def import_model(source: os.PathLike | str, target: os.PathLike | str, link: bool = False):
    """Copy or link a model into `target`, verify it, and return the verification report."""
    try:
        return _import_model(source, Path(target), link)
    except OSError as exc:
        raise _unwritable(Path(target), exc) from None


def _import_model(source: os.PathLike | str, target: Path, link: bool):
    root = find_model_root(source)
    target = Path(target)
    if target.resolve() == root.resolve():
        return ModelStore(target).require_verified(use_cache=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.import-", dir=target.parent))
    try:
        for rel in MODEL_FILES:
            _place(root / rel, staging / rel, link)
        if (root / STUDIO_CONFIG_NAME).is_file():
            shutil.copy2(root / STUDIO_CONFIG_NAME, staging / STUDIO_CONFIG_NAME)
        report = ModelStore(staging).verify(use_cache=False)
        if report.bad:
            raise ModelCorruptError(
                _(
                    "{count} file(s) in {folder} do not match their checksums ({files}); nothing was imported. "
                    "Download those files again."
                ).format(count=len(report.bad), folder=root, files=", ".join(report.bad)),
                bad=report.bad,
            )
        target.mkdir(parents=True, exist_ok=True)
        for rel in MODEL_FILES:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, target / rel)
        config = staging / STUDIO_CONFIG_NAME
        if config.is_file():
            os.replace(config, target / STUDIO_CONFIG_NAME)
        else:
            (target / STUDIO_CONFIG_NAME).unlink(missing_ok=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    store = ModelStore(target)
    expected = store.expected_sha256()
    for check in report.files:  # hashed in staging; renaming keeps the bytes
        store.remember_verified(check.relpath, expected[check.relpath])
    return store.verify()


def remove_model(target: os.PathLike | str) -> list[Path]:
    """Delete the model's files (and unfinished downloads); other files in the folder stay."""
    try:
        return _remove_model(Path(target))
    except OSError as exc:
        raise OutputError(
            _(
                "The model in {folder} could not be removed ({reason}); close programs that use "
                "it and check that the folder is writable."
            ).format(folder=target, reason=exc.strerror or exc)
        ) from None


def _remove_model(target: Path) -> list[Path]:
    removed = []
    for rel in list(MODEL_FILES) + [STUDIO_CONFIG_NAME]:
        path = target / rel
        if path.is_file():
            path.unlink()
            removed.append(path)
    for extra in (PARTIAL_DIR, QUARANTINE_DIR):
        if (target / extra).is_dir():
            shutil.rmtree(target / extra)
            removed.append(target / extra)
    for folder in (target / "asset" / "gpt", target / "asset" / "tokenizer", target / "asset"):
        try:
            folder.rmdir()
        except OSError:
            pass
    return removed
