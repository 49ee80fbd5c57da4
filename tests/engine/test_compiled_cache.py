"""The compiled decode step's cache: used when everything that shapes it is the same, rebuilt
when the model, the precision or the program changes, and never trusted: a damaged, truncated
or foreign entry is ignored, removed and rebuilt; a write that fails leaves nothing behind."""

import json
import os

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.decode import compiled_cache, int8_levels
from app.decode.compiled_cache import CompiledCache
from app.decode.int8_levels import row_levels

MODEL = {"root": "/m", "sha256": {"asset/GPT.pt": "ab" * 32}, "files": {"asset/GPT.pt": [10, 1]}}


class Scaled(torch.nn.Module):
    def __init__(self, factor: float):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.full((4,), factor))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weight


def _module(factor=2.0):
    return torch.jit.script(Scaled(factor))


def _entry_files(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_saved_step_is_loaded_back_and_computes_the_same(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    assert cache.load(key, "cpu") is None and cache.misses == 1
    cache.save(key, _module(3.0))
    loaded = cache.load(key, "cpu")
    assert cache.hits == 1
    assert loaded(torch.ones(4)).tolist() == [3.0] * 4
    assert _entry_files(tmp_path) == [f"step-{key}.json", f"step-{key}.pt", f"step-{key}.weights"]


@pytest.mark.parametrize(
    "change",
    [
        "model file",
        "model checksum",
        "precision",
        "recipe",
        "row levels",
        "version",
        "source",
        "device",
    ],
)
def test_anything_that_shapes_the_step_gives_another_key(tmp_path, monkeypatch, change):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _module())
    model = json.loads(json.dumps(MODEL))
    precision, recipe, device, version = "int8", None, "cpu", cache.version
    if change == "model file":
        model["files"]["asset/GPT.pt"] = [10, 2]  # the same size, written again
    elif change == "model checksum":
        model["sha256"]["asset/GPT.pt"] = "cd" * 32
    elif change == "precision":
        precision = "bf16"
    elif change == "recipe":
        recipe = "Recipe(alpha=0.8, per_channel=True)"
    elif change == "version":
        version = "9.9.9"
    elif change == "source":
        monkeypatch.setattr(compiled_cache, "_source_digest", lambda: "a changed step")
    elif change == "device":
        device = "cuda:0"
    elif change == "row levels":  # the same cache folder on a CPU that sums fewer levels
        other_levels = {int8_levels.FULL: int8_levels.SAFE}.get(row_levels(), int8_levels.FULL)
        monkeypatch.setattr(int8_levels, "row_levels", lambda: other_levels)
    other = CompiledCache(model, tmp_path, version=version)
    new_key = other.key(precision, recipe, device)
    assert new_key != key
    assert other.load(new_key, "cpu") is None  # stale: rebuilt, not reused
    other.save(new_key, _module(5.0))
    assert other.load(new_key, "cpu")(torch.ones(4)).tolist() == [5.0] * 4


def _damage(kind: str, path):
    data = path.read_bytes()
    if kind == "flipped byte":
        mid = len(data) // 2
        path.write_bytes(data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1 :])
    elif kind == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "not an archive":
        path.write_bytes(b"\x80\x04K\x01." + data[5:])  # a pickle's opening, same size


@pytest.mark.parametrize("part", ["pt", "weights"])
@pytest.mark.parametrize("kind", ["flipped byte", "truncated", "empty", "not an archive"])
def test_a_damaged_step_is_ignored_removed_and_rebuilt(tmp_path, monkeypatch, kind, part):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _module(3.0))
    _damage(kind, tmp_path / f"step-{key}.{part}")
    opened = []
    monkeypatch.setattr(torch.jit, "load", lambda *a, **k: opened.append(a) or _module())
    monkeypatch.setattr(torch, "load", lambda *a, **k: opened.append(a) or {})
    assert cache.load(key, "cpu") is None
    assert opened == []  # never handed to TorchScript or torch.load
    assert _entry_files(tmp_path) == []
    monkeypatch.undo()
    cache.save(key, _module(3.0))
    assert cache.load(key, "cpu")(torch.ones(4)).tolist() == [3.0] * 4


