"""The committed real-speech takes (tests/data/takes) and the defects injected into them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

FOLDER = Path(__file__).resolve().parents[1] / "data" / "takes"
RATE = 16000


def fixtures() -> dict[str, tuple[str, str, np.ndarray]]:
    """file name -> (language, text, audio)."""
    found = {}
    for line in (FOLDER / "takes.tsv").read_text(encoding="utf-8").splitlines():
        name, language, _voice, text = line.split("\t")
        audio, rate = sf.read(FOLDER / name, dtype="float32")
        assert rate == RATE
        found[name] = (language, text, audio)
    return found
