"""Regenerate the take checker's speaker-encoder weights and the embeddings its test compares.

    PYTHONPATH=. python scripts/ge2e_weights.py              the weights and their licence
    PYTHONPATH=. python scripts/ge2e_weights.py --embeddings tests' reference embeddings too

Needs resemblyzer (0.1.4) installed, which the program itself never needs: its `pretrained.pt`
holds the trained GE2E encoder with its optimizer state. Only the encoder's tensors (the 3x256
LSTM on 40 mels and the 256x256 linear layer, fp32, unchanged) are written to
app/audio/takes/ge2e_encoder.safetensors, and resemblyzer's licence (Apache-2.0) beside them.
`--embeddings` also records resemblyzer's own embeddings of two fixture takes into
tests/data/takes/resemblyzer_embeddings.npz (tests/engine/test_take_check_models.py holds ours
against them, so the test needs no resemblyzer).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import shutil
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file: app/ is beside this folder
    sys.path.insert(0, str(ROOT))

WEIGHTS = ROOT / "app" / "audio" / "takes" / "ge2e_encoder.safetensors"
LICENSE = WEIGHTS.with_name("LICENSE-resemblyzer")
EMBEDDINGS = ROOT / "tests" / "data" / "takes" / "resemblyzer_embeddings.npz"
# The takes the test embeds: one voice of each language's pair.
EMBEDDED_TAKES = ("en_en-us_0.flac", "zh_other_speaker.flac")
# The encoder's tensors; pretrained.pt also holds the training-only similarity scale and bias.
ENCODER_PREFIXES = ("lstm.", "linear.")


def resemblyzer_folder() -> Path:
    spec = importlib.util.find_spec("resemblyzer")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("resemblyzer is not installed: pip install resemblyzer==0.1.4")
    return Path(next(iter(spec.submodule_search_locations)))


def write_weights() -> None:
    import torch
    from safetensors.torch import save_file

    state = torch.load(
        str(resemblyzer_folder() / "pretrained.pt"), map_location="cpu", weights_only=True
    )
    tensors = {
        name: tensor.detach().to(torch.float32).contiguous()
        for name, tensor in state["model_state"].items()
        if name.startswith(ENCODER_PREFIXES)
    }
    version = importlib.metadata.version("resemblyzer")
    save_file(
        tensors,
        str(WEIGHTS),
        metadata={"source": f"resemblyzer {version} pretrained.pt", "license": "Apache-2.0"},
    )
    dist = importlib.metadata.distribution("resemblyzer")
    license_file = next(f for f in dist.files or [] if f.name == "LICENSE")
    shutil.copyfile(str(license_file.locate()), LICENSE)
    print(f"{WEIGHTS.relative_to(ROOT)}: {len(tensors)} tensors, {WEIGHTS.stat().st_size} bytes")


def write_embeddings() -> None:
    import numpy as np

    from app.audio.takes import speaker
    from tests.engine.take_fixtures import fixtures

    # resemblyzer imports webrtcvad for a step not used here (and webrtcvad needs
    # pkg_resources): a stand-in lets its encoder load.
    sys.modules.setdefault("webrtcvad", types.ModuleType("webrtcvad"))
    from resemblyzer import VoiceEncoder

    encoder = VoiceEncoder("cpu", verbose=False)
    takes = fixtures()
    embedded = {
        name: encoder.embed_utterance(speaker.raise_quiet(takes[name][2])).astype(np.float32)
        for name in EMBEDDED_TAKES
    }
    np.savez_compressed(EMBEDDINGS, **embedded)
    print(f"{EMBEDDINGS.relative_to(ROOT)}: {', '.join(embedded)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--embeddings", action="store_true", help="also record resemblyzer's test embeddings"
    )
    args = parser.parse_args(argv)
    write_weights()
    if args.embeddings:
        write_embeddings()
    return 0


if __name__ == "__main__":
    sys.exit(main())
