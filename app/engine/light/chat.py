"""LightChat: what our decoders ask of ChatTTS's `Chat`, built without importing ChatTTS.

Used when the decode step comes from the compiled cache (a second start): then the Llama's
weights are in the step and everything else is here, the audio encoder that turns a recording
into a voice (a cloned voice, the voice lock) included. Real ChatTTS (without the Llama's
weights) is loaded only where that encoder cannot be built from the model's files.
"""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace

from app.engine.light.config import LightConfig, light_config, llama_numbers
from app.engine.light.encoder import AudioEncoder, load_audio_encoder
from app.engine.light.nets import LlamaShell, load_embed, load_mel_decoder, load_vocoder
from app.engine.light.speaker import LightSpeaker
from app.engine.light.tokenizer import LightTokenizer
from app.engine.text.spoken import ChatTTSTextFilter

log = logging.getLogger("chattts_studio.engine")


class LightChat:
    light = True

    def __init__(self, store, device: str, config: LightConfig, llama, full_loader):
        import torch

        root = store.root
        self.config = config
        self.device = self.device_gpt = torch.device(device)
        self.tokenizer = LightTokenizer(root / config.paths["tokenizer_path"])
        self.speaker = LightSpeaker()
        self.embed = load_embed(config.gpt, root / config.paths["embed_path"], self.device)
        self.decoder = load_mel_decoder(
            config.decoder, root / config.paths["decoder_ckpt_path"], self.device
        )
        self.vocos = load_vocoder(config.vocos, root / config.paths["vocos_ckpt_path"], self.device)
        self.gpt = SimpleNamespace(gpt=LlamaShell(llama).to(self.device))
        self.normalizer = ChatTTSTextFilter()
        self._full_loader = full_loader
        self._full = None
        self._full_lock = threading.Lock()
        self._root = root
        # None: not built yet; False: cannot be built here
        self._encoder: AudioEncoder | bool | None = None
        self._encoder_lock = threading.Lock()

    def audio_encoder(self):
        """ChatTTS's DVAE encoder built here (light/encoder.py), loaded on first use (a fraction of
        a second); None where this model's DVAE file does not hold it as the official one does."""
        with self._encoder_lock:
            if self._encoder is None:
                try:
                    self._encoder = load_audio_encoder(
                        self.config.dvae,
                        self._root / self.config.paths["dvae_ckpt_path"],
                        self.device,
                    )
                except Exception as exc:
                    log.warning(
                        "the audio encoder could not be built here (%s: %s); ChatTTS will encode",
                        type(exc).__name__,
                        exc,
                    )
                    self._encoder = False
            return self._encoder or None

    def full(self):
        """Real ChatTTS on the same files (loaded on first use, seconds), for what only it does
        when the audio encoder cannot be built here."""
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

    def sample_audio_speaker(self, wav) -> str:
        """A recording (24 kHz float32 samples) -> its codes in ChatTTS's text form."""
        encoder = self.audio_encoder()
        if encoder is None:
            return self.full().sample_audio_speaker(wav)
        import torch

        return self.speaker.encode_prompt(encoder(torch.as_tensor(wav, dtype=torch.float32)))


def light_chat(store, device: str, studio_cfg, full_loader) -> LightChat | None:
    """A LightChat on `device`, or None where this model is not one it can stand in for (its
    Llama config is not plain Llama's); `full_loader()` loads real ChatTTS when asked."""
    if studio_cfg is None:
        config = light_config()
    else:
        config = light_config(studio_cfg["dimensions"], studio_cfg["spk_stat"])
    llama = llama_numbers(store.root / config.paths["gpt_ckpt_path"])
    if llama is None:
        return None
    return LightChat(store, device, config, llama, full_loader)
