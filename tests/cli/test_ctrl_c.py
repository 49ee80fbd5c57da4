"""Ctrl+C on `chattts-studio synth` stops the decode in flight, through the synthesizer's cancel."""

import signal

from app.cli import main
from tests.support.decode_hooks import step_hooked

EOS_AUDIO = 625


def test_ctrl_c_stops_the_decode_within_a_step_and_writes_nothing(
    tiny_model, tmp_path, capsys, monkeypatch
):
    from app.synthesis.synthesizer import Synthesizer

    steps = {"all": 0, "after": None}

    def hook(_step, logits, _rows):
        logits[:, EOS_AUDIO] = float("-inf")  # the sentence would run to the token limit
        steps["all"] += 1
        if steps["after"] is not None:
            steps["after"] += 1
        elif steps["all"] == 10:
            steps["after"] = 0
            signal.raise_signal(signal.SIGINT)  # what the terminal sends on Ctrl+C

    real_load = Synthesizer.load

    def load(self, *args, **kwargs):
        real_load(self, *args, **kwargs)
        self.loop.filter_step = step_hooked(self.loop, hook)

    monkeypatch.setattr(Synthesizer, "load", load)
    before = signal.getsignal(signal.SIGINT)
    out = tmp_path / "x.wav"
    code = main(
        [
            "synth",
            "这是一句很长的话，用来测试停止。",
            "--model",
            str(tiny_model),
            "-o",
            str(out),
            "--no-refine",
            "--max-tokens",
            "200",
        ]
    )
    stderr = capsys.readouterr().err
    assert code == 130, stderr
    assert "no file was written" in stderr
    assert steps["after"] is not None and steps["after"] <= 1  # the decode stopped within a step
    assert not out.exists() and list(tmp_path.glob("*.wav")) == []
    assert signal.getsignal(signal.SIGINT) is before  # Ctrl+C works as before afterwards
