"""A cache of the compiled decode step: the TorchScript module of the Llama stack with its
weights already converted (int8 smoothed and quantized, or bf16), saved with torch.jit.save
under the program's cache folder, so that a second start skips the conversion and the
TorchScript compilation.

An entry is named by a key over everything that shapes it: the model (the checksums its files were
verified against and each file's size and time), the precision, the int8 recipe and the activation
levels this CPU sums exactly (int8_levels.py), the program's version and the source of the modules
that define the step, PyTorch's version and the device. A change to any of them is another key: the
stale entry is not used; the few most recent entries are kept (fp32 and int8 of one model, say) and
older ones removed.

Nothing read back is trusted: an entry is used only when its manifest (JSON, parsed with a
size cap) names this key and the file's size and SHA-256 match it; anything else (a damaged,
truncated, or foreign file) is deleted and rebuilt. TorchScript archives are zip files of
code and tensors, not pickles of arbitrary objects; the checksum check comes first anyway.
Files are written to a temporary name and renamed, the manifest last, so a crash leaves no
entry that looks complete.

int8 weights are kept beside the module (`step-KEY.weights`, plain int8 tensors and their scales,
read with `weights_only`), not inside it: TorchScript repacks every int8 matrix for fbgemm while it
loads an archive, holding Python's lock for seconds on the full model
(docs/design/constants.md#int8-weights-beside-the-cached-step), whereas packing them ourselves
(`torch.ops.quantized.linear_prepack`) releases it. So a start can pack them on the other core while
it builds the model's other parts (`load_in_background`). int8_weights_file.py takes them out and packs them back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
import warnings
from concurrent.futures import Future
from pathlib import Path

from app import __version__, paths
from app.atomic import write_json_atomic
from app.decode.int8_weights_file import put_weights as _put_weights
from app.decode.int8_weights_file import stand_ins, unpacked
from app.decode.modes import DecodeMode
from app.decode.precision import Precision, choose
from app.on_thread import on_a_thread

log = logging.getLogger("chattts_studio.engine")

FORMAT = 2  # bump when what an entry holds changes shape (2: int8 weights beside it)
FOLDER = "compiled"
MANIFEST_CAP = 64 * 1024
STALE_TMP_SECONDS = 3600  # a temporary file this old is a crashed write's leftover
# The modules whose source decides what the compiled step computes.
STEP_SOURCES = (
    "llama_step.py",
    "int8.py",
    "int8_rows.py",
    "int8_levels.py",
    "precision.py",
    "sampling.py",
)
# Saves this process is still writing, by their module file: a load of that entry waits first.
_SAVING: dict[Path, Future] = {}
_SAVING_LOCK = threading.Lock()


def _wait_for_save(module_path: Path) -> None:
    with _SAVING_LOCK:
        pending = _SAVING.get(module_path)
    if pending is not None:
        pending.result()


def _saved(module_path: Path, future: Future) -> None:
    with _SAVING_LOCK:
        if _SAVING.get(module_path) is future:
            del _SAVING[module_path]


def _source_digest() -> str:
    """The step's source, so that a changed program never runs an old step. In a frozen
    build the sources are not files; its version stands for them."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in STEP_SOURCES:
        try:
            digest.update((here / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()


def model_fingerprint(store) -> dict:
    """What identifies the model's weights: the checksums its files were verified against, and
    each file's size and modification time (a file replaced later is another model)."""
    from app.model import MODEL_FILES

    stamps = {}
    for rel in MODEL_FILES:
        st = (store.root / rel).stat()
        stamps[rel] = [st.st_size, st.st_mtime_ns]
    return {"root": str(store.root.resolve()), "sha256": store.expected_sha256(), "files": stamps}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class CompiledCache:
    """Compiled decode steps of one model, in `folder` (default: the cache folder)."""

    def __init__(self, fingerprint: dict, folder: Path | None = None, version: str = __version__):
        self.fingerprint = fingerprint
        self.folder = Path(folder) if folder is not None else paths.cache_dir() / FOLDER
        self.version = version
        self.hits = self.misses = 0

    def key(self, precision: str, recipe, device: str) -> str:
        import torch

        parts = {
            "format": FORMAT,
            "version": self.version,
            "source": _source_digest(),
            "torch": torch.__version__,
            "precision": precision,
            "recipe": repr(recipe),
            "device": device,
            "model": self.fingerprint,
        }
        if precision == Precision.INT8:
            # A step made for 255 activation levels saturates on a CPU that sums only 127.
            from app.decode.int8_levels import row_levels

            parts["row_levels"] = row_levels()
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]

    def _paths(self, key: str) -> tuple[Path, Path, Path]:
        """The module, its manifest, its int8 weights."""
        return (
            self.folder / f"step-{key}.pt",
            self.folder / f"step-{key}.json",
            self.folder / f"step-{key}.weights",
        )

    def _manifest(self, path: Path) -> dict | None:
        try:
            if path.stat().st_size > MANIFEST_CAP:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            return None
        for part in ("module", "weights"):
            entry = data.get(part)
            if (
                not isinstance(entry, dict)
                or not isinstance(entry.get("sha256"), str)
                or not isinstance(entry.get("size"), int)
            ):
                return None
        return data

    def rows_path(self, key: str) -> Path:
        """Where the batch cap measured for the step of `key` is kept (row_cap.py); it goes
        with that step's entry."""
        return self.folder / f"step-{key}.rows.json"

    def looks_whole(self, key: str) -> bool:
        """Whether an entry for `key` is there with the sizes its manifest names (cheap: its
        checksums are checked by `load`)."""
        module_path, manifest_path, weights_path = self._paths(key)
        _wait_for_save(module_path)
        manifest = self._manifest(manifest_path)
        try:
            return (
                manifest is not None
                and manifest["key"] == key
                and module_path.stat().st_size == manifest["module"]["size"]
                and weights_path.stat().st_size == manifest["weights"]["size"]
            )
        except OSError:
            return False

    def load_in_background(self, key: str, device: str) -> Future:
        """`load` on a thread of its own; its result is the module or None."""
        return on_a_thread("step-cache", self.load, key, device)

    def load(self, key: str, device: str):
        """The cached module for `key`, or None (missing, stale or damaged: then removed)."""
        import torch

        module_path, manifest_path, weights_path = self._paths(key)
        _wait_for_save(module_path)
        self._sweep()  # a write killed at any start is cleared within the hour, hit or miss
        if not any(path.exists() for path in (module_path, manifest_path, weights_path)):
            self.misses += 1
            return None
        manifest = self._manifest(manifest_path)
        module = None
        try:
            if (
                manifest is not None
                and manifest["key"] == key
                and _matches(module_path, manifest["module"])
                and _matches(weights_path, manifest["weights"])
            ):
                with warnings.catch_warnings():
                    warnings.simplefilter(
                        "ignore", FutureWarning
                    )  # TorchScript's deprecation notice
                    module = torch.jit.load(str(module_path), map_location=device)
                _put_weights(
                    module,
                    torch.load(
                        str(weights_path), map_location=device, weights_only=True, mmap=True
                    ),
                )
        except Exception as exc:  # unreadable, or an archive TorchScript rejects
            log.warning(
                "compiled step %s could not be loaded (%s); rebuilding it", module_path.name, exc
            )
            module = None
        if module is None:
            log.info("compiled step %s is missing or damaged; rebuilding it", module_path.name)
            self._remove(key)
            self.misses += 1
            return None
        self.hits += 1
        return module

    def save(self, key: str, module) -> None:
        """`save_in_background`, waited for."""
        self.save_in_background(key, module).result()

    def save_in_background(self, key: str, module) -> Future:
        """Keep `module` under `key` (and drop every other entry: they are stale for this
        model or belong to another one; one entry per precision is what a user switches
        between, so at most a few are kept). The archive is written now, in a moment, while
        its int8 matrices are swapped for stand-ins (so nothing may run `module` meanwhile);
        the matrices, the checksums and the manifest on a thread of their own, so that a first
        start is ready without waiting for them: they only read the matrices, as decoding does.
        A `load` of this entry in this process waits for it (tests/engine/test_compiled_cache.py)."""
        import torch

        module_path = self._paths(key)[0]
        tmps = self._tmps(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                with stand_ins(module) as taken:
                    torch.jit.save(module, str(tmps[0]))
        except Exception as exc:  # a full disk or a read-only folder costs the next start time
            self._not_saved(key, exc)
            done: Future = Future()
            done.set_result(None)
            return done
        with _SAVING_LOCK:  # registered before a load on another thread can look
            future = on_a_thread("step-save", self._finish_save, key, taken)
            _SAVING[module_path] = future
        future.add_done_callback(lambda done: _saved(module_path, done))
        return future

    def wait_saved(self, key: str) -> None:
        """Return once this process's save of `key`, if any, is written (or has failed)."""
        _wait_for_save(self._paths(key)[0])

    def _tmps(self, key: str) -> list[Path]:
        """Where the module and its weights are written before they are renamed."""
        module_path, _, weights_path = self._paths(key)
        return [
            path.with_name(path.name + f".{os.getpid()}.tmp")
            for path in (module_path, weights_path)
        ]

    def _finish_save(self, key: str, taken) -> None:
        import torch

        module_path, manifest_path, weights_path = self._paths(key)
        tmps = self._tmps(key)
        try:
            torch.save(unpacked(taken), str(tmps[1]))
            manifest: dict[str, object] = {"key": key}
            for part, tmp in zip(("module", "weights"), tmps):
                with open(tmp, "rb") as f:
                    os.fsync(f.fileno())
                manifest[part] = {"size": tmp.stat().st_size, "sha256": _sha256(tmp)}
            os.replace(tmps[0], module_path)
            os.replace(tmps[1], weights_path)
            write_json_atomic(manifest_path, manifest)
        except Exception as exc:  # as in save_in_background
            self._not_saved(key, exc)
            return
        self._prune(keep=key)

    def _not_saved(self, key: str, exc: Exception) -> None:
        log.warning("the compiled step could not be cached (%s)", exc)
        for tmp in self._tmps(key):
            tmp.unlink(missing_ok=True)
        self._remove(key)

    def _remove(self, key: str) -> None:
        for path in (*self._paths(key), self.rows_path(key)):
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass

    def _sweep(self) -> None:
        """Remove crashed writes' leftovers: temporary files older than any write in progress."""
        try:
            for tmp in self.folder.glob("step-*.tmp"):  # module and weights alike
                if time.time() - tmp.stat().st_mtime > STALE_TMP_SECONDS:
                    tmp.unlink(missing_ok=True)
        except OSError:
            pass

    def _prune(self, keep: str, limit: int = 3) -> None:
        """Entries of other keys beyond the `limit` newest, and leftovers of crashed writes."""
        self._sweep()
        try:
            entries = sorted(
                self.folder.glob("step-*.pt"), key=lambda p: p.stat().st_mtime, reverse=True
            )
        except OSError:
            return
        kept = 1
        for path in entries:
            key = path.stem[len("step-") :]
            if key == keep:
                continue
            if kept >= limit:
                self._remove(key)
            else:
                kept += 1


def _matches(path: Path, entry: dict) -> bool:
    return path.stat().st_size == entry["size"] and _sha256(path) == entry["sha256"]


LOOK_UP = object()  # DecodeLoop(step=...): the loop reads the cache itself


def step_key(cache, mode: str, precision: str, device, recipe) -> str | None:
    """The key of a decode loop's compiled step, or None where nothing is cached: fp32 shares
    the model's weights (a loaded copy would double them) and a GPU captures graphs."""
    if (
        cache is None
        or mode != DecodeMode.JIT
        or device.type != "cpu"
        or precision == Precision.FP32
    ):
        return None
    return cache.key(precision, recipe, str(device))


def _entry_key(cache, mode: str, precision_request: str, device, recipe) -> str | None:
    return step_key(cache, mode, choose(precision_request, device.type)[0], device, recipe)


def read_step(cache, mode: str, precision_request: str, device, recipe):
    """The cached step of a loop about to be made, read before the model is (so ChatTTS's GPT
    can load without its weights), or None (nothing cached, or a stale or damaged entry)."""
    key = _entry_key(cache, mode, precision_request, device, recipe)
    return cache.load(key, str(device)) if key else None


def read_step_in_background(
    cache, mode: str, precision_request: str, device, recipe
) -> Future | None:
    """`read_step` on a thread of its own, started only where an entry looks whole (its result
    may still be None: a checksum that does not match); None where nothing is cached."""
    key = _entry_key(cache, mode, precision_request, device, recipe)
    if key and cache.looks_whole(key):
        return cache.load_in_background(key, str(device))
    read_step(cache, mode, precision_request, device, recipe)  # a miss: counted, leftovers removed
    return None
