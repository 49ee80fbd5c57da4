"""`chattts-studio models ...` through the command line."""

import json

from app.cli import main
from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME
from tests.support.fake_hub import FakeHub


def models(args, capsys):
    code = main(["models", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_status_and_verify(tiny_model, capsys):
    code, out, _ = models(["status", "--model", str(tiny_model)], capsys)
    assert code == 0 and "complete and verified" in out
    code, out, _ = models(["verify", "--model", str(tiny_model), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["ok"] and len(data["files"]) == len(MODEL_FILES)


def test_verify_reports_a_damaged_file_with_exit_1(model_copy, capsys):
    (model_copy / "asset/gpt/config.json").write_text("{}")
    code, out, _ = models(["verify", "--model", str(model_copy)], capsys)
    assert code == 1
    assert "[✗] asset/gpt/config.json" in out


def test_status_without_a_model_is_still_the_status(tmp_path, capsys):
    """A fresh machine: the same table as after a failed download (exit 1), with how to get it."""
    code, out, err = models(["status", "--model", str(tmp_path / "none")], capsys)
    assert code == 1 and err == ""
    assert all(f"[ ] {rel}" in out for rel in MODEL_FILES)
    assert "no model here yet" in out and "chattts-studio models download" in out
    code, out, _ = models(["status", "--model", str(tmp_path / "none"), "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and sorted(data["missing"]) == sorted(MODEL_FILES)
    assert not (tmp_path / "none").exists()  # looking creates nothing


def test_download_from_a_custom_source(tiny_model, tmp_path, capsys, monkeypatch):
    import app.model.download as md
    from app.model.store import ModelStore

    # The stand-in hub serves the tiny model, so "official" means its hashes in this test.
    hashes = json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["sha256"]
    monkeypatch.setattr(md, "official_sha256", lambda: hashes)
    monkeypatch.setattr(ModelStore, "expected_sha256", lambda self: hashes)
    with FakeHub(tiny_model) as hub:
        code, out, _ = models(
            [
                "download",
                "--model",
                str(tmp_path / "m"),
                "--source",
                "custom",
                "--url",
                hub.endpoint,
                "--json",
            ],
            capsys,
        )
    assert code == 0
    data = json.loads(out)
    assert data["missing"] == [] and data["bad"] == []
    assert all(
        (tmp_path / "m" / rel).read_bytes() == (tiny_model / rel).read_bytes()
        for rel in MODEL_FILES
    )


def test_download_from_an_unreachable_host_is_a_sentence(tmp_path, capsys, monkeypatch):
    import app.model.download as md

    monkeypatch.setattr(md, "BACKOFF_S", 0.0)  # retries with back-off, minus the waiting
    code, _, err = models(
        [
            "download",
            "--model",
            str(tmp_path / "m"),
            "--source",
            "custom",
            "--url",
            "http://127.0.0.1:9",
        ],
        capsys,
    )
    assert code == 2
    assert "127.0.0.1:9" in err and "Traceback" not in err


def test_import_and_remove(tiny_model, tmp_path, capsys):
    code, out, _ = models(["import", str(tiny_model), "--model", str(tmp_path / "m")], capsys)
    assert code == 0 and "complete and verified" in out
    code, _, err = models(["remove", "--model", str(tmp_path / "m")], capsys)
    assert code == 1 and "--yes" in err
    assert (tmp_path / "m" / "asset/Vocos.safetensors").exists()
    code, out, _ = models(["remove", "--model", str(tmp_path / "m"), "--yes"], capsys)
    assert code == 0
    assert not (tmp_path / "m" / "asset/Vocos.safetensors").exists()
