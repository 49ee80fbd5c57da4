"""ChatTTS's text normalizer is four numba functions that numba compiles on first use, seconds of
every start: numba keeps nothing between runs unless a function asks for it. Here they ask, with the
machine code kept under the program's cache folder.

numba checks an entry against the function's source file and this CPU, but it reads entries
with pickle and fails on a damaged one. So the folder is sealed with the SHA-256 of every file
once the normalizer has run from it, and at the next start a folder that does not match its
seal exactly (a file changed, added or missing, or no seal) is deleted before numba may read
it: numba then compiles again. A frozen build has no source files for numba to key entries on;
numba refuses to cache there and the functions compile at each start, as before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from pathlib import Path

from app.atomic import write_json_atomic

log = logging.getLogger("chattts_studio.engine")

FOLDER = "numba"
SEAL = "seal.json"
SEAL_CAP = 64 * 1024  # a seal lists a handful of files; anything larger is not ours
NORMALIZER_FUNCTIONS = ("_find_index", "_fast_replace", "_split_tags", "_combine_tags")
WARM_UP_TEXT = "你好[uv_break]，世界。"


def _contents(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != SEAL
    }


def is_sealed(folder: Path) -> bool:
    """Whether `folder` holds exactly the files its seal names, byte for byte."""
    seal = folder / SEAL
    try:
        if seal.stat().st_size > SEAL_CAP:
            return False
        listed = json.loads(seal.read_text(encoding="utf-8"))
        return isinstance(listed, dict) and listed == _contents(folder)
    except (OSError, ValueError, UnicodeDecodeError):
        return False


def seal(folder: Path) -> None:
    try:
        if folder.is_dir():
            write_json_atomic(folder / SEAL, _contents(folder))
    except OSError as exc:  # unsealed, the folder is deleted at the next start: no harm
        log.info("numba cache not sealed (%s)", exc)


def cache_normalizer(folder: Path) -> list[str]:
    """Keep the compiled normalizer functions in `folder`; the names of those that will be."""
    if folder.exists() and not is_sealed(folder):
        shutil.rmtree(folder, ignore_errors=True)
    try:
        import ChatTTS.norm as norm
        import numba

        folder.mkdir(parents=True, exist_ok=True)
        # numba.config makes its settings at import time, from the environment: no stub sees them.
        numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
    except Exception as exc:  # no numba, or a folder we cannot write: compile as before
        log.info("numba functions are not cached (%s)", exc)
        return []
    cached = []
    for name in NORMALIZER_FUNCTIONS:
        try:
            getattr(norm, name).enable_caching()
        except Exception as exc:  # a frozen build: no source file to key an entry on
            log.info("numba function %s is not cached (%s)", name, exc)
            continue
        cached.append(name)
    return cached


def warm_normalizer(normalizer, folder: Path) -> None:
    """Run the normalizer once (compiling or loading its functions), then seal the folder. An
    entry numba cannot read back is deleted with the folder and compiled again."""
    try:
        normalizer(WARM_UP_TEXT, True, True)
    except Exception as exc:
        log.info("numba cache unreadable, compiling again (%s)", exc)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)  # numba writes into it, it does not make it
        normalizer(WARM_UP_TEXT, True, True)
    seal(folder)
