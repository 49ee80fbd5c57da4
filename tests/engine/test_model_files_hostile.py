"""The test model's description and the verified-models cache are parsed into typed shapes."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import paths
from app.core.errors import ModelCorruptError
from app.model.files import STUDIO_CONFIG_NAME
from app.model.schemas import read_model_description, read_verified_cache
from app.model.store import ModelStore

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=15,
)


@pytest.mark.parametrize(
    "path,value,field",
    [
        (("dimensions", "gpt", "hidden_size"), "64", "dimensions.gpt.hidden_size"),
        (("dimensions", "gpt", "num_vq"), -1, "dimensions.gpt.num_vq"),
        (("dimensions", "dvae", "vq", "levels"), [], "dimensions.dvae.vq.levels"),
        # A level of 1 divides by zero in the quantizer: every recording's codes would be garbage.
        (("dimensions", "dvae", "vq", "levels"), [5, 1, 5, 5], "dimensions.dvae.vq.levels.1"),
        (("sha256", "asset/DVAE.safetensors"), "../../etc", "sha256.asset/DVAE.safetensors"),
        (("spk_stat",), 5, "spk_stat"),
    ],
)
def test_a_description_with_a_bad_field_names_it(model_copy, path, value, field):
    cfg_path = model_copy / STUDIO_CONFIG_NAME
    cfg = json.loads(cfg_path.read_text())
    node = cfg
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    cfg_path.write_text(json.dumps(cfg))
    with pytest.raises(ModelCorruptError, match=f"field '{field}'"):
        ModelStore(model_copy).studio_config()


def test_the_real_description_keeps_what_the_loader_needs(tiny_model):
    cfg = ModelStore(tiny_model).studio_config()
    assert cfg["dimensions"]["gpt"]["hidden_size"] == 64 and len(cfg["sha256"]) >= 9
    assert set(cfg["dimensions"]["decoder"]) == {"idim", "odim", "hidden", "n_layer", "bn_dim"}


def test_a_damaged_verified_cache_is_ignored_and_the_files_hashed_again(model_copy):
    cache = paths.cache_dir() / "verified-models.json"
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({str(model_copy.resolve()): {"asset/DVAE.safetensors": "yes"}}))
    report = ModelStore(model_copy).verify()
    assert report.ok
    assert read_verified_cache(cache)[str(model_copy.resolve())]  # rewritten in the right shape


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=JSON)
def test_any_description_or_cache_parses_or_is_refused(tmp_path, data):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(data))
    try:
        read_model_description(path)
    except ModelCorruptError as exc:
        assert str(path) in str(exc)
    assert isinstance(read_verified_cache(path), dict)
