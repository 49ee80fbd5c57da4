"""Every voice format round-trips to the same speaker string."""

import base64
import json

import numpy as np
import pytest

from app.core.errors import VoiceError
from app.library.voices import Voice
from app.voices.importer import export_voice, import_voice_file, voice_from_string
from app.voices.speakers import encode_speaker

EMB = np.random.default_rng(7).normal(size=768).astype(np.float32)
EXPECTED = encode_speaker(EMB.astype(np.float16))


def test_pt_tensor(tmp_path):
    import torch

    torch.save(torch.from_numpy(EMB), tmp_path / "alice.pt")
    torch.save({"spk_emb": torch.from_numpy(EMB)}, tmp_path / "dict.pth")
    assert import_voice_file(tmp_path / "alice.pt").speaker == EXPECTED
    assert import_voice_file(tmp_path / "alice.pt").name == "alice"
    assert import_voice_file(tmp_path / "dict.pth").speaker == EXPECTED


def test_chattts_ui_csv_one_value_per_line(tmp_path):
    path = tmp_path / "seed_2222.csv"
    path.write_text("\n".join(repr(float(x)) for x in EMB) + "\n")
    assert import_voice_file(path).speaker == EXPECTED


def test_forge_spkv1_json(tmp_path):
    token = {"_type": "torch.Tensor", "data": base64.b64encode(EMB.tobytes()).decode()}
    doc = {
        "_type": "DcSpk",
        "data": {
            "id": "abc",
            "meta": {"_type": "DcSpkMeta", "data": {"name": "mona", "desc": "a calm voice"}},
            "token": [
                {
                    "_type": "DcSpkVoiceToken",
                    "data": {"model_id": "chat-tts", "model_hash": "", "tokens": [token]},
                }
            ],
        },
    }
    path = tmp_path / "mona.spkv1.json"
    path.write_text(json.dumps(doc))
    voice = import_voice_file(path)
    assert voice.speaker == EXPECTED
    assert voice.name == "mona" and voice.notes == "a calm voice"


def test_speaker_string_and_text_file(tmp_path):
    assert voice_from_string(EXPECTED).speaker == EXPECTED
    (tmp_path / "voice.txt").write_text(EXPECTED + "\n")
    assert import_voice_file(tmp_path / "voice.txt").speaker == EXPECTED


def test_our_own_file_round_trips_every_field(tmp_path):
    voice = Voice(
        name="旁白",
        speaker=EXPECTED,
        seed=2222,
        notes="warm",
        reference="codes",
        reference_text="你好",
    )
    back = import_voice_file(export_voice(voice, tmp_path / "narrator.json"))
    assert back == voice


def test_a_seed_voice_matches_its_speaker_string(tiny_model):
    import json as _json

    from app.model.files import STUDIO_CONFIG_NAME
    from app.voices.speakers import speaker_from_seed

    stat = _json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["spk_stat"]
    assert voice_from_string(speaker_from_seed(2222, stat)).speaker == speaker_from_seed(2222, stat)


@pytest.mark.parametrize(
    "name, content",
    [
        ("bad.csv", "not numbers at all"),
        ("bad.json", '{"hello": 1}'),
        ("bad.txt", "definitely not base16384"),
        ("other.spkv1.json", json.dumps({"_type": "DcSpk", "data": {"token": []}})),
    ],
)
def test_unusable_files_get_a_sentence(tmp_path, name, content):
    (tmp_path / name).write_text(content)
    with pytest.raises(VoiceError) as err:
        import_voice_file(tmp_path / name)
    assert str(err.value).endswith(".")
