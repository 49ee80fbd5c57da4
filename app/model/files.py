"""The official model layout: which files a model folder holds and how each is checked."""

from __future__ import annotations

# Relative paths in the order ChatTTS's own `check_all_assets` walks them.
MODEL_FILES: tuple[str, ...] = (
    "asset/Decoder.safetensors",
    "asset/DVAE.safetensors",
    "asset/Embed.safetensors",
    "asset/Vocos.safetensors",
    "asset/gpt/config.json",
    "asset/gpt/model.safetensors",
    "asset/tokenizer/special_tokens_map.json",
    "asset/tokenizer/tokenizer_config.json",
    "asset/tokenizer/tokenizer.json",
)

# Present only in a random-weight model built by app.selftest.random_model; the official layout has none.
STUDIO_CONFIG_NAME = "chattts-studio-model.json"


OFFICIAL_REPO = "2Noise/ChatTTS"
# The folder huggingface_hub's cache keeps the official repository in.
HF_CACHE_NAME = "models--" + OFFICIAL_REPO.replace("/", "--")
# What the official files take on disk, rounded up: the doctor's free-space estimate.
OFFICIAL_MODEL_BYTES = 1_200_000_000
# The size the window and README give (about 1.1 GB: the GPT in fp32 and four smaller
# files); test_the_model_size_is_said_alike_in_window_and_readme holds them together.
OFFICIAL_DOWNLOAD_GB = 1.1

# Inside a model folder: unfinished downloads (`<PARTIAL_DIR>/<relpath><PART_SUFFIX>`, resumed
# next time) and files that failed their checksum (kept for a look, never loaded).
PARTIAL_DIR = ".partial"
PART_SUFFIX = ".part"
QUARANTINE_DIR = ".quarantine"


def sha256_map_key(relpath: str) -> str:
    """The key ChatTTS's `res/sha256_map.json` uses for a file: `sha256_asset_gpt_config_json`."""
    return "sha256_" + relpath.replace("/", "_").replace(".", "_")
