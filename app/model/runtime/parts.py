"""ModelParts: the model's runtime, every part built from the model's files by our own code.

What the decode loop, the prompts and the vocoder read is an attribute here, named for what it
is: no ChatTTS `Chat` stands behind it. ChatTTS itself is loaded only where this model's DVAE
file cannot build the audio encoder that turns a recording into a voice (`RecordingEncoder`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import wait
from dataclasses import dataclass
from typing import Any

import torch

from app.model.runtime.config import PartsConfig, llama_numbers, parts_config
from app.model.runtime.encoder import AudioEncoder, load_audio_encoder
from app.model.runtime.llama import LlamaShell, load_llama
from app.model.runtime.nets import Embed, MelDecoder, load_embed, load_mel_decoder, load_vocoder
from app.model.runtime.speaker import Speaker
from app.model.runtime.tokenizer import Tokenizer
from app.model.runtime.vocos_net import Vocos
from app.model.schemas import read_model_dims
from app.on_thread import on_a_thread
from app.text import ChatTTSTextFilter

log = logging.getLogger("chattts_studio.engine")


class RecordingEncoder:
    """A recording -> its codes in ChatTTS's text form (a cloned voice, the voice lock): our
    DVAE encoder (runtime/encoder.py), or, where this model's DVAE file does not hold it as the
    official one does, ChatTTS itself (`full_loader()`, loaded once, seconds)."""

    def __init__(self, config: PartsConfig, root, device: torch.device, full_loader):
        self._config = config
        self._root = root
        self._device = device
        self._full_loader = full_loader
        self._full: Any = None
        self._full_lock = threading.Lock()
        # None: not built yet; False: cannot be built here
        self._encoder: AudioEncoder | bool | None = None
        self._encoder_lock = threading.Lock()

    def audio_encoder(self) -> AudioEncoder | None:
        """Built on first use (a fraction of a second); None where this model's DVAE file does
        not hold it."""
        with self._encoder_lock:
            if self._encoder is None:
                try:
                    self._encoder = load_audio_encoder(
                        self._config.dvae,
                        self._root / self._config.paths["dvae_ckpt_path"],
                        self._device,
                    )
                except Exception as exc:
                    log.warning(
                        "the audio encoder could not be built here (%s: %s); ChatTTS will encode",
                        type(exc).__name__,
                        exc,
                    )
                    self._encoder = False
            return self._encoder if isinstance(self._encoder, AudioEncoder) else None

    def full(self):
        """ChatTTS's Chat on the same files (loaded on first use), for a recording when the
        audio encoder cannot be built here."""
        with self._full_lock:
            if self._full is None:
                log.info("loading ChatTTS itself (its audio encoder turns recordings into voices)")
                full = self._full_loader()
                # Only its DVAE encoder and speaker are used; the rest would be second copies.
                full.vocos = full.decoder = full.embed = full.gpt = None
                self._full = full
            return self._full

    @property
    def full_loaded(self) -> bool:
        return self._full is not None

    def encode(self, wav) -> str:
        """A recording (24 kHz float32 samples) -> its codes in ChatTTS's text form."""
        encoder = self.audio_encoder()
        if encoder is None:
            return self.full().sample_audio_speaker(wav)
        return Speaker.encode_prompt(encoder(torch.as_tensor(wav, dtype=torch.float32)))


@dataclass
class ModelParts:
    """Everything of the model that synthesis reads, on one device."""

    config: PartsConfig
    device: torch.device
    tokenizer: Tokenizer
    speaker: Speaker
    embed: Embed
    decoder: MelDecoder  # hidden states -> mel frames
    vocos: Vocos  # mel frames -> samples
    # The GPT's Llama (runtime/llama.py): its weights, or a LlamaShell where the decode step
    # brings its own (the compiled cache); None once the decode loop holds converted weights.
    llama: LlamaShell | None
    normalizer: ChatTTSTextFilter
    recordings: RecordingEncoder

    def sample_audio_speaker(self, wav) -> str:
        """A recording (24 kHz float32 samples) -> its codes in ChatTTS's text form."""
        return self.recordings.encode(wav)


def load_parts(
    store,
    device: str,
    studio_cfg,
    full_loader: Callable[[], Any],
    llama_weights: bool = True,
) -> ModelParts:
    """The model of `store` on `device`. `llama_weights=False`: the Llama without its weights
    (a LlamaShell), for a decode step that brings its own. `full_loader()` loads ChatTTS's Chat
    (without its GPT), only ever for `RecordingEncoder`. Raises ValueError for a GPT that our
    Llama does not build, and what the files' readers raise for damaged files."""
    root = store.root
    config = parts_config(
        read_model_dims(root), None if studio_cfg is None else studio_cfg["spk_stat"]
    )
    gpt_folder = root / config.paths["gpt_ckpt_path"]
    numbers = llama_numbers(gpt_folder)
    if numbers is None:
        raise ValueError(f"{gpt_folder / 'config.json'} describes a Llama other than ChatTTS's")
    dev = torch.device(device)
    reading = None
    if llama_weights:  # the GPT's file is read on a thread of its own while the rest is built
        reading = on_a_thread("gpt-read", load_llama, numbers, gpt_folder, dev)
    try:
        tokenizer = Tokenizer(root / config.paths["tokenizer_path"])
        embed = load_embed(
            config.gpt, config.num_text_tokens, root / config.paths["embed_path"], dev
        )
        decoder = load_mel_decoder(config.decoder, root / config.paths["decoder_ckpt_path"], dev)
        vocos = load_vocoder(config.vocos, root / config.paths["vocos_ckpt_path"], dev)
    except BaseException:
        if reading is not None:  # no second read of the GPT beside this one at a retry
            wait([reading])
        raise
    return ModelParts(
        config=config,
        device=dev,
        tokenizer=tokenizer,
        speaker=Speaker(),
        embed=embed,
        decoder=decoder,
        vocos=vocos,
        llama=reading.result() if reading is not None else LlamaShell(numbers).to(dev),
        normalizer=ChatTTSTextFilter(),
        recordings=RecordingEncoder(config, root, dev, full_loader),
    )


def read_llama(parts: ModelParts, store) -> None:
    """Give `parts` its Llama's weights (a cached step turned out damaged after all)."""
    assert parts.llama is not None
    folder = store.root / parts.config.paths["gpt_ckpt_path"]
    parts.llama = load_llama(parts.llama.config, folder, parts.device)
