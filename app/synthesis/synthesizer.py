"""The Synthesizer: a model folder loaded on a device, with its voices, text preparation and
decoder. It is thin on purpose: decoding is a strategy (decoders.py) and the order of work is
the scheduler's (scheduler.py).

`synthesize()` runs on the caller's thread for one request (the command line, tests); the
window and other long-lived clients share one model through `Engine` (engine.py). `cancel()`
may be called from any other thread: the decode checks its flag every step.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from app.audio import SAMPLE_RATE
from app.core import (
    AudioChunk,
    DeviceChoice,
    InputTextError,
    ModelKind,
    SamplingParams,
    SynthesisCancelled,
    SynthesisRequest,
    SynthesisResult,
    choose_device,
)
from app.decode import DEFAULT_OPTIONS as DEFAULT
from app.decode import DecodeMode, DecodeOptions, Precision, choose_batch, max_batch
from app.i18n import _
from app.library import PronunciationDictionary
from app.model import ModelStore
from app.synthesis import messages
from app.synthesis.chattts_model import StopFlag, load_chat
from app.synthesis.decoders import PROMPT_ALLOWANCE, Decoder, LoopDecoder, UpstreamDecoder
from app.synthesis.scheduler import Scheduler
from app.synthesis.tickets import Priority
from app.text import PreparedText, spoken_segments
from app.voices import check_speaker, speaker_from_seed

if TYPE_CHECKING:
    from app.decode import CompiledCache, RowCap
    from app.model import ModelParts

log = logging.getLogger("chattts_studio.engine")


class Synthesizer:
    def __init__(
        self,
        model_dir: os.PathLike | str | None = None,
        device: str = "auto",
        dictionary_factory=PronunciationDictionary,
        decode: str = DecodeMode.JIT,
        precision: str = Precision.AUTO,
        stream: bool = True,
        lookahead: int | None = None,
        step_cache: bool = True,
        decode_options: DecodeOptions = DEFAULT,
    ):
        """`decode_options`: what benchmarks and tests vary in our loop (decode/options.py)."""
        self.store = ModelStore(model_dir)
        self.decode = DecodeMode.parse(decode)
        self.precision_request = Precision.parse(precision)
        self.decode_options = decode_options
        self.stream = stream
        self.lookahead = lookahead
        # Keep the converted, compiled decode step between starts (decode/compiled_cache.py).
        self.step_cache = step_cache
        self.compiled_cache: CompiledCache | None = None
        self.row_cap: RowCap | None = None  # the batch cap measured for the compiled step
        self._warm_shapes: list[tuple[int, int]] | None = None  # warm-up still to do
        self.warmed = threading.Event()  # set once the warm-up has run (or failed)
        self.dictionary_factory = dictionary_factory
        self.device_request = device
        self.device: DeviceChoice | None = None
        self.load_seconds: float | None = None
        # What the loaded model is (its description says); the edges read it to call the audio
        # noise when the weights are random.
        self.model_kind = ModelKind.OFFICIAL
        # The model: our runtime (model/runtime), or with --decode upstream ChatTTS's Chat
        # (untyped), owned by its UpstreamDecoder; the other is None.
        self.parts: ModelParts | None = None
        self.chat: Any = None
        # (spk_stat, hidden_size, text normalizer) of whichever model is loaded
        self._voices: tuple[str, int, Any] | None = None
        self.decoder: Decoder | None = None
        self._stop_flag = StopFlag()
        self._runs: set[Scheduler] = set()
        self._runs_lock = threading.Lock()
        # Sentences about how the model runs that the user should read (a precision fallback).
        self.notes: list[str] = []

    # -- loading ------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self.decoder is not None

    def load(self, verify: bool = True, warm_up: bool = True) -> None:
        """`warm_up=False`: ready sooner; the caller runs `warm_up()` once Play is possible
        (the first requests until then pay TorchScript's first, slower runs themselves)."""
        started = time.perf_counter()
        self.notes.clear()
        if verify:
            self.store.require_verified()
        else:
            self.store.require_present()
        studio_cfg = self.store.studio_config()
        self.device = choose_device(self.device_request)
        if not self.decode.ours:
            chat = load_chat(self.store, self.device.device, studio_cfg, self._stop_flag)
            self.decoder = UpstreamDecoder(chat, self._stop_flag)
            self.chat, self.parts = chat, None
            self._voices = (chat.config.spk_stat, chat.config.gpt.hidden_size, chat.normalizer)
        else:
            parts, step = self._load_parts(studio_cfg)
            self.decoder = self._loop_decoder(parts, step)
            self.chat, self.parts = None, parts
            self._voices = (parts.config.spk_stat, parts.config.gpt.hidden_size, parts.normalizer)
        if warm_up:
            self.warm_up()
        self.model_kind = ModelKind.of(studio_cfg)
        self.load_seconds = time.perf_counter() - started
        log.info(
            "model %s loaded on %s in %.1f s",
            self.store.root,
            self.device.device,
            self.load_seconds,
        )

    def _load_parts(self, studio_cfg) -> tuple[ModelParts, Any]:
        """The model's runtime (model/runtime), without ChatTTS, and the compiled cache's step
        (None: none). A cached int8/bf16 step brings its own weights: then the GPT's are not
        read at all, and the step is checked and packed on another thread meanwhile; an entry
        that does not check out (it is removed) means reading them after all."""
        from app.model import load_failures, load_parts, read_llama

        assert self.device is not None  # load() chose it first
        device = self.device.device

        def full():
            return load_chat(
                self.store, device, studio_cfg, StopFlag(), gpt_weights=False, normalizer=False
            )

        pending = self._cached_step()
        with load_failures(self.store.root, device):
            parts = load_parts(self.store, device, studio_cfg, full, llama_weights=pending is None)
            step = pending.result() if pending is not None else None
            if pending is not None and step is None:
                read_llama(parts, self.store)
        return parts, step

    def finish_loading(self) -> None:
        """Load what a start left out (the audio encoder that the voice lock and voice cloning
        use; ChatTTS itself only where that cannot be built without it) and the text grammars,
        so that no request waits for them later. For long-lived clients, on a thread of their
        own once the model is ready, so that requests are served meanwhile; a thread that then
        ends, so that its OpenMP pool does not outlive it beside the engine's (engine.py)."""
        if self.parts is not None and self.parts.recordings.audio_encoder() is None:
            self.parts.recordings.full()
        from app.text import load_grammars as load

        load()  # the grammars (wetext's FSTs) for the first number of the first request

    def _cached_step(self):
        """The compiled-step cache's entry for this load, being read on another thread (a
        Future of the module, or of None when it turns out damaged); None: nothing cached."""
        if not self.step_cache:
            return None
        import torch

        from app.decode import CompiledCache, model_fingerprint, read_step_in_background

        self.compiled_cache = CompiledCache(model_fingerprint(self.store))
        assert self.device is not None  # load() chose it first
        return read_step_in_background(
            self.compiled_cache,
            self.decode,
            self.precision_request,
            torch.device(self.device.device),
            self.decode_options.int8_recipe,
        )

    def _loop_decoder(self, parts: ModelParts, step=None) -> LoopDecoder:
        from app.decode import DecodeLoop, FastSpeech, RowCap

        loop = DecodeLoop(
            parts,
            self.decode,
            self.precision_request,
            own_weights=True,
            cache=self.compiled_cache,
            step=step,
            options=self.decode_options,
        )
        if loop.precision_note:
            self.notes.append(loop.precision_note)
        speech = FastSpeech(parts, loop, self.lookahead)
        self._warm_shapes = _batch_shapes(loop)
        # A CPU's compiled step caps its batches by its measured cost per row: read back now,
        # or measured by the warm-up (decode/row_cap.py).
        self.row_cap = RowCap.of(self.compiled_cache, loop, self.decode_options.int8_recipe)
        if self.row_cap is not None:
            self.row_cap.apply_cached(loop)
        if loop.precision is not Precision.FP32:
            # The loop holds the converted weights; what is left of the fp32 model is dead weight.
            parts.llama = None
        return LoopDecoder(loop, speech)

    def warm_up(self, run=None) -> None:
        """Run the decode step's first, slower runs (TorchScript optimizes on them; a GPU
        captures its graphs) now rather than in a user's sentence; once per load. `run(work)`
        runs each piece on the thread that owns the model (default: this one); the window
        passes the engine's `call`, so a Play can be served between two parts."""
        run = run or (lambda work: work())
        try:
            for part in run(self.warm_up_parts):
                run(part)
        finally:
            self.warmed.set()

    def warm_up_parts(self) -> list:
        """The warm-up as separate calls (`FastSpeech.warm_up_parts`), each for the model's
        thread, so that a Play can be served between them; empty once taken."""
        shapes, self._warm_shapes = self._warm_shapes, None
        if shapes is None or self.speech is None:
            return []
        parts = self.speech.warm_up_parts(shapes)
        if self.row_cap is not None and self.loop.row_cap is None:
            parts += self.row_cap.measure_parts(self.loop)
        return parts

    @property
    def loop(self):
        """Our DecodeLoop (None on ChatTTS's own path or before loading)."""
        return getattr(self.decoder, "loop", None)

    @property
    def speech(self):
        """FastSpeech over our loop (None on ChatTTS's own path or before loading)."""
        return getattr(self.decoder, "speech", None)

    @property
    def precision(self) -> str:
        """The decode step's number format ("" on ChatTTS's own path)."""
        return "" if self.decoder is None else self.decoder.precision

    @property
    def decode_label(self) -> str:
        """What runs the decode: "upstream", or our loop's mode and precision ("jit-int8")."""
        if self.decoder is None:
            return "" if self.decode.ours else DecodeMode.UPSTREAM
        return self.decoder.label

    def _require_loaded(self) -> tuple[str, int, Any]:
        """(spk_stat, hidden_size, text normalizer) of the loaded model, loading it first."""
        if self._voices is None:
            self.load()
        assert self._voices is not None  # load() sets them
        return self._voices

    @property
    def hidden_size(self) -> int:
        """The GPT's width, which a speaker embedding must have."""
        return self._require_loaded()[1]

    # -- voices and text ---------------------------------------------------------------
    def speaker_for_seed(self, seed: int) -> str:
        return speaker_from_seed(seed, self._require_loaded()[0])

    def resolve_speaker(self, request: SynthesisRequest) -> str:
        spk_stat, hidden_size, _normalizer = self._require_loaded()
        if request.speaker:
            return check_speaker(request.speaker, hidden_size)
        return speaker_from_seed(request.seed, spk_stat)

    def reference_from_audio(self, audio: np.ndarray, text: str) -> tuple[str, str]:
        """(audio codes, transcript) of a recording, for ChatTTS's spk_smp / txt_smp."""
        import torch

        normalizer = self._require_loaded()[2]
        wav = torch.from_numpy(np.asarray(audio, dtype=np.float32))
        model = self.parts if self.parts is not None else self.chat
        return model.sample_audio_speaker(wav), normalizer(text, True, True)

    def voice_from_recording(self, path: os.PathLike | str, transcript: str) -> tuple[str, str]:
        """A reference voice from a recording and what is said in it."""
        import soundfile as sf
        import torch
        import torchaudio.functional as AF

        if not transcript or not transcript.strip():
            raise InputTextError(
                _("Type what is said in the recording; ChatTTS needs the transcript.")
            )
        try:
            audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
        except Exception as exc:
            raise InputTextError(
                _("{path} is not an audio file this program can read ({error}).").format(
                    path=path, error=exc
                )
            ) from None
        mono = torch.from_numpy(audio.mean(axis=1))
        if rate != SAMPLE_RATE:
            mono = AF.resample(mono, rate, SAMPLE_RATE)
        if mono.numel() < SAMPLE_RATE:
            raise InputTextError(
                _("The recording is shorter than a second; use 3 to 10 seconds of clear speech.")
            )
        return self.reference_from_audio(mono.numpy(), transcript.strip())

    def prepare(self, text: str) -> PreparedText:
        normalizer = self._require_loaded()[2]
        return spoken_segments(text, self.dictionary_factory(), normalizer)

    # -- synthesis on the caller's thread ------------------------------------------------
    def cancel(self) -> None:
        """Stop the running request within one decode step (any thread)."""
        with self._runs_lock:
            runs = list(self._runs)
        for scheduler in runs:
            scheduler.cancel_all()

    def synthesize(self, request: SynthesisRequest) -> Iterator[AudioChunk | SynthesisResult]:
        """Yield AudioChunks in reading order (a segment may come in several pieces; its last
        has `final` set), then the SynthesisResult."""
        self._require_loaded()
        scheduler = Scheduler(self)
        ticket = scheduler.add(request, Priority.INTERACTIVE)
        with self._runs_lock:
            self._runs.add(scheduler)
        try:
            while not ticket.done:
                for _ticket, item in scheduler.run_batch():
                    if isinstance(item, BaseException):
                        raise item
                    assert isinstance(item, (AudioChunk, SynthesisResult))  # run_batch's promise
                    yield item
                if not ticket.done and not scheduler.has_work():
                    raise SynthesisCancelled(messages.stopped())
        finally:
            with self._runs_lock:
                self._runs.discard(scheduler)

    def run(self, request: SynthesisRequest, on_chunk=None) -> SynthesisResult:
        """Synthesize to the end; `on_chunk(AudioChunk)` sees each segment as it is ready."""
        result = None
        for item in self.synthesize(request):
            if isinstance(item, AudioChunk):
                if on_chunk is not None:
                    on_chunk(item)
            else:
                result = item
        if result is None:  # synthesize ends with the result or raises: never here
            raise SynthesisCancelled(messages.stopped())
        return result


def _batch_shapes(loop) -> list[tuple[int, int]]:
    """(batch, cache length) of the audio passes a default request will run: its first
    sentence alone, then the batch that memory allows now."""
    tokens = PROMPT_ALLOWANCE + SamplingParams().max_new_tokens
    return sorted({(1, tokens), (choose_batch(loop, tokens, max_batch(loop)), tokens)})
