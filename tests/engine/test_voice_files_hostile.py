"""Hostile voice files and speaker strings: refused with a sentence naming the file, cheaply."""

import base64
import json
import lzma
import pickle
import resource

import numpy as np
import pybase16384 as b14
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import VoiceError
from app.voices.importer import MAX_VOICE_FILE_BYTES, import_voice_file
from app.voices.speakers import LZMA_ARGS, decode_speaker, encode_speaker

EMB = np.random.default_rng(3).normal(size=768).astype(np.float32)


def _peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_speaker_string_that_expands_without_bound_is_refused_cheaply():
    # 128 MiB of zeros packs into a string under the character cap: only decompression can tell.
    fast = dict(LZMA_ARGS, filters=[{"id": lzma.FILTER_LZMA2, "preset": 1}])
    bomb = b14.encode_to_string(lzma.compress(b"\0" * (1 << 27), **fast))
    assert len(bomb) < 24_000
    before = _peak_mb()
    with pytest.raises(VoiceError, match="more than"):
        decode_speaker(bomb)
    with pytest.raises(VoiceError, match="more than"):
        decode_speaker(bomb, dims=768)
    assert _peak_mb() - before < 64
    with pytest.raises(VoiceError, match="more than any ChatTTS voice"):
        decode_speaker("\u4e00" * 268_000)  # the size of a 1 GiB bomb: refused by its length


def test_a_speaker_of_another_size_is_refused_when_the_size_is_known():
    speaker = encode_speaker(EMB[:512].astype(np.float16))
    assert decode_speaker(speaker).shape == (512,)
    with pytest.raises(VoiceError):
        decode_speaker(speaker, dims=768)


def _forge(desc, name="Forge voice", tokens=None):
    data = base64.b64encode(EMB.tobytes()).decode()
    return {
        "_type": "DcSpk",
        "data": {
            "meta": {"_type": "DcSpkMeta", "data": {"name": name, "desc": desc}},
            "token": [
                {
                    "_type": "DcSpkVoiceToken",
                    "data": {
                        "model_id": "chattts",
                        "tokens": tokens or [{"_type": "torch.Tensor", "data": data}],
                    },
                }
            ],
        },
    }


def test_a_forge_file_with_numbers_for_text_imports_with_defaults(tmp_path):
    path = tmp_path / "v.spkv1.json"
    path.write_text(json.dumps(_forge(123, name=["x"])))
    voice = import_voice_file(path)
    assert voice.name == "v" and voice.notes == "Imported from v.spkv1.json"


class Exploit:
    def __reduce__(self):
        return (print, ("ran code",))


@pytest.mark.parametrize(
    "name,content,says",
    [
        ("ours.json", json.dumps({"name": "x", "speaker": "abc", "seed": "five"}), "field 'seed'"),
        ("ours.json", json.dumps({"name": 5, "speaker": "abc", "notes": 123}), "field 'notes'"),
        ("ours.json", json.dumps({"name": "x", "reference": ["a"]}), "field 'reference'"),
        ("deep.json", "[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ("trunc.json", '{"name": "x", "speak', "not valid JSON"),
        (
            "f.spkv1.json",
            json.dumps(_forge("d", tokens=[{"_type": "torch.Tensor", "data": "!!notbase64"}])),
            "damaged",
        ),
        (
            "f.spkv1.json",
            json.dumps(_forge("d", tokens=[{"_type": "torch.Tensor", "data": "AAAAAAA="}])),
            "damaged",
        ),
        ("f.spkv1.json", json.dumps(_forge("d", tokens=[["a", "b"]])), "damaged"),
        (
            "f.spkv1.json",
            json.dumps(_forge("d", tokens=[{"_type": "torch.Tensor", "data": 5}])),
            "tokens.data",
        ),
        ("big.csv", "1.0\n" * 20_000, "does not hold a speaker"),
        ("nan.csv", "nan\n" * 100, "does not hold a speaker"),
        ("bad.pt", b"PK\x03\x04 this is no zip", "not a readable PyTorch"),
        ("pickle.pt", pickle.dumps(Exploit()), "could run code"),
        ("s.txt", "\U0001f600" * 100, "not a valid ChatTTS speaker string"),
    ],
)
def test_hostile_voice_files_get_one_sentence_naming_the_file(
    tmp_path, capsys, name, content, says
):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(VoiceError, match=says) as err:
        import_voice_file(path)
    assert name in str(err.value) or "speaker string" in str(err.value)
    assert "weights_only" not in str(err.value) and "ran code" not in capsys.readouterr().out


def test_a_pickled_tensor_file_with_code_never_runs_it(tmp_path, capsys):
    import torch

    path = tmp_path / "evil.pt"
    torch.save({"spk_emb": torch.zeros(4), "x": Exploit()}, path)
    with pytest.raises(VoiceError, match="could run code"):
        import_voice_file(path)
    assert "ran code" not in capsys.readouterr().out


def test_an_oversized_voice_file_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_VOICE_FILE_BYTES + 10)
    with pytest.raises(VoiceError, match="larger than"):
        import_voice_file(path)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "_type",
                    "data",
                    "meta",
                    "name",
                    "desc",
                    "model_id",
                    "tokens",
                    "speaker",
                    "seed",
                    "notes",
                    "reference",
                    "token",
                    "chattts",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=JSONISH, suffix=st.sampled_from([".json", ".spkv1.json"]))
def test_any_json_voice_file_imports_or_raises_voice_error(tmp_path, data, suffix):
    path = tmp_path / f"v{suffix}"
    path.write_text(json.dumps(data))
    try:
        voice = import_voice_file(path)
    except VoiceError:
        return
    assert isinstance(voice.name, str) and isinstance(voice.notes, str)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    raw=st.binary(max_size=600),
    suffix=st.sampled_from([".json", ".pt", ".csv", ".txt", ".spkv1.json"]),
)
def test_any_bytes_import_or_raise_voice_error(tmp_path, raw, suffix):
    path = tmp_path / f"v{suffix}"
    path.write_bytes(raw)
    try:
        import_voice_file(path)
    except VoiceError:
        pass


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300))
def test_any_speaker_string_decodes_or_raises_voice_error(text):
    try:
        emb = decode_speaker(text)
    except VoiceError:
        return
    assert emb.dtype == np.float16 and emb.size <= 8192
