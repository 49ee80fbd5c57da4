"""The command line's own sentences in Chinese with --lang zh_CN: engine errors, argument errors,
the model table (issue 13 item 4)."""

import re

from app import i18n
from app.cli import main

HAN = re.compile(r"[\u4e00-\u9fff]")


def _run(argv, capsys):
    try:
        code = main(["--lang", "zh_CN", *argv])
    except SystemExit as stopped:  # argparse's own exit
        code = stopped.code
    finally:
        i18n.set_language("en")
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_missing_model_is_said_in_chinese_with_the_command_untranslated(tmp_path, capsys):
    code, _, err = _run(
        ["synth", "你好", "-o", str(tmp_path / "x.wav"), "--model", str(tmp_path / "none")], capsys
    )
    assert code == 2 and err.startswith("错误：") and "没有模型文件夹" in err
    assert "chattts-studio models download" in err


def test_a_bad_number_is_said_in_chinese(tmp_path, capsys):
    code, _, err = _run(["synth", "你好", "-o", str(tmp_path / "x.wav"), "--speed", "abc"], capsys)
    assert code == 2 and "--speed" in err and HAN.search(err)


def test_the_model_table_is_chinese(tmp_path, capsys):
    code, out, _ = _run(["models", "status", "--model", str(tmp_path / "none")], capsys)
    assert code == 1 and "缺失" in out and "chattts-studio models download" in out
    assert "missing" not in out and "There is no model" not in out
