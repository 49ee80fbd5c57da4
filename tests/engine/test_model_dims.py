"""One `ModelDims` (model/dims.py), read by one reader: the official numbers for a folder
without a test-model description, else the description's; the builder's sizes are the same type."""

import json
from dataclasses import asdict

import pytest

from app.core.errors import ModelCorruptError
from app.model.config import chattts_config
from app.model.dims import ModelDims, official
from app.model.files import STUDIO_CONFIG_NAME
from app.model.schemas import read_model_dims
from app.selftest.dimensions import dimensions


def _shared(a: dict, b: dict, where: str = "") -> list[tuple[str, object, object]]:
    """(place, a's, b's) for every number both name (None: not named) and that differ."""
    differ = []
    for key in a.keys() & b.keys():
        x, y = a[key], b[key]
        if isinstance(x, dict) and isinstance(y, dict):
            differ += _shared(x, y, f"{where}{key}.")
        elif x is not None and y is not None and x != y:
            differ.append((where + key, x, y))
    return differ


def test_full_dimensions_are_the_official_numbers_where_both_name_them():
    full, numbers = dimensions("full").model_dump(), official().model_dump()
    assert _shared(full, numbers) == []
    assert full["gpt"].keys() - {"vocab_size"} <= numbers["gpt"].keys()


def test_the_official_numbers_build_chattts_default_config():
    ours, default = chattts_config(official()), chattts_config()
    for part in ("path", "decoder", "dvae", "gpt", "embed", "vocos"):
        assert asdict(getattr(ours, part)) == asdict(getattr(default, part)), part
    assert official().spk_stat == default.spk_stat


def test_a_folder_without_a_description_reads_the_official_numbers(tmp_path):
    assert read_model_dims(tmp_path) is official()
    assert read_model_dims(tmp_path).num_text_tokens == 21178


def test_a_test_model_reads_the_dimensions_it_was_built_with(tiny_model):
    dims = read_model_dims(tiny_model)
    assert type(dims) is ModelDims
    assert dims.gpt.hidden_size == 64 and dims.num_text_tokens is not None
    assert dims.model_copy(update={"num_text_tokens": None}) == dimensions("tiny")


def test_a_damaged_description_is_refused_by_the_dims_reader(tiny_model, tmp_path):
    cfg = json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())
    cfg["dimensions"]["dvae"]["vq"]["levels"] = [5, 1]
    (tmp_path / STUDIO_CONFIG_NAME).write_text(json.dumps(cfg))
    with pytest.raises(ModelCorruptError, match=r"field 'dimensions\.dvae\.vq\.levels\.1'"):
        read_model_dims(tmp_path)


def test_an_unknown_size_is_refused():
    with pytest.raises(ValueError, match="unknown model size"):
        dimensions("huge")
