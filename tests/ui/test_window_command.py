"""`chattts-studio [--model DIR] [--device ...] [--precision ...] [FILE.txt]` opens the window
with those choices for this session only."""

import pytest
from PySide6.QtWidgets import QApplication

from app import cli
from app.cli import window as cli_window
from app.ui.settings import WINDOW_PRECISIONS, Settings


def test_the_window_offers_the_precisions_the_command_line_accepts():
    assert cli_window.WINDOW_PRECISIONS == WINDOW_PRECISIONS


@pytest.mark.parametrize(
    "argv, window",
    [
        ([], True),
        (["--model", "D"], True),
        (["story.txt"], True),
        (["-v", "--device", "cpu", "a.txt"], True),
        (["synth", "hi", "-o", "x.wav"], False),
        (["doctor"], False),
        (["--help"], False),
        (["models", "status"], False),
    ],
)
def test_words_without_a_command_open_the_window(argv, window):
    assert (
        cli_window.is_window_call(argv, {"synth", "normalize", "models", "self-test", "doctor"})
        is window
    )


def test_main_passes_the_options_and_the_file_to_the_window(monkeypatch, tmp_path):
    seen = {}
    import app.ui.app as ui_app

    monkeypatch.setattr(
        ui_app, "run_window", lambda log, overrides, file: seen.update(o=overrides, f=file) or 0
    )
    assert (
        cli.main(
            ["--model", str(tmp_path / "m"), "--device", "cpu", "--precision", "int8", "story.txt"]
        )
        == 0
    )
    assert seen == {
        "o": {"model/dir": str(tmp_path / "m"), "model/device": "cpu", "model/precision": "int8"},
        "f": "story.txt",
    }
    cli.main([])
    assert seen == {"o": {}, "f": None}


def test_a_wrong_window_option_is_one_sentence_and_exit_code_2(capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--precision", "fp8"])
    assert stopped.value.code == 2
    assert "--precision" in capsys.readouterr().err


def test_command_line_choices_hold_for_the_session_and_are_never_saved(tmp_path):
    settings = Settings(str(tmp_path / "settings.ini"))
    settings.model_dir = "/saved/model"
    settings.overrides.update({"model/dir": "/given/model", "model/precision": "int8"})
    assert settings.model_dir == "/given/model" and settings.precision == "int8"
    settings.sync()
    again = Settings(str(tmp_path / "settings.ini"))
    assert again.model_dir == "/saved/model" and again.precision == "auto"
    settings.precision = "bf16"  # chosen in the window: it wins, and is saved
    assert settings.precision == "bf16" and "model/precision" not in settings.overrides


def test_run_window_opens_the_file_and_uses_the_given_model(monkeypatch, tmp_path, tiny_model):
    import app.ui.app as ui_app
    import app.ui.main_window as main_window

    text = tmp_path / "story.txt"
    text.write_text("从前有座山。", encoding="utf-8")
    built = []
    monkeypatch.setattr(main_window, "show_when_ready", built.append)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert ui_app.run_window(None, {"model/dir": str(tiny_model)}, str(text)) == 0
    window = built[0]
    try:
        assert window.text_panel.editor.toPlainText() == "从前有座山。"
        assert window.model_dir() == tiny_model
    finally:
        window.close()
