"""`chattts-studio synth`: end to end through a real process, and each bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import soundfile as sf

from app.cli import main

VENV_BIN = Path(sys.executable).parent


def run_cli(args, env_home, timeout=300):
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(env_home), PYTHONIOENCODING="utf-8")
    exe = VENV_BIN / "chattts-studio"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "app"]
    return subprocess.run(cmd + args, capture_output=True, text=True, timeout=timeout, env=env)


def assert_valid_wav(path, min_seconds=0.2):
    info = sf.info(str(path))
    assert (info.samplerate, info.channels, info.subtype, info.format) == (
        24_000,
        1,
        "PCM_16",
        "WAV",
    )
    assert info.duration >= min_seconds


@pytest.mark.slow
def test_synth_end_to_end_in_a_new_process(tiny_model, tmp_path, isolated_user_dirs):
    out = tmp_path / "x.wav"
    proc = run_cli(
        ["synth", "你好，世界。", "--model", str(tiny_model), "-o", str(out), "--json"],
        isolated_user_dirs,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert_valid_wav(out)
    assert summary["output"] == str(out)
    assert summary["sample_rate"] == 24_000
    assert summary["device"] == "cpu"
    assert summary["duration_s"] == pytest.approx(sf.info(str(out)).duration, abs=1e-3)
    assert summary["load_s"] > 0 and summary["synth_s"] > 0
    assert summary["test_model"] is True
    # Random weights are never passed off as speech.
    assert "noise, not speech" in proc.stderr


@pytest.mark.slow
def test_the_ort_decode_runs_with_deprecations_as_errors(tiny_model, tmp_path, isolated_user_dirs):
    """`--decode ort` touches none of PyTorch's deprecated quantized tensors (issue 44): with
    every DeprecationWarning an error, a synthesis ends well and says nothing deprecated."""
    out = tmp_path / "ort.wav"
    env_home = isolated_user_dirs
    proc = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-m", "app", "synth", "你好。"]
        + ["--model", str(tiny_model), "-o", str(out), "--decode", "ort", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, CHATTTS_STUDIO_HOME=str(env_home), PYTHONIOENCODING="utf-8"),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["decode"] == "ort-int8"
    assert "deprecat" not in proc.stderr.lower(), proc.stderr
    assert_valid_wav(out)


@pytest.mark.slow
def test_bad_input_in_a_new_process_is_one_sentence_and_exit_2(tmp_path, isolated_user_dirs):
    out = tmp_path / "x.wav"
    proc = run_cli(["synth", "   ", "-o", str(out)], isolated_user_dirs)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: There is no text to speak; type or paste some text first."
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def synth(args, capsys):
    code = main(["synth", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_in_process_writes_wav_and_prints_summary(tiny_model, tmp_path, capsys):
    out = tmp_path / "hello.wav"
    code, stdout, stderr = synth(
        [
            "Hello world.",
            "--model",
            str(tiny_model),
            "-o",
            str(out),
            "--no-refine",
            "--max-tokens",
            "96",
        ],
        capsys,
    )
    assert code == 0, stderr
    assert stdout.startswith(f"Wrote {out}:")
    assert_valid_wav(out, min_seconds=0.01)


@pytest.mark.parametrize("existing", [True, False], ids=["link to a file", "dangling link"])
def test_output_through_a_symbolic_link_writes_its_target_and_keeps_the_link(
    existing, tiny_model, tmp_path, capsys
):
    tmp_path = tmp_path / "out"
    tmp_path.mkdir()
    real = tmp_path / "real.wav"
    if existing:
        real.write_bytes(b"an earlier take")
    link = tmp_path / "link.wav"
    link.symlink_to(real)
    code, stdout, stderr = synth(
        [
            "Hello world.",
            "--model",
            str(tiny_model),
            "-o",
            str(link),
            "--no-refine",
            "--max-tokens",
            "96",
        ],
        capsys,
    )
    assert code == 0, stderr
    assert stdout.startswith(f"Wrote {link}:")
    assert link.is_symlink() and link.resolve() == real
    assert_valid_wav(real, min_seconds=0.01)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.wav", "real.wav"]


def test_same_arguments_give_identical_files(tiny_model, tmp_path, capsys):
    args = [
        "你好，世界。",
        "--model",
        str(tiny_model),
        "--seed",
        "7",
        "--device",
        "cpu",
        "--max-tokens",
        "128",
    ]
    assert synth(args + ["-o", str(tmp_path / "a.wav")], capsys)[0] == 0
    assert synth(args + ["-o", str(tmp_path / "b.wav")], capsys)[0] == 0
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes()


def test_text_from_file_including_gbk(tiny_model, tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_bytes("你好，世界。".encode("gb18030"))
    out = tmp_path / "f.wav"
    code, _, stderr = synth(
        [
            "--file",
            str(src),
            "--model",
            str(tiny_model),
            "-o",
            str(out),
            "--no-refine",
            "--max-tokens",
            "96",
            "--json",
        ],
        capsys,
    )
    assert code == 0, stderr
    assert out.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["", "-o", "{tmp}/x.wav"], "There is no text to speak"),
        (["\n \t", "-o", "{tmp}/x.wav"], "There is no text to speak"),
        (["--file", "{tmp}/missing.txt", "-o", "{tmp}/x.wav"], "does not exist"),
        (["--file", "{tmp}", "-o", "{tmp}/x.wav"], "is a folder; give a text file"),
        (["--file", "{tmp}/binary.txt", "-o", "{tmp}/x.wav"], "is not UTF-8 or GBK text"),
        (["text", "--file", "{tmp}/binary.txt", "-o", "{tmp}/x.wav"], "not both"),
        (["你好", "-o", "{tmp}/no/such/dir/x.wav"], "does not exist; create it"),
        (["你好", "-o", "{tmp}"], "is a folder; give a file name"),
        (["你好", "-o", "{tmp}/x.wav", "--model", "{tmp}/nomodel"], "No model folder at"),
    ],
)
def test_bad_input_gets_a_sentence_and_non_zero_exit(args, message, tmp_path, capsys):
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00\xd8" * 10)
    args = [a.format(tmp=tmp_path) for a in args]
    code, stdout, stderr = synth(args, capsys)
    assert code == 2
    assert message in stderr
    assert stderr.startswith("error: ") and stderr.rstrip().endswith(".")
    assert not (tmp_path / "x.wav").exists()


def test_unusable_output_is_reported_before_the_model_is_loaded(tmp_path, capsys, monkeypatch):
    from app.synthesis import synthesizer

    monkeypatch.setattr(synthesizer.Synthesizer, "load", lambda self: pytest.fail("model loaded"))
    code, _, stderr = synth(["你好", "-o", str(tmp_path / "none" / "x.wav")], capsys)
    assert code == 2 and "does not exist" in stderr


def test_incomplete_model_names_the_missing_files(model_copy, tmp_path, capsys):
    (model_copy / "asset/DVAE.safetensors").unlink()
    code, _, stderr = synth(
        ["你好", "--model", str(model_copy), "-o", str(tmp_path / "x.wav")], capsys
    )
    assert code == 2
    assert "asset/DVAE.safetensors" in stderr
    assert "chattts-studio models download" in stderr
    assert not (tmp_path / "x.wav").exists()


def test_corrupt_model_is_refused_with_a_json_error(model_copy, tmp_path, capsys):
    target = model_copy / "asset/gpt/model.safetensors"
    target.write_bytes(target.read_bytes()[:-10])
    code, stdout, stderr = synth(
        ["你好", "--model", str(model_copy), "-o", str(tmp_path / "x.wav"), "--json"], capsys
    )
    assert code == 2
    error = json.loads(stdout)
    assert error["kind"] == "ModelCorruptError"
    assert "asset/gpt/model.safetensors" in error["error"]
    assert not (tmp_path / "x.wav").exists()


def test_model_folder_from_environment(tiny_model, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CHATTTS_STUDIO_MODEL_DIR", str(tiny_model))
    code, _, stderr = synth(
        ["你好。", "-o", str(tmp_path / "e.wav"), "--no-refine", "--max-tokens", "64"], capsys
    )
    assert code == 0, stderr


def test_the_default_int8_is_said_once_with_the_way_to_fp32_and_plain_fp32_is_not(
    tiny_model, tmp_path, capsys
):
    # The note follows the precision the decode runs in (synth.precision), not the label's text.
    code, out, err = synth(
        [
            "你好。",
            "--model",
            str(tiny_model),
            "-o",
            str(tmp_path / "a.wav"),
            "--no-refine",
            "--max-tokens",
            "32",
            "--json",
        ],
        capsys,
    )
    assert code == 0 and json.loads(out)["decode"] == "jit-int8"  # auto on a CPU
    assert err.count("Precision int8 runs") == 1 and "--precision fp32" in err
    code, out, err = synth(
        [
            "你好。",
            "--model",
            str(tiny_model),
            "-o",
            str(tmp_path / "c.wav"),
            "--no-refine",
            "--precision",
            "bf16",
            "--max-tokens",
            "32",
        ],
        capsys,
    )
    assert code == 0 and err.count("Precision bf16 is experimental") == 1
    code, _out, err = synth(
        [
            "你好。",
            "--model",
            str(tiny_model),
            "-o",
            str(tmp_path / "b.wav"),
            "--no-refine",
            "--precision",
            "fp32",
            "--max-tokens",
            "32",
        ],
        capsys,
    )
    assert code == 0 and "experimental" not in err and "int8" not in err


def test_interrupt_during_synthesis_leaves_no_file(tiny_model, tmp_path, capsys, monkeypatch):
    from app.synthesis import synthesizer

    def interrupted(self, request, on_chunk=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(synthesizer.Synthesizer, "run", interrupted)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, _, stderr = synth(
        ["你好", "--model", str(tiny_model), "-o", str(out_dir / "x.wav")], capsys
    )
    assert code == 130
    assert "no file was written" in stderr
    assert list(out_dir.iterdir()) == []


def test_cuda_on_a_machine_without_one_is_a_sentence(tiny_model, tmp_path, capsys, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    code, _, stderr = synth(
        ["你好", "--model", str(tiny_model), "-o", str(tmp_path / "x.wav"), "--device", "cuda"],
        capsys,
    )
    assert code == 2
    assert "The GPU cannot be used" in stderr and "--device cpu" in stderr


def test_no_command_opens_the_window(monkeypatch):
    import app.ui.app as ui_app

    opened = []
    monkeypatch.setattr(
        ui_app,
        "run_window",
        lambda log_path=None, overrides=None, file=None: opened.append(True) or 0,
    )
    assert main([]) == 0
    assert opened == [True]


def test_normalize_shows_what_will_be_spoken(capsys, tmp_path, isolated_user_dirs):
    from app.library.lexicon import PronunciationDictionary

    d = PronunciationDictionary()
    d.set("AI", "A I")
    d.save()
    code = main(["normalize", "AI 在2024年5月1日涨了50%[foo]。Call at 9:30", "--json"])
    out = capsys.readouterr()
    assert code == 0
    data = json.loads(out.out)
    assert data["segments"] == ["A I 在二零二四年五月一日涨了百分之五十。", "Call at nine thirty."]
    assert "[foo]" in data["warnings"][0]