def test_a_step_whose_manifest_is_missing_or_foreign_is_not_used(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key, other = cache.key("int8", None, "cpu"), cache.key("bf16", None, "cpu")
    cache.save(key, _module())
    manifest = tmp_path / f"step-{key}.json"
    manifest.unlink()
    assert cache.load(key, "cpu") is None and _entry_files(tmp_path) == []
    cache.save(other, _module())  # a valid entry of another key...
    os.replace(tmp_path / f"step-{other}.pt", tmp_path / f"step-{key}.pt")
    os.replace(tmp_path / f"step-{other}.json", tmp_path / f"step-{key}.json")
    assert cache.load(key, "cpu") is None  # ...renamed to this one is refused


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(str.encode),
        st.dictionaries(
            st.text(max_size=8),
            st.one_of(st.integers(), st.text(max_size=70), st.none()),
            max_size=5,
        ).map(lambda d: json.dumps(d).encode()),
    )
)
def test_any_manifest_is_parsed_safely(tmp_path, data):
    cache = CompiledCache(MODEL, tmp_path / "c")
    key = cache.key("int8", None, "cpu")
    cache.save(key, _module())
    (tmp_path / "c" / f"step-{key}.json").write_bytes(data)
    assert cache.load(key, "cpu") is None  # no manifest of ours: not used, no error


def test_an_oversized_manifest_is_not_read(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _module())
    good = json.loads((tmp_path / f"step-{key}.json").read_text())
    good["padding"] = "x" * compiled_cache.MANIFEST_CAP
    (tmp_path / f"step-{key}.json").write_text(json.dumps(good))
    assert cache.load(key, "cpu") is None


def test_a_failed_write_leaves_no_entry_and_no_temporary_file(tmp_path, monkeypatch):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    real_save = torch.jit.save

    def crash_midway(module, path):
        real_save(module, path)
        with open(path, "r+b") as f:
            f.truncate(100)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(torch.jit, "save", crash_midway)
    cache.save(key, _module())  # says so in the log, does not raise
    assert _entry_files(tmp_path) == []
    monkeypatch.undo()
    assert cache.load(key, "cpu") is None


def test_old_entries_beyond_a_few_are_removed(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    keys = [cache.key(p, None, "cpu") for p in ("int8", "bf16", "fp16", "int4")]
    for i, key in enumerate(keys):
        cache.save(key, _module())
        os.utime(tmp_path / f"step-{key}.pt", (1000 + i, 1000 + i))
    assert not (tmp_path / f"step-{keys[0]}.pt").exists()
    assert all((tmp_path / f"step-{k}.pt").exists() for k in keys[1:])


def _int8_module(seed=0):
    from app.decode.int8_rows import RowScaledLinear

    torch.manual_seed(seed)
    layers = [torch.nn.Linear(256, 192, bias=False), torch.nn.Linear(256, 64, bias=False)]
    return torch.jit.script(
        torch.nn.Sequential(RowScaledLinear(layers), RowScaledLinear(layers[:1]))
    )


def test_int8_matrices_are_kept_beside_the_archive_and_packed_back_on_load(tmp_path):
    """TorchScript repacks every int8 matrix of an archive while holding Python's lock, so the
    matrices are saved apart (plain int8 and scales) and packed by us on load: the archive holds
    none of them, the module is untouched by saving, and the loaded one computes the same bits."""
    module = _int8_module()
    x = torch.randn(3, 256)
    expected = module(x)
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, module)
    assert torch.equal(module(x), expected)  # the saved module still has its matrices
    weights = torch.load(tmp_path / f"step-{key}.weights", weights_only=True)
    assert sorted(weights) == ["0.params", "1.params"]
    assert (
        weights["0.params"]["int8"].shape == (256, 256)
        and weights["0.params"]["int8"].dtype == torch.int8
    )
    int8_bytes = sum(entry["int8"].numel() for entry in weights.values())
    assert (tmp_path / f"step-{key}.pt").stat().st_size < int8_bytes / 2  # code and 1x1 stand-ins
    loaded = cache.load(key, "cpu")
    assert cache.hits == 1 and torch.equal(loaded(x), expected)


