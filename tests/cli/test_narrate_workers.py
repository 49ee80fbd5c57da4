"""`narrate --workers N`: the book is rendered by N local worker processes (each take records
which) and gives the same audio as one worker; a bad --workers value is one sentence."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from app.cli import main
from tests.cli.test_narrate import BOOK, narrate

# Each worker loads its own model (seconds on a quiet machine, minutes on a busy one).
pytestmark = pytest.mark.timeout(1800)


def _run(tiny_model, book, out, workers, capsys):
    code, _out, err = narrate(
        [
            str(book),
            "-o",
            str(out),
            "--model",
            str(tiny_model),
            "--device",
            "cpu",
            "--precision",
            "fp32",
            "--no-refine",
            "--seed",
            "3",
            "--workers",
            str(workers),
        ],
        capsys,
    )
    assert code == 0, err
    return err


def test_two_local_workers_narrate_the_book_like_one(tiny_model, tmp_path, capsys):
    from app.narration.project import Project

    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    err = _run(tiny_model, book, tmp_path / "two.wav", 2, capsys)
    assert "Traceback" not in err
    project = Project.open(tmp_path / "two.ctsproj")
    makers = {
        t.worker.rsplit(" on ", 1)[-1] for s in project.sentences() for t in project.takes(s.id)
    }
    assert makers <= {"cpu0", "cpu1"} and makers
    _run(tiny_model, book, tmp_path / "one.wav", 1, capsys)  # this process alone
    two, rate = sf.read(str(tmp_path / "two.wav"), dtype="float32")
    one, _rate = sf.read(str(tmp_path / "one.wav"), dtype="float32")
    # Two workers of one thread each vs this process's threads: the same tokens, floats rounded
    # in another order at most (tests/narration/test_farm.py compares farms bit for bit).
    assert two.shape == one.shape and rate == 24_000
    assert np.max(np.abs(two - one)) < 1e-3


@pytest.mark.parametrize("value", ["0", "65", "many"])
def test_a_bad_workers_value_is_one_sentence(value, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(
            ["narrate", str(tmp_path / "b.txt"), "-o", str(tmp_path / "b.wav"), "--workers", value]
        )
    assert stop.value.code == 2
    assert "--workers must be auto or a whole number from 1 to 64" in capsys.readouterr().err
