"""Find a model folder, say what is missing, and verify its files.

Official weights are checked against ChatTTS's own `res/sha256_map.json`; a random-weight
model built by app.selftest.random_model against the sha256 list in its config file. Hashing ~1.1 GB
takes seconds, so a file whose size and modification time match an earlier successful
check is not hashed again (the record lives in the user cache dir).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from app import paths, user_settings
from app.atomic import write_json_atomic
from app.core import ModelCorruptError, ModelKind, ModelMissingError
from app.i18n import _
from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME, sha256_map_key
from app.model.schemas import read_model_description, read_verified_cache
from app.model.sources import OFFICIAL_URL

# The commands the engine's sentences point to (the CLI's models subcommands).
DOWNLOAD_COMMAND = "chattts-studio models download"
VERIFY_COMMAND = "chattts-studio models verify"


def chattts_sha256_map() -> dict[str, str]:
    """ChatTTS's checksum table, read without importing ChatTTS (which costs seconds)."""
    spec = importlib.util.find_spec("ChatTTS")
    if spec is None or not spec.submodule_search_locations:
        raise ModelCorruptError(
            _(
                "The ChatTTS package is not installed, so the model cannot be verified; reinstall ChatTTS Studio."
            )
        )
    table = Path(next(iter(spec.submodule_search_locations))) / "res" / "sha256_map.json"
    return json.loads(table.read_text(encoding="utf-8"))


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class FileCheck:
    relpath: str
    present: bool
    size: int = 0
    sha256_ok: bool | None = None  # None: not hashed (missing, or no expected value)


@dataclass
class VerifyReport:
    root: Path
    kind: str
    files: list[FileCheck] = field(default_factory=list)

    @property
    def missing(self) -> list[str]:
        return [f.relpath for f in self.files if not f.present]

    @property
    def bad(self) -> list[str]:
        return [f.relpath for f in self.files if f.present and f.sha256_ok is False]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.bad


class ModelStore:
    """One model folder in the official layout (`asset/...`)."""

    def __init__(self, root: os.PathLike | str | None = None):
        self.root = user_settings.model_dir(root)

    # -- what kind of model is this -------------------------------------------------
    def studio_config(self) -> dict | None:
        """The random-weight model's config file, or None for the official layout."""
        cfg_path = self.root / STUDIO_CONFIG_NAME
        if not cfg_path.exists():
            return None
        return read_model_description(cfg_path)

    @property
    def model_kind(self) -> ModelKind:
        return ModelKind.of(self.studio_config())

    @property
    def kind(self) -> str:
        """The kind in words for a status line, e.g. "random-weights (tiny)"; code reads model_kind."""
        cfg = self.studio_config()
        return (
            ModelKind.OFFICIAL.value
            if cfg is None
            else f"{ModelKind.RANDOM_WEIGHTS.value} ({cfg.get('size', '?')})"
        )

    def expected_sha256(self) -> dict[str, str]:
        cfg = self.studio_config()
        if cfg is not None:
            return dict(cfg["sha256"])
        table = chattts_sha256_map()
        return {rel: table[sha256_map_key(rel)] for rel in MODEL_FILES}

    # -- presence -----------------------------------------------------------------
    def missing(self) -> list[str]:
        return [rel for rel in MODEL_FILES if not (self.root / rel).is_file()]

    def require_present(self) -> None:
        if not self.root.is_dir():
            raise ModelMissingError(
                _(
                    "No model folder at {folder}. Get the ChatTTS weights with `{command}` (in the window: "
                    "Model > Download the model...), or from {url} (the asset/ folder), or point to a folder "
                    "that has them with {option} or the {variable} environment variable."
                ).format(
                    folder=self.root,
                    command=DOWNLOAD_COMMAND,
                    url=OFFICIAL_URL,
                    option="--model",
                    variable=paths.MODEL_DIR_ENV,
                ),
                missing=list(MODEL_FILES),
            )
        missing = self.missing()
        if missing:
            raise ModelMissingError(
                _(
                    "The model in {folder} is incomplete: {missing} of {total} files are missing ({files}). "
                    "Fetch them with `{command}` (in the window: Model > Download the model...), or choose a "
                    "complete model folder with {option}."
                ).format(
                    folder=self.root,
                    missing=len(missing),
                    total=len(MODEL_FILES),
                    files=", ".join(missing),
                    command=DOWNLOAD_COMMAND,
                    option="--model",
                ),
                missing=missing,
            )

    # -- checksums ----------------------------------------------------------------
    def _cache_file(self) -> Path:
        return paths.cache_dir() / "verified-models.json"

    def _load_cache(self) -> dict:
        return read_verified_cache(self._cache_file())

    def _save_cache(self, cache: dict) -> None:
        try:
            write_json_atomic(self._cache_file(), cache)
        except OSError:
            pass  # the record only saves time; failing to keep it is harmless

    def _stamp(self, relpath: str, sha256: str | None) -> list:
        st = (self.root / relpath).stat()
        return [st.st_size, st.st_mtime_ns, sha256]

    def is_known_good(self, relpath: str, sha256: str) -> bool:
        """True when this exact file (size, time) was verified against `sha256` before."""
        known = self._load_cache().get(str(self.root.resolve()), {})
        return (self.root / relpath).is_file() and known.get(relpath) == self._stamp(
            relpath, sha256
        )

    def remember_verified(self, relpath: str, sha256: str) -> None:
        """Record a file hashed elsewhere (download, import) so verify() does not hash it again.
        Only a hash that is this model's own expectation is recorded."""
        if sha256 != self.expected_sha256().get(relpath) or not (self.root / relpath).is_file():
            return
        cache = self._load_cache()
        cache.setdefault(str(self.root.resolve()), {})[relpath] = self._stamp(relpath, sha256)
        self._save_cache(cache)

    def verify(self, use_cache: bool = True) -> VerifyReport:
        expected = self.expected_sha256()
        report = VerifyReport(self.root, self.kind)
        cache = self._load_cache() if use_cache else {}
        key = str(self.root.resolve())
        known = cache.get(key, {})
        fresh: dict[str, list] = {}
        for rel in MODEL_FILES:
            path = self.root / rel
            if not path.is_file():
                report.files.append(FileCheck(rel, present=False))
                continue
            stamp = self._stamp(rel, expected.get(rel))
            if known.get(rel) == stamp:
                ok = True
            else:
                ok = file_sha256(path) == expected.get(rel)
            if ok:
                fresh[rel] = stamp
            report.files.append(FileCheck(rel, present=True, size=stamp[0], sha256_ok=ok))
        if use_cache:
            cache[key] = fresh
            self._save_cache(cache)
        return report

    def require_verified(self, use_cache: bool = True) -> VerifyReport:
        self.require_present()
        report = self.verify(use_cache=use_cache)
        if report.bad:
            raise ModelCorruptError(
                _(
                    "{count} model file(s) in {folder} do not match their checksums ({files}): they are damaged "
                    "or incomplete. Download them again from {url}."
                ).format(
                    count=len(report.bad),
                    folder=self.root,
                    files=", ".join(report.bad),
                    url=OFFICIAL_URL,
                ),
                bad=report.bad,
            )
        return report
