"""What verify() reports per file, and what the cache of verified files may and may not skip:
a file whose size and modification time are those it had when it was hashed is trusted (that
is the point of the cache); use_cache=False hashes everything again."""

import os

import pytest

from app.core.errors import ModelCorruptError
from app.model.files import MODEL_FILES
from app.model.store import ModelStore


def _damage_keeping_size_and_time(path):
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_each_file_is_reported_with_its_size_and_a_missing_one_does_not_stop_the_rest(model_copy):
    gone = MODEL_FILES[1]
    (model_copy / gone).unlink()
    report = ModelStore(model_copy).verify()
    assert [f.relpath for f in report.files] == list(MODEL_FILES)
    assert report.missing == [gone] and not report.ok and report.root == model_copy
    for check in report.files:
        if check.relpath != gone:
            assert check.present and check.sha256_ok is True
            assert check.size == (model_copy / check.relpath).stat().st_size


def test_the_cache_trusts_an_unchanged_stamp_and_use_cache_false_hashes_again(model_copy):
    store = ModelStore(model_copy)
    assert store.verify().ok  # hashes and remembers every file
    victim = model_copy / MODEL_FILES[0]
    _damage_keeping_size_and_time(victim)
    assert store.verify().ok  # same size and time: trusted, not hashed
    store.require_verified()
    assert store.verify(use_cache=False).bad == [MODEL_FILES[0]]
    with pytest.raises(ModelCorruptError):
        store.require_verified(use_cache=False)


def test_verify_without_the_cache_neither_reads_nor_writes_it(model_copy):
    store = ModelStore(model_copy)
    store.verify(use_cache=False)
    victim = model_copy / MODEL_FILES[0]
    _damage_keeping_size_and_time(victim)
    assert store.verify().bad == [MODEL_FILES[0]]  # nothing was remembered: it is hashed


def test_without_the_chattts_package_the_checksums_cannot_be_read_and_it_says_so(monkeypatch):
    import importlib.util

    from app.model import store

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelCorruptError, match="ChatTTS package is not installed"):
        store.chattts_sha256_map()


def test_chatttss_own_table_lists_every_official_file():
    from app.model.download import official_sha256
    from app.model.store import chattts_sha256_map, sha256_map_key

    table = chattts_sha256_map()
    assert all(len(table[sha256_map_key(rel)]) == 64 for rel in MODEL_FILES)
    # What a download checks each file against is that table's entry for the file.
    assert official_sha256() == {rel: table[sha256_map_key(rel)] for rel in MODEL_FILES}
