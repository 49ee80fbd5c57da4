"""One model folder setting, read alike by the window, every command and the doctor
(app/user_settings.py): --model > CHATTTS_STUDIO_MODEL_DIR > the saved choice > the default."""

import json
import os
import subprocess
import sys

import pytest

from app import paths, user_settings
from app.cli import main
from app.doctor.probes.live import LiveProbe
from app.model.store import ModelStore
from app.user_settings import ModelDirSource, model_dir_choice, save_model_dir, settings_file


def test_the_order_is_option_then_environment_then_saved_then_default(tmp_path, monkeypatch):
    assert model_dir_choice() == user_settings.ModelDirChoice(
        paths.default_model_dir(), ModelDirSource.DEFAULT
    )
    save_model_dir(tmp_path / "saved")
    assert model_dir_choice() == user_settings.ModelDirChoice(
        tmp_path / "saved", ModelDirSource.SAVED
    )
    monkeypatch.setenv(paths.MODEL_DIR_ENV, str(tmp_path / "env"))
    assert model_dir_choice().source is ModelDirSource.ENVIRONMENT
    assert model_dir_choice(tmp_path / "given") == user_settings.ModelDirChoice(
        tmp_path / "given", ModelDirSource.OPTION
    )
    monkeypatch.delenv(paths.MODEL_DIR_ENV)
    # Every reader of the model folder goes through the same choice.
    assert ModelStore().root == tmp_path / "saved"
    assert LiveProbe(offline=True).model_dir == tmp_path / "saved"


def test_saving_is_atomic_keeps_unknown_keys_and_saves_an_absolute_folder(tmp_path, monkeypatch):
    settings_file().parent.mkdir(parents=True)
    settings_file().write_text(json.dumps({"from_a_newer_version": [1, 2]}))
    monkeypatch.chdir(tmp_path)
    save_model_dir("relative/model")
    saved = json.loads(settings_file().read_text())
    assert saved == {
        "from_a_newer_version": [1, 2],
        "model_dir": str(tmp_path / "relative" / "model"),
    }
    assert [p.name for p in settings_file().parent.iterdir()] == [settings_file().name]
    save_model_dir(None)
    assert json.loads(settings_file().read_text()) == {"from_a_newer_version": [1, 2]}


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\xff not json",
        b"[1, 2, 3]",
        json.dumps({"model_dir": 42}).encode(),
        json.dumps({"model_dir": ""}).encode(),
        json.dumps({"model_dir": "a\x00b"}).encode(),
        json.dumps({"model_dir": "x" * 5000}).encode(),
        json.dumps({"model_dir": "relative/models"}).encode(),
        json.dumps({"model_dir": ["/a", "/b"]}).encode(),
        '{"model_dir": "/模型"}'.encode("gb18030"),
        b'{"model_dir": "/m", "pad": "' + b"x" * (user_settings.MAX_BYTES + 1) + b'"}',
        b"[" * 60_000,
    ],
)
def test_a_hostile_settings_file_reads_as_the_default(content):
    settings_file().parent.mkdir(parents=True)
    settings_file().write_bytes(content)
    assert model_dir_choice() == user_settings.ModelDirChoice(
        paths.default_model_dir(), ModelDirSource.DEFAULT
    )


def test_a_bad_field_is_ignored_alone():
    settings_file().parent.mkdir(parents=True)
    settings_file().write_text(json.dumps({"model_dir": "/chosen", "unknown": {"x": 1}}))
    assert model_dir_choice().path.as_posix() == "/chosen"


def test_models_status_shows_the_folder_and_which_setting_chose_it(tiny_model, capsys, monkeypatch):
    save_model_dir(tiny_model)
    assert main(["models", "status"]) == 0
    out = capsys.readouterr().out
    assert f"Model folder: {tiny_model}" in out
    assert f"chosen in the window and is saved in {settings_file()}" in out
    assert main(["models", "status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["model"], data["model_source"], data["settings_file"]) == (
        str(tiny_model),
        "saved",
        str(settings_file()),
    )
    monkeypatch.setenv(paths.MODEL_DIR_ENV, str(tiny_model.parent / "elsewhere"))
    assert main(["models", "status"]) == 1
    assert f"the {paths.MODEL_DIR_ENV} environment variable" in capsys.readouterr().out
    assert main(["models", "status", "--model", str(tiny_model)]) == 0
    assert "given with --model" in capsys.readouterr().out


def test_the_default_says_how_to_choose_another(capsys):
    main(["models", "status"])
    assert "This is the default folder" in capsys.readouterr().out


def test_the_folder_chosen_in_the_window_is_the_command_line_s(
    tiny_model, tmp_path, isolated_user_dirs
):
    """The wizard's choice used to live in the window's INI only: `doctor` and `models status`,
    run as README shows them, said every model file was missing."""
    from app.ui.settings import Settings

    Settings().model_dir = str(tiny_model)
    env = {k: v for k, v in os.environ.items() if k != paths.MODEL_DIR_ENV}
    env.update(CHATTTS_STUDIO_HOME=str(isolated_user_dirs), PYTHONIOENCODING="utf-8")
    status = subprocess.run(
        [sys.executable, "-m", "app", "models", "status"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert status.returncode == 0, status.stdout + status.stderr
    assert str(tiny_model) in status.stdout
    doctor = subprocess.run(
        [sys.executable, "-m", "app", "doctor", "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    report = json.loads(doctor.stdout)
    model_check = next(c for c in report["checks"] if c["id"] == "model_files")
    assert model_check["status"] == "ok", model_check


def test_the_window_s_old_saved_folder_moves_to_the_shared_setting(tmp_path):
    from PySide6.QtCore import QSettings

    from app.ui.settings import Settings

    ini = paths.data_dir() / "settings.ini"
    old = QSettings(str(ini), QSettings.Format.IniFormat)
    old.setValue("model/dir", str(tmp_path / "chosen before"))
    old.sync()
    assert Settings().model_dir == str(tmp_path / "chosen before")
    assert model_dir_choice() == user_settings.ModelDirChoice(
        tmp_path / "chosen before", ModelDirSource.SAVED
    )
    assert QSettings(str(ini), QSettings.Format.IniFormat).value("model/dir") is None


def test_a_choice_in_the_window_wins_over_this_session_s_option_and_is_saved(tmp_path):
    from app.ui.settings import Settings

    s = Settings()
    s.overrides["model/dir"] = str(tmp_path / "given")
    assert s.model_dir == str(tmp_path / "given")
    s.model_dir = str(tmp_path / "picked")
    assert s.model_dir == str(tmp_path / "picked")
    assert Settings().model_dir == str(tmp_path / "picked")


def test_readme_says_where_the_saved_folder_lives_and_how_to_see_it(monkeypatch):
    """README's model section names the settings file the window saves the folder in."""
    from pathlib import Path

    from platformdirs.unix import Unix

    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The model", 1)[1].split("\n## ", 1)[0]
    linux = Path(Unix(paths.APP_NAME, paths.APP_AUTHOR, roaming=False).user_config_dir)
    linux_folder = "~/" + linux.relative_to(Path.home()).as_posix()
    assert f"`{linux_folder}`" in section and f"`{settings_file().name}`" in section
    assert "`model_dir`" in section and "`chattts-studio models status`" in section
