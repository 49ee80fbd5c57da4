"""Sentences that tell the user where the fix is: the download command, the refine switch."""

from app.cli import main
from app.core.request import SamplingParams, SynthesisRequest


def test_a_missing_model_points_to_the_download_command(tmp_path, capsys):
    code = main(
        ["synth", "你好。", "-o", str(tmp_path / "x.wav"), "--model", str(tmp_path / "none")]
    )
    err = capsys.readouterr().err
    assert code == 2 and "chattts-studio models download" in err
    assert not (tmp_path / "x.wav").exists()


def test_an_incomplete_model_points_to_the_download_command(model_copy, tmp_path, capsys):
    (model_copy / "asset" / "DVAE.safetensors").unlink()
    code = main(["synth", "你好。", "-o", str(tmp_path / "x.wav"), "--model", str(model_copy)])
    err = capsys.readouterr().err
    assert code == 2 and "asset/DVAE.safetensors" in err and "chattts-studio models download" in err


def test_the_refinement_warning_names_the_switch_in_the_window_and_on_the_command_line(synthesizer):
    # The tiny model's refinement always runs to its length limit.
    result = synthesizer.run(
        SynthesisRequest("你好。", voice_lock=False, sampling=SamplingParams(max_new_tokens=8))
    )
    refine = [w for w in result.warnings if "refinement reached its length limit" in w]
    assert refine and "--no-refine" in refine[0] and "Refine text first" in refine[0]
