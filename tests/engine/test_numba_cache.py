"""ChatTTS's normalizer functions are compiled once and kept (synthesis/numba_cache.py): a
second process loads them instead of compiling; a folder that does not match its seal (a file
damaged, added or missing) is deleted before numba may read it, since numba reads entries with
pickle and fails on a damaged one; an entry that fails anyway is compiled again."""

import json
from pathlib import Path

import pytest

from app.synthesis import numba_cache
from app.synthesis.numba_cache import SEAL, is_sealed, seal, warm_normalizer
from tests.support.child_json import run_child

CHILD = """
import json, sys
from pathlib import Path
from app.synthesis.chattts_model import chattts_normalizer
from app.synthesis.numba_cache import NORMALIZER_FUNCTIONS, cache_normalizer, warm_normalizer
import ChatTTS.norm as norm
folder = Path(sys.argv[1])
names = cache_normalizer(folder)
warm_normalizer(chattts_normalizer(), folder)
stats = {k: getattr(norm, k).stats for k in NORMALIZER_FUNCTIONS}
print(json.dumps({"names": names, "hits": sum(sum(s.cache_hits.values()) for s in stats.values()),
                  "misses": sum(sum(s.cache_misses.values()) for s in stats.values())}))
"""


def _start(folder: Path) -> dict:
    return run_child(CHILD, str(folder))


@pytest.fixture(scope="module")
def starts(tmp_path_factory):
    """Three starts on one cache folder: cold, warm, and warm after an entry was damaged."""
    folder = tmp_path_factory.mktemp("numba")
    cold = _start(folder)
    sealed = is_sealed(folder)
    warm = _start(folder)
    entry = next(p for p in folder.rglob("*.nbc"))
    entry.write_bytes(entry.read_bytes()[:100])
    damaged = _start(folder)
    return cold, sealed, warm, damaged, folder


def test_the_second_start_loads_what_the_first_compiled(starts):
    cold, sealed, warm, _, _ = starts
    assert cold["names"] == list(numba_cache.NORMALIZER_FUNCTIONS)
    assert cold["misses"] >= 3 and cold["hits"] == 0
    assert sealed
    assert warm["hits"] >= 3 and warm["misses"] == 0


def test_a_damaged_entry_is_compiled_again_not_read(starts):
    *_, damaged, folder = starts
    assert damaged["hits"] == 0 and damaged["misses"] >= 3
    assert is_sealed(folder)  # compiled again, and sealed again


def _folder(tmp_path) -> Path:
    folder = tmp_path / "numba"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.nbi").write_bytes(b"index")
    (folder / "sub" / "a.1.nbc").write_bytes(b"code")
    seal(folder)
    return folder


@pytest.mark.parametrize(
    "change", ["edit", "add", "remove", "garbage seal", "no seal", "huge seal", "list seal"]
)
def test_anything_but_the_sealed_files_is_not_trusted(tmp_path, change):
    folder = _folder(tmp_path)
    assert is_sealed(folder)
    if change == "edit":
        (folder / "sub" / "a.1.nbc").write_bytes(b"cod3")
    elif change == "add":
        (folder / "b.nbc").write_bytes(b"x")
    elif change == "remove":
        (folder / "sub" / "a.nbi").unlink()
    elif change == "garbage seal":
        (folder / SEAL).write_text("{not json", encoding="utf-8")
    elif change == "no seal":
        (folder / SEAL).unlink()
    elif change == "huge seal":
        (folder / SEAL).write_text(json.dumps({"x": "y" * numba_cache.SEAL_CAP}), encoding="utf-8")
    else:
        (folder / SEAL).write_text("[]", encoding="utf-8")
    assert not is_sealed(folder)
    numba_cache.cache_normalizer(folder)
    assert not (folder / "sub").exists()  # deleted before numba could read it


def test_a_sealed_folder_is_kept(tmp_path):
    folder = _folder(tmp_path)
    numba_cache.cache_normalizer(folder)
    assert (folder / "sub" / "a.1.nbc").read_bytes() == b"code"


def test_an_entry_numba_cannot_read_is_deleted_and_compiled_again(tmp_path):
    folder = _folder(tmp_path)
    calls = []

    def normalizer(text, *flags):
        calls.append(text)
        if len(calls) == 1:
            raise EOFError("Ran out of input")  # what numba's pickle load raises
        (folder / "fresh.nbi").write_bytes(b"new")

    warm_normalizer(normalizer, folder)
    assert len(calls) == 2 and not (folder / "sub").exists()
    assert is_sealed(folder) and (folder / "fresh.nbi").exists()


def test_a_normalizer_that_fails_twice_fails_the_load(tmp_path):
    def normalizer(text, *flags):
        raise ValueError("broken")

    with pytest.raises(ValueError):
        warm_normalizer(normalizer, _folder(tmp_path))
