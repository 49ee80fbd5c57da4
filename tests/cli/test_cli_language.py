"""The command line speaks the system's language (LC_ALL, LC_MESSAGES, LANG) and --lang overrides it."""

import os
import re
import subprocess
import sys
from pathlib import Path

from app.cli import main
from app.cli import window as cli_window

SNAPSHOT = str(Path(__file__).parents[1] / "doctor" / "snapshots" / "win_cpu_torch_rtx.json")
HAN = re.compile(r"[\u4e00-\u9fff]")


def run(args, tmp_path, **env):
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
    }
    environ.update(env, PYTHONIOENCODING="utf-8", CHATTTS_STUDIO_HOME=str(tmp_path / "home"))
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environ,
        timeout=300,
    )


def test_lang_zh_cn_prints_the_doctor_in_chinese(tmp_path):
    proc = run(["--lang", "zh_CN", "doctor", "--snapshot", SNAPSHOT], tmp_path, LANG="en_US.UTF-8")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("[✗] PyTorch 版本类型") and "仅支持 CPU" in lines[1]
    assert "解决方法：" in proc.stdout and "推荐设备：cpu" in proc.stdout
    assert all(HAN.search(line) for line in lines if line.startswith("[")), proc.stdout


def test_the_system_language_decides_and_lang_en_overrides_it(tmp_path):
    chinese = run(["doctor", "--snapshot", SNAPSHOT], tmp_path, LANG="zh_CN.UTF-8")
    assert "推荐设备：cpu" in chinese.stdout
    english = run(["--lang", "en", "doctor", "--snapshot", SNAPSHOT], tmp_path, LANG="zh_CN.UTF-8")
    assert "[✗] PyTorch build" in english.stdout and "Recommended device: cpu" in english.stdout
    assert not HAN.search(english.stdout)


def test_a_snapshot_error_is_a_chinese_sentence(tmp_path, capsys):
    bad = tmp_path / "old.json"
    bad.write_text('{"snapshot_version": 0}')
    assert main(["--lang", "zh_CN", "doctor", "--snapshot", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "不是版本 1 的诊断快照" in err and "doctor --save-snapshot FILE" in err


def test_an_unknown_language_is_a_usage_error(capsys):
    try:
        code = main(["--lang", "fr", "doctor"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert "--lang" in capsys.readouterr().err


def test_the_window_command_takes_lang_for_this_session():
    args = cli_window.parser().parse_args(["--lang", "zh_CN", "notes.txt"])
    assert cli_window.overrides(args) == {"ui/language": "zh_CN"}
    assert cli_window.is_window_call(["--lang", "zh_CN"], {"doctor", "synth"})
    assert "--lang en|zh_CN" in cli_window.USAGE


def test_saving_a_snapshot_is_said_in_chinese(tmp_path, capsys):
    saved = tmp_path / "me.json"
    assert (
        main(["--lang", "zh_CN", "doctor", "--snapshot", SNAPSHOT, "--save-snapshot", str(saved)])
        == 1
    )
    assert f"快照已保存到 {saved}" in capsys.readouterr().out and saved.is_file()
