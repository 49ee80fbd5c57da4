"""The GPT's weights are read into memory of their own (model/runtime/tensor_file.py): the same
tensors as safetensors gives, no view of a mapped file, and a damaged file refused with a
sentence that names what is wrong."""

import json
import struct
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors import safe_open
from safetensors.torch import save_file

from app.model.runtime.tensor_file import read_tensors

TENSORS = {
    "w": torch.randn(6, 5),
    "half": torch.randn(3, 4).to(torch.bfloat16),
    "mask": torch.tensor([True, False, True]),
    "ids": torch.arange(7, dtype=torch.int64),
    "scalar": torch.tensor(2.5),
    "empty": torch.zeros(0, 4),
}


@pytest.fixture
def tensor_file(tmp_path):
    path = tmp_path / "t.safetensors"
    save_file(TENSORS, str(path))
    return path


def _mapped(path) -> bool:
    """Whether this process maps `path` (Linux's /proc, where the tests run)."""
    return str(path) in Path("/proc/self/maps").read_text()


def test_the_same_tensors_as_safetensors_without_mapping_the_file(tensor_file):
    got = read_tensors(tensor_file, lambda name: True)
    assert not _mapped(tensor_file)  # while its tensors are held
    with safe_open(str(tensor_file), framework="pt") as f:
        assert sorted(got) == sorted(f.keys())
        theirs = {name: f.get_tensor(name) for name in f.keys()}  # noqa: SIM118
    assert _mapped(tensor_file)  # safetensors' own tensors are views of the mapped file
    for name, tensor in got.items():
        assert tensor.dtype == theirs[name].dtype and torch.equal(tensor, theirs[name])


def test_only_the_wanted_tensors_are_read(tensor_file):
    assert sorted(read_tensors(tensor_file, lambda name: name.startswith(("w", "m")))) == [
        "mask",
        "w",
    ]


def _with_header(tmp_path, header: dict, data: bytes) -> str:
    raw = json.dumps(header).encode()
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return str(path)


@pytest.mark.parametrize(
    "entry, data, says",
    [
        ({"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, b"\0" * 4, "offsets"),
        ({"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}, b"\0" * 8, "offsets"),
        ({"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}, b"\0" * 8, "offsets"),
        ({"dtype": "Q4", "shape": [2], "data_offsets": [0, 8]}, b"\0" * 8, "dtype"),
        ({"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}, b"\0" * 8, "dtype"),
        ({"dtype": "F32", "shape": [2]}, b"\0" * 8, "dtype"),
        ("F32", b"", "entry"),
        ({"dtype": [], "shape": [2], "data_offsets": [0, 8]}, b"\0" * 8, "dtype"),
        ({"dtype": "F32", "shape": [0, 10**20], "data_offsets": [0, 0]}, b"", "dtype"),
        ({"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, b"\0" * 8, "gap|end"),
    ],
)
def test_a_damaged_entry_is_refused_by_name(tmp_path, entry, data, says):
    with pytest.raises(ValueError, match=f"(^x: .*{says})|{says}"):
        read_tensors(_with_header(tmp_path, {"x": entry}, data), lambda name: True)


@pytest.mark.parametrize(
    "content, says",
    [
        (b"", "header size"),
        (struct.pack("<Q", 1 << 40) + b"{}", "header size"),
        (struct.pack("<Q", 4) + b"nope", "not JSON"),
        (struct.pack("<Q", 2) + b"[]", "not a table"),
    ],
)
def test_a_file_that_is_not_safetensors_is_refused(tmp_path, content, says):
    path = tmp_path / "x.safetensors"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=says):
        read_tensors(path, lambda name: True)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_with_a_value_error(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "f.safetensors"
    path.write_bytes(content)
    try:
        read_tensors(path, lambda name: True)
    except ValueError:
        pass


def test_tensors_that_share_bytes_are_refused(tmp_path):
    """Two entries over the same bytes would make a small file ask for its size many times."""
    entry = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
    path = _with_header(tmp_path, {"a": entry, "b": entry}, b"\0" * 8)
    with pytest.raises(ValueError, match="overlap"):
        read_tensors(path, lambda name: True)


def test_a_header_nested_too_deep_for_json_is_refused(tmp_path):
    raw = b"[" * 200_000
    path = tmp_path / "deep.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)
    with pytest.raises(ValueError, match="not JSON"):
        read_tensors(path, lambda name: True)


ENTRY = st.fixed_dictionaries(
    {
        "dtype": st.sampled_from(["F32", "BF16", "I8", "BOOL", "Q4", 3, None, []]),
        "shape": st.lists(st.integers(-2, 5) | st.just(10**20), max_size=3) | st.just("x"),
        "data_offsets": st.lists(st.integers(-4, 64), min_size=0, max_size=3),
    }
)


@settings(max_examples=300, deadline=None)
@given(header=st.dictionaries(st.text(max_size=3), ENTRY, max_size=4), data=st.binary(max_size=64))
def test_any_header_is_read_or_refused_with_a_value_error(tmp_path_factory, header, data):
    path = _with_header(tmp_path_factory.mktemp("fuzz"), header, data)
    try:
        tensors = read_tensors(path, lambda name: True)
    except ValueError:
        return
    assert sum(t.numel() * t.element_size() for t in tensors.values()) == len(data)
