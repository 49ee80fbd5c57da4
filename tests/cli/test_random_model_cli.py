"""`chattts-studio test-model DIR`: the self-test's random-weight model, built from the command line."""

import json

from app.cli import main
from app.model.files import STUDIO_CONFIG_NAME


def test_builds_a_model_that_verifies_and_refuses_a_folder_in_use(tmp_path, capsys):
    folder = tmp_path / "m"
    assert main(["test-model", str(folder), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Built a tiny random-weight model in {folder} (")
    config = json.loads((folder / STUDIO_CONFIG_NAME).read_text())
    assert (config["kind"], config["size"], config["seed"]) == ("random-weights", "tiny", 3)
    assert main(["models", "verify", "--model", str(folder)]) == 0
    capsys.readouterr()

    before = sorted(p.name for p in folder.rglob("*"))
    assert main(["test-model", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {folder} is not empty; choose a new folder for the model.\n"
    assert sorted(p.name for p in folder.rglob("*")) == before


def test_a_bad_seed_is_one_sentence(tmp_path, capsys):
    try:
        code = main(["test-model", str(tmp_path / "m"), "--seed", "-4"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert capsys.readouterr().err.startswith("error: --seed must be between 0")
    assert not (tmp_path / "m").exists()
