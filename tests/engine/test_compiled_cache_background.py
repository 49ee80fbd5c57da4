"""A first start writes its compiled step's int8 matrices after ready, on a thread of their own
(CompiledCache.save_in_background): the module works meanwhile, nothing looks complete before
the manifest, a load waits for the write, and a failed or killed write leaves nothing for long."""

import os
import threading
import time

import torch

from app.decode import compiled_cache
from app.decode.compiled_cache import CompiledCache
from tests.engine.test_compiled_cache import MODEL, _entry_files, _int8_module


def _held_unpacking(monkeypatch):
    """Holds the background part of a save (the int8 matrices' unpacking) until released."""
    release, started = threading.Event(), threading.Event()
    real = compiled_cache.unpacked

    def held(taken):
        started.set()
        assert release.wait(10)
        return real(taken)

    monkeypatch.setattr(compiled_cache, "unpacked", held)
    return started, release


def test_a_first_start_is_not_kept_waiting_for_the_int8_matrices_to_be_written(
    tmp_path, monkeypatch
):
    """save_in_background returns once the archive is written: the module works meanwhile, no
    entry looks complete until its manifest is written, and a load waits for the save."""
    started, release = _held_unpacking(monkeypatch)
    module = _int8_module()
    x = torch.randn(3, 256)
    expected = module(x)
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    pending = cache.save_in_background(key, module)
    assert started.wait(10) and not pending.done()
    assert torch.equal(module(x), expected)  # its matrices are back in place
    assert f"step-{key}.json" not in _entry_files(tmp_path)
    loaded, whole = [], []
    reader = threading.Thread(target=lambda: loaded.append(cache.load(key, "cpu")))
    looker = threading.Thread(target=lambda: whole.append(cache.looks_whole(key)))
    for thread in (reader, looker):
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # waiting for the save, not reading a half-written entry
    release.set()
    reader.join(10)
    looker.join(10)
    assert whole == [True]
    assert pending.result() is None and cache.hits == 1
    assert torch.equal(loaded[0](x), expected)
    assert _entry_files(tmp_path) == [f"step-{key}.json", f"step-{key}.pt", f"step-{key}.weights"]


def test_a_save_that_fails_in_the_background_leaves_nothing(tmp_path, monkeypatch):
    def full_disk(module, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(torch, "save", full_disk)  # the matrices, written in the background
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save_in_background(key, _int8_module()).result()
    assert _entry_files(tmp_path) == []
    assert cache.load(key, "cpu") is None


def test_a_killed_writes_leftovers_are_cleared_by_a_later_start_hit_or_miss(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _int8_module())
    leftover = tmp_path / f"step-{key}.weights.999.tmp"
    leftover.write_bytes(b"half a write")
    assert cache.load(key, "cpu") is not None and leftover.exists()  # maybe a write going on
    old = time.time() - compiled_cache.STALE_TMP_SECONDS - 60
    os.utime(leftover, (old, old))
    assert cache.load(key, "cpu") is not None and not leftover.exists()
