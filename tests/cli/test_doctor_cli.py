"""`chattts-studio doctor`: exit codes, text and JSON, snapshots in and out."""

import json
from pathlib import Path

import pytest

from app.cli import main

SNAPSHOTS = Path(__file__).parents[1] / "doctor" / "snapshots"


def doctor(args, capsys):
    code = main(["doctor", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_healthy_machine_exits_0_with_marks(capsys):
    code, out, _ = doctor(["--snapshot", str(SNAPSHOTS / "win_fine.json")], capsys)
    assert code == 0
    assert out.splitlines()[0].startswith("[✓] Python")
    assert "Recommended device: cuda" in out


def test_a_failing_check_exits_1_and_prints_the_fix(capsys):
    code, out, _ = doctor(["--snapshot", str(SNAPSHOTS / "win_cpu_torch_rtx.json")], capsys)
    assert code == 1
    assert "[✗] PyTorch build" in out
    assert "--index-url https://download.pytorch.org/whl/cu128" in out


def test_json_output(capsys):
    code, out, _ = doctor(
        ["--snapshot", str(SNAPSHOTS / "win_rtx5090_cu126.json"), "--json"], capsys
    )
    data = json.loads(out)
    assert code == 1
    gpu_arch = next(c for c in data["checks"] if c["id"] == "gpu_arch")
    assert gpu_arch["status"] == "fail"
    assert data["recommendation"]["device"] == "cpu"


def test_save_snapshot_then_replay_gives_the_same_report(tiny_model, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    snap = tmp_path / "me.json"
    code1, out1, _ = doctor(
        ["--model", str(tiny_model), "--json", "--save-snapshot", str(snap)], capsys
    )
    code2, out2, _ = doctor(["--snapshot", str(snap), "--json"], capsys)
    assert code1 == code2
    assert json.loads(out1) == json.loads(out2)


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "cannot be read"),
        ("{not json", "is not valid JSON"),
        ('{"snapshot_version": 99}', "is not a doctor snapshot of version 1"),
    ],
)
def test_bad_snapshot_file_is_a_sentence(content, message, tmp_path, capsys):
    path = tmp_path / "snap.json"
    if content is not None:
        path.write_text(content)
    code, _, err = doctor(["--snapshot", str(path)], capsys)
    assert code == 2
    assert message in err and err.startswith("error: ")


def test_unwritable_snapshot_target_is_a_sentence(tmp_path, capsys):
    (tmp_path / "a-file").write_text("not a folder")
    code, _, err = doctor(
        [
            "--snapshot",
            str(SNAPSHOTS / "win_fine.json"),
            "--save-snapshot",
            str(tmp_path / "a-file" / "s.json"),
        ],
        capsys,
    )
    assert code == 2
    assert "could not be saved" in err