def _rewrite_weights(tmp_path, key, table):
    """A weights file replaced by `table`, its manifest updated to match (a consistent but
    foreign entry, as a program bug or a hand could leave it)."""
    path = tmp_path / f"step-{key}.weights"
    torch.save(table, path)
    manifest = json.loads((tmp_path / f"step-{key}.json").read_text())
    manifest["weights"] = {"size": path.stat().st_size, "sha256": compiled_cache._sha256(path)}
    (tmp_path / f"step-{key}.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    "change",
    [
        "a matrix missing",
        "a matrix too many",
        "float weights",
        "no scales",
        "scales of another length",
        "not a table",
    ],
)
def test_a_weights_file_that_does_not_fit_the_module_is_not_used(tmp_path, change):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _int8_module())
    table = torch.load(tmp_path / f"step-{key}.weights", weights_only=True)
    if change == "a matrix missing":
        del table["1.params"]
    elif change == "a matrix too many":
        table["2.params"] = table["1.params"]
    elif change == "float weights":
        table["0.params"]["int8"] = table["0.params"]["int8"].float()
    elif change == "no scales":
        del table["0.params"]["scales"]
    elif change == "scales of another length":
        table["0.params"]["scales"] = table["0.params"]["scales"][:3]
    else:
        table = [1, 2, 3]
    _rewrite_weights(tmp_path, key, table)
    assert cache.looks_whole(key)
    assert cache.load(key, "cpu") is None and _entry_files(tmp_path) == []


def test_the_background_read_runs_on_another_thread_and_only_for_a_whole_looking_entry(
    tmp_path, monkeypatch
):
    import threading

    from app.decode.compiled_cache import read_step_in_background

    cpu = torch.device("cpu")
    cache = CompiledCache(MODEL, tmp_path)
    assert read_step_in_background(cache, "jit", "int8", cpu, None) is None  # nothing there
    key = cache.key("int8", None, "cpu")
    cache.save(key, _int8_module())
    threads = []
    real_load = CompiledCache.load
    monkeypatch.setattr(
        CompiledCache,
        "load",
        lambda self, *a: threads.append(threading.current_thread()) or real_load(self, *a),
    )
    pending = read_step_in_background(cache, "jit", "int8", cpu, None)
    assert pending.result(timeout=60) is not None
    assert threads and threads[0] is not threading.current_thread()
    (tmp_path / f"step-{key}.weights").write_bytes(b"short")  # another size
    assert read_step_in_background(cache, "jit", "int8", cpu, None) is None


_TENSORS = st.builds(
    lambda dtype, shape: torch.zeros(shape, dtype=dtype),
    st.sampled_from([torch.int8, torch.uint8, torch.float32, torch.float64, torch.int64]),
    st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple),
)
_ENTRIES = st.one_of(
    st.dictionaries(
        st.sampled_from(["int8", "scales", "zero_points", "bias"]), _TENSORS, max_size=4
    ),
    _TENSORS,
    st.integers(),
    st.none(),
)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.dictionaries(
            st.sampled_from(["0.params", "1.params", "2.params", ""]), _ENTRIES, max_size=3
        ),
        st.lists(st.integers(), max_size=3),
        st.none(),
    )
)
def test_any_weights_table_that_does_not_fit_is_refused_with_a_value_error(table):
    """What a weights file holds is checked before anything is packed: every table that is not
    exactly the module's matrices (int8, one float64 scale and int64 zero point per row) is
    refused with ValueError, the one error `load` turns into "rebuild"."""
    from app.decode.compiled_cache import _put_weights

    module = _int8_module()
    x = torch.randn(2, 256)
    before = module(x)
    with pytest.raises(ValueError):
        _put_weights(module, table)
    assert torch.equal(module(x), before)  # nothing was swapped in


def test_a_matrix_with_other_rows_than_its_layer_is_refused(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _int8_module())
    table = torch.load(tmp_path / f"step-{key}.weights", weights_only=True)
    table["1.params"] = {
        k: v[:100] for k, v in table["1.params"].items()
    }  # 100 rows where it has 192
    _rewrite_weights(tmp_path, key, table)
    assert cache.load(key, "cpu") is None and _entry_files(tmp_path) == []


def test_a_matrix_with_other_columns_than_its_layer_is_refused(tmp_path):
    cache = CompiledCache(MODEL, tmp_path)
    key = cache.key("int8", None, "cpu")
    cache.save(key, _int8_module())
    table = torch.load(tmp_path / f"step-{key}.weights", weights_only=True)
    table["0.params"]["int8"] = torch.zeros(
        256, 4096, dtype=torch.int8
    )  # 4096 inputs where it takes 256
    _rewrite_weights(tmp_path, key, table)
    assert cache.load(key, "cpu") is None and _entry_files(tmp_path) == []
