"""`chattts-studio check AUDIO... --text|--text-file`: findings as sentences or JSON, exit 1
when a take is flagged, 2 on a user error with one sentence."""

from __future__ import annotations

import json
import shutil

import numpy as np
import soundfile as sf

from app.cli import main
from tests.engine.take_fixtures import FOLDER, RATE, fixtures

TAKES = fixtures()


def check(args, capsys):
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_good_takes_pass_with_exit_0(capsys, tmp_path):
    names = ["en_en-us_0.flac", "en_en-us_1.flac", "en_en-us_2.flac"]
    lines = tmp_path / "text.txt"
    lines.write_text("\n".join(TAKES[n][1] for n in names) + "\n", encoding="utf-8")
    code, out, err = check(
        [
            *(str(FOLDER / n) for n in names),
            "--text-file",
            str(lines),
            "--reference",
            str(FOLDER / "en_reference.flac"),
        ],
        capsys,
    )
    assert code == 0, out + err
    assert out.count("no problem found") == 3


def test_flagged_takes_exit_1_with_a_sentence_each_and_stable_json(capsys, tmp_path):
    language, text, audio = TAKES["zh_cmn_0.flac"]
    twice = tmp_path / "twice.wav"
    sf.write(twice, np.concatenate([audio, audio]), RATE)
    silent = tmp_path / "silent.wav"
    sf.write(silent, np.zeros(RATE * 3, np.float32), RATE)
    lines = tmp_path / "text.txt"
    lines.write_text(f"{text}\n{text}\n", encoding="utf-8")
    code, out, _ = check([str(twice), str(silent), "--text-file", str(lines)], capsys)
    assert code == 1
    assert "twice.wav: The take is far longer than its text needs" in out
    assert "silent.wav: The take has no speech" in out
    code, out, _ = check([str(twice), str(silent), "--text-file", str(lines), "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["language"] == "zh" and data["flagged"] == 2
    assert [t["file"] for t in data["takes"]] == [str(twice), str(silent)]
    first, second = data["takes"]
    assert set(first) == {
        "file",
        "text",
        "checked",
        "note",
        "score",
        "seconds",
        "speech_seconds",
        "expected_speech_seconds",
        "voice_similarity",
        "speech_dbfs",
        "findings",
    }
    assert [f["kind"] for f in first["findings"]] == ["too_long"]
    assert [f["kind"] for f in second["findings"]] == ["no_speech"]
    assert second["score"] == 0.0 and set(second["findings"][0]) == {
        "kind",
        "value",
        "limit",
        "reason",
    }


def test_another_voice_is_flagged_against_the_reference(capsys):
    _lang, text, _audio = TAKES["en_other_speaker.flac"]
    code, out, _ = check(
        [
            str(FOLDER / "en_other_speaker.flac"),
            "--text",
            text,
            "--reference",
            str(FOLDER / "en_reference.flac"),
        ],
        capsys,
    )
    assert code == 1 and "The voice differs from the reference voice" in out


def test_user_errors_are_one_sentence_and_exit_2(capsys, tmp_path):
    good = str(FOLDER / "en_en-us_0.flac")
    code, out, err = check([good, good, "--text", "One sentence."], capsys)
    assert code == 2 and "2 audio files but 1 lines of text" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    not_audio = tmp_path / "notes.wav"
    not_audio.write_text("this is not audio", encoding="utf-8")
    for path, words in [
        (not_audio, "cannot be read as WAV or FLAC"),
        (tmp_path / "missing.wav", "does not exist"),
        (tmp_path, "is a folder"),
    ]:
        code, out, err = check([str(path), "--text", "Hello."], capsys)
        assert code == 2 and words in err and "Traceback" not in err, err
    odd = tmp_path / "odd.wav"
    sf.write(odd, np.zeros(100, np.float32), 4000)
    code, _out, err = check([str(odd), "--text", "Hello."], capsys)
    assert code == 2 and "8-192 kHz" in err
    code, out, _ = check([str(not_audio), "--text", "Hello.", "--json"], capsys)
    assert code == 2 and "cannot be read" in json.loads(out)["error"]


def test_damaged_audio_files_are_a_sentence_never_a_traceback(capsys, tmp_path):
    good = (FOLDER / "en_en-us_0.flac").read_bytes()
    buffer = tmp_path / "take.wav"
    sf.write(buffer, TAKES["en_en-us_0.flac"][2][:RATE], RATE)
    wav = buffer.read_bytes()
    rng = np.random.default_rng(0)
    damaged = [
        good[:100],
        wav[:44],
        wav[:60],
        wav[:12] + rng.integers(0, 256, 200, dtype=np.uint8).tobytes(),
        bytes(rng.integers(0, 256, 5000, dtype=np.uint8)),
        b"RIFF\xff\xff\xff\x7fWAVEfmt " + bytes(40),
    ]
    for i, data in enumerate(damaged):
        path = tmp_path / f"damaged{i}.wav"
        path.write_bytes(data)
        code, _out, err = check([str(path), "--text", "Hello."], capsys)
        assert code in (1, 2) and "Traceback" not in err, (i, err)
        if code == 2:
            assert len(err.strip().splitlines()) == 1


def test_a_file_over_the_cap_is_not_read(capsys, tmp_path, monkeypatch):
    from app.cli import check as command

    monkeypatch.setattr(command, "MAX_AUDIO_BYTES", 1000)
    big = tmp_path / "big.flac"
    shutil.copy(FOLDER / "en_en-us_0.flac", big)
    code, _out, err = check([str(big), "--text", "Hello."], capsys)
    assert code == 2 and "larger than 1,000 bytes" in err


def test_chinese_messages(capsys, tmp_path):
    silent = tmp_path / "silent.wav"
    sf.write(silent, np.zeros(RATE * 2, np.float32), RATE)
    code = main(["--lang", "zh_CN", "check", str(silent), "--text", "你好。"])
    out = capsys.readouterr().out
    assert code == 1 and "这段录音没有语音" in out
