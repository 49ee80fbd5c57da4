import json
import os
from pathlib import Path

import pytest

from app.core.errors import ModelCorruptError, ModelMissingError
from app.model import store as ms
from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME, sha256_map_key
from app.model.store import ModelStore


def test_default_folder_is_in_user_data_and_env_overrides(
    tmp_path, monkeypatch, isolated_user_dirs
):
    assert ModelStore().root == isolated_user_dirs / "data" / "models" / "ChatTTS"
    monkeypatch.setenv("CHATTTS_STUDIO_MODEL_DIR", str(tmp_path / "env-model"))
    assert ModelStore().root == tmp_path / "env-model"
    assert ModelStore(tmp_path / "explicit").root == tmp_path / "explicit"


def test_missing_folder_says_where_to_get_the_model(tmp_path):
    with pytest.raises(ModelMissingError) as err:
        ModelStore(tmp_path / "nowhere").require_present()
    assert "huggingface.co/2Noise/ChatTTS" in str(err.value)
    assert "--model" in str(err.value)
    assert err.value.missing == list(MODEL_FILES)


def test_incomplete_model_names_each_missing_file(model_copy):
    (model_copy / "asset/gpt/model.safetensors").unlink()
    (model_copy / "asset/Vocos.safetensors").unlink()
    with pytest.raises(ModelMissingError) as err:
        ModelStore(model_copy).require_present()
    assert err.value.missing == ["asset/Vocos.safetensors", "asset/gpt/model.safetensors"]
    assert "asset/gpt/model.safetensors" in str(err.value)
    assert "2 of 9" in str(err.value)


def test_tiny_model_verifies_against_its_config(model_copy):
    report = ModelStore(model_copy).require_verified()
    assert report.ok
    assert report.kind == "random-weights (tiny)"
    assert all(f.sha256_ok for f in report.files)


def test_corrupted_file_is_reported_by_name(model_copy):
    target = model_copy / "asset/Decoder.safetensors"
    data = bytearray(target.read_bytes())
    data[-1] ^= 0xFF
    target.write_bytes(bytes(data))
    with pytest.raises(ModelCorruptError) as err:
        ModelStore(model_copy).require_verified()
    assert err.value.bad == ["asset/Decoder.safetensors"]
    assert "checksums" in str(err.value)


def test_official_layout_is_checked_against_chattts_sha256_map(model_copy):
    (model_copy / STUDIO_CONFIG_NAME).unlink()
    store = ModelStore(model_copy)
    assert store.kind == "official"
    import ChatTTS

    table_path = Path(ChatTTS.__file__).parent / "res" / "sha256_map.json"
    table = json.loads(table_path.read_text())
    assert store.expected_sha256() == {rel: table[sha256_map_key(rel)] for rel in MODEL_FILES}
    # Random weights are not the official files: every one must fail the official checksums.
    report = store.verify()
    assert report.bad == list(MODEL_FILES)


def test_verified_files_are_not_hashed_again_until_they_change(model_copy, monkeypatch):
    calls = []
    real = ms.file_sha256
    monkeypatch.setattr(ms, "file_sha256", lambda p: calls.append(p) or real(p))
    store = ModelStore(model_copy)
    assert store.verify().ok
    assert len(calls) == len(MODEL_FILES)
    calls.clear()
    assert store.verify().ok
    assert calls == []
    # Same size, new content and time: must be hashed again and caught.
    target = model_copy / "asset/Embed.safetensors"
    data = bytearray(target.read_bytes())
    data[100] ^= 0x01
    target.write_bytes(bytes(data))
    st = target.stat()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert store.verify().bad == ["asset/Embed.safetensors"]
    assert [p.name for p in calls] == ["Embed.safetensors"]


def test_unreadable_model_config_is_a_clear_error(model_copy):
    (model_copy / STUDIO_CONFIG_NAME).write_text("{not json")
    with pytest.raises(ModelCorruptError, match="cannot be read"):
        ModelStore(model_copy).require_verified()


def test_the_folder_s_description_says_its_kind_and_only_random_weights_make_noise(
    tiny_model, tmp_path
):
    from app.core import ModelKind

    assert ModelStore(tiny_model).model_kind is ModelKind.RANDOM_WEIGHTS
    assert ModelStore(tmp_path).model_kind is ModelKind.OFFICIAL  # no description: official
    assert ModelKind.OFFICIAL.makes_speech and not ModelKind.RANDOM_WEIGHTS.makes_speech
    assert ModelKind.of(None) is ModelKind.OFFICIAL
    assert ModelKind.of({"size": "tiny"}) is ModelKind.RANDOM_WEIGHTS
