"""Text -> audio through ChatTTS: load a model folder on a device, synthesize requests.

ChatTTS is imported on `load()`, never at module import, because it costs seconds and the
window must appear first. One Synthesizer owns one loaded model; `synthesize()` runs on
the caller's thread (a worker thread in the GUI) and `cancel()` may be called from any other
thread: ChatTTS checks its context flag every decode step, so a cancel lands within one step.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
import warnings
from dataclasses import asdict
from typing import Iterator

import numpy as np

from app.engine.audio.wav import SAMPLE_RATE
from app.engine.decode import MODES
from app.engine.decode.memory import choose_batch, is_out_of_memory, max_batch
from app.engine.device import DeviceChoice, choose_device
from app.engine.errors import (
    DeviceError,
    InputTextError,
    ModelCorruptError,
    OutOfMemoryError,
    SynthesisCancelled,
)
from app.engine.models.config import chattts_config
from app.engine.models.store import ModelStore
from app.engine.request import AudioChunk, SamplingParams, SynthesisRequest, SynthesisResult
from app.engine.text.normalize import normalize
from app.engine.text.spoken import spoken_segments
from app.engine.text.pronunciations import PronunciationDictionary
from app.engine.text.prepare import PreparedText
from app.engine.voices.speakers import check_speaker, speaker_from_seed
from app.i18n import _

log = logging.getLogger("chattts_studio.engine")

# The first batch is a single segment so the first audio arrives as early as possible; later
# batches of ChatTTS's own path hold up to this many (ours: decode/memory.py, per device).
BATCH_SIZE = 4
# Prompt tokens a sentence may take beyond its audio tokens when sizing the KV cache.
PROMPT_ALLOWANCE = 256
# A segment that comes back empty (the model ended at once) is retried with the next seeds.
EMPTY_RETRIES = 3


def _token_cut_warning(first: int, count: int, limit: int) -> str:
    """A sentence (or one of a batch, 0-based `first`) hit the audio-token limit."""
    if count == 1:
        text = _("Sentence {n} reached the limit of {limit} audio tokens and may be cut off at the end; "
                 "shorten it or raise the limit ({option}).")
    else:
        text = _("One of sentences {first}-{last} reached the limit of {limit} audio tokens and may be cut "
                 "off at the end; shorten it or raise the limit ({option}).")
    return text.format(n=first + 1, first=first + 1, last=first + count, limit=limit, option="--max-tokens")


def _refine_cut_warning(first: int, count: int) -> str:
    """Refinement hit its length limit; where the switch is, in the window and on the command line."""
    if count == 1:
        text = _("Sentence {n}: text refinement reached its length limit, so words may be missing; try again "
                 "with text refinement off (in the window: untick \"Refine text first\"; on the command "
                 "line: {option}).")
    else:
        text = _("One of sentences {first}-{last}: text refinement reached its length limit, so words may be "
                 "missing; try again with text refinement off (in the window: untick \"Refine text first\"; "
                 "on the command line: {option}).")
    return text.format(n=first + 1, first=first + 1, last=first + count, option="--no-refine")


def quiet_libraries() -> None:
    """Keep library chatter (progress bars, deprecation notices) out of the user's console."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"(transformers|torch|ChatTTS|vocos)")
    warnings.filterwarnings("ignore", message=r".*past_key_values.*")
    warnings.filterwarnings("ignore", category=UserWarning, module=r"(torch|vocos|vector_quantize_pytorch)")
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module=r"numba")
    try:
        import transformers

        transformers.utils.logging.set_verbosity_error()
        transformers.utils.logging.disable_progress_bar()
    except Exception:  # transformers missing is reported by the load that follows
        pass


def _cancel_context(event: threading.Event):
    from ChatTTS.model.gpt import GPT

    class CancelContext(GPT.Context):
        """ChatTTS resets its own flag at the start of every infer(); ours outlives that."""

        def get(self) -> bool:
            return self._interrupt or event.is_set()

    return CancelContext()


class _TokenLimitWatch(logging.Handler):
    """ChatTTS only logs "hit max_new_token: N" when a pass is cut off; we turn it into a
    warning the user sees (long sentences losing their ending is a top complaint)."""

    _PATTERN = re.compile(r"hit max_new_token: (\d+)")

    def __init__(self):
        super().__init__(logging.WARNING)
        self.limits: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        found = self._PATTERN.search(record.getMessage())
        if found:
            self.limits.append(int(found.group(1)))


def _register_normalizers(chattts_norm):
    """Text normally arrives normalized already; this catches any path that skips us, so
    ChatTTS never silently drops digits."""
    for lang in ("zh", "en"):
        chattts_norm.register(lang, lambda text, _lang=lang: normalize(text, _lang))
    return chattts_norm


def chattts_normalizer():
    """ChatTTS's own normalizer (homophones, character filter) without loading a model."""
    quiet_libraries()
    import ChatTTS
    from ChatTTS.norm import Normalizer

    table = os.path.join(os.path.dirname(ChatTTS.__file__), "res", "homophones_map.json")
    return _register_normalizers(Normalizer(table, logging.getLogger("chattts_studio.chattts")))


class Synthesizer:
    def __init__(self, model_dir: os.PathLike | str | None = None, device: str = "auto",
                 dictionary_factory=PronunciationDictionary, decode: str = "jit",
                 precision: str = "auto", stream: bool = True, lookahead: int | None = None):
        if decode not in MODES:
            raise DeviceError(_("Unknown decode mode {mode}; use one of: {choices}.").format(
                mode=repr(decode), choices=", ".join(MODES)))
        self.store = ModelStore(model_dir)
        self.decode = decode
        self.precision_request = precision
        self.stream = stream
        self._lookahead = lookahead
        self._loop = None      # our DecodeLoop, unless decode == "upstream"
        self._speech = None    # FastSpeech over that loop
        self._dictionary_factory = dictionary_factory
        self.device_request = device
        self.device: DeviceChoice | None = None
        self.load_seconds: float | None = None
        self.test_model = False
        self._chat = None
        self._spk_stat: str | None = None
        self._hidden_size: int | None = None
        self._cancel = threading.Event()
        self.last_limits: list[int] = []
        # Sentences about how the model runs that the user should read (a precision fallback).
        self.notes: list[str] = []

    # -- loading ------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._chat is not None

    def load(self, verify: bool = True) -> None:
        started = time.perf_counter()
        self.notes.clear()
        if verify:
            self.store.require_verified()
        else:
            self.store.require_present()
        studio_cfg = self.store.studio_config()
        self.device = choose_device(self.device_request)
        quiet_libraries()
        import ChatTTS
        import torch

        chat = ChatTTS.Chat(logging.getLogger("chattts_studio.chattts"))
        if studio_cfg is None:
            chat.config = chattts_config()
        else:
            chat.config = chattts_config(studio_cfg["dimensions"], studio_cfg["spk_stat"])
        chat.context = _cancel_context(self._cancel)
        files = {k: str(self.store.root / v) for k, v in asdict(chat.config.path).items()}
        try:
            ok = chat._load(device=torch.device(self.device.device), compile=False, **files)
        except Exception as exc:
            if is_out_of_memory(exc):
                raise OutOfMemoryError(
                    _("There is not enough memory on {device} to load the model; close other programs or "
                      "use {option}.").format(device=self.device.device, option="--device cpu")
                ) from exc
            raise ModelCorruptError(
                _("The model in {folder} could not be loaded ({error}); its files may be damaged or from "
                  "another ChatTTS version. Download them again.").format(
                    folder=self.store.root, error=f"{type(exc).__name__}: {exc}")
            ) from exc
        if not ok:
            raise ModelCorruptError(_("The model in {folder} did not load completely; download it again.").format(
                folder=self.store.root))
        # The normalizer's numba functions compile on first use, holding the GIL for seconds:
        # pay that now, while the window shows "loading", not on the first Play. Only after
        # registration does it split tags, and only Chinese reaches the homophone table.
        _register_normalizers(chat.normalizer)
        chat.normalizer("你好[uv_break]，世界。", True, True)
        if self.decode != "upstream":
            from app.engine.decode.loop import DecodeLoop
            from app.engine.decode.speech import FastSpeech

            self._loop = DecodeLoop(chat, self.decode, self.precision_request, own_weights=True)
            if self._loop.precision_note:
                self.notes.append(self._loop.precision_note)
            self._speech = FastSpeech(chat, self._loop, self._lookahead)
            self._speech.warm_up(self._batch_shapes())
            if self._loop.precision != "fp32":
                # The loop holds the converted weights; what is left of the fp32 model is dead weight.
                chat.gpt.gpt = None
        self._chat = chat
        self._spk_stat = chat.config.spk_stat
        self._hidden_size = chat.config.gpt.hidden_size
        self.test_model = studio_cfg is not None
        self.load_seconds = time.perf_counter() - started
        log.info("model %s loaded on %s in %.1f s", self.store.root, self.device.device, self.load_seconds)

    def _batch_shapes(self) -> list[tuple[int, int]]:
        """(batch, cache length) of the audio passes a default request will run: its first
        sentence alone, then the batch that memory allows now."""
        tokens = PROMPT_ALLOWANCE + SamplingParams().max_new_tokens
        return sorted({(1, tokens), (choose_batch(self._loop, tokens, max_batch(self._loop.device)), tokens)})

    @property
    def precision(self) -> str:
        """The decode step's number format ("" on ChatTTS's own path)."""
        return "" if self._loop is None else self._loop.precision

    @property
    def decode_label(self) -> str:
        """What runs the decode: "upstream", or our loop's mode and precision ("jit-int8")."""
        if self._loop is None:
            return "upstream"
        return f"{self._loop.mode}-{self._loop.precision}"

    def _require_loaded(self):
        if self._chat is None:
            self.load()
        return self._chat

    # -- voices -------------------------------------------------------------------
    def speaker_for_seed(self, seed: int) -> str:
        self._require_loaded()
        return speaker_from_seed(seed, self._spk_stat)

    def resolve_speaker(self, request: SynthesisRequest) -> str:
        self._require_loaded()
        if request.speaker:
            return check_speaker(request.speaker, self._hidden_size)
        return speaker_from_seed(request.seed, self._spk_stat)

    def reference_from_audio(self, audio: np.ndarray, text: str) -> tuple[str, str]:
        """(audio codes, transcript) of a recording, for ChatTTS's spk_smp / txt_smp."""
        import torch

        self._require_loaded()
        codes = self._chat.sample_audio_speaker(torch.from_numpy(np.asarray(audio, dtype=np.float32)))
        return codes, self._chat.normalizer(text, True, True)

    def voice_from_recording(self, path: os.PathLike | str, transcript: str) -> tuple[str, str]:
        """A reference voice from a recording and what is said in it."""
        import soundfile as sf
        import torch
        import torchaudio.functional as AF

        if not transcript or not transcript.strip():
            raise InputTextError(_("Type what is said in the recording; ChatTTS needs the transcript."))
        try:
            audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
        except Exception as exc:
            raise InputTextError(_("{path} is not an audio file this program can read ({error}).").format(
                path=path, error=exc)) from None
        mono = torch.from_numpy(audio.mean(axis=1))
        if rate != SAMPLE_RATE:
            mono = AF.resample(mono, rate, SAMPLE_RATE)
        if mono.numel() < SAMPLE_RATE:
            raise InputTextError(_("The recording is shorter than a second; use 3 to 10 seconds of clear speech."))
        return self.reference_from_audio(mono.numpy(), transcript.strip())

    # -- synthesis ----------------------------------------------------------------
    def cancel(self) -> None:
        """Stop the running request within one decode step (any thread)."""
        self._cancel.set()

    def prepare(self, text: str) -> PreparedText:
        self._require_loaded()
        return spoken_segments(text, self._dictionary_factory(), self._chat.normalizer)

    def _infer(self, texts: list[str], request: SynthesisRequest, speaker: str, seed: int,
               reference: tuple[str, str] | None = None) -> list[np.ndarray]:
        import ChatTTS

        s = request.sampling
        refine = ChatTTS.Chat.RefineTextParams(
            prompt=request.refine_prompt(), show_tqdm=False, manual_seed=seed,
        )
        code = ChatTTS.Chat.InferCodeParams(
            prompt=request.code_prompt(), spk_emb=speaker, temperature=s.temperature,
            top_P=s.top_p, top_K=s.top_k, repetition_penalty=s.repetition_penalty,
            max_new_token=s.max_new_tokens, min_new_token=s.min_new_tokens, show_tqdm=False, manual_seed=seed,
            spk_smp=reference[0] if reference else None, txt_smp=reference[1] if reference else None,
        )
        watch = _TokenLimitWatch()
        chattts_log = logging.getLogger("chattts_studio.chattts")
        chattts_log.addHandler(watch)
        try:
            wavs = self._chat.infer(
                list(texts), stream=False, skip_refine_text=not request.refine_text,
                split_text=False, params_refine_text=refine, params_infer_code=code,
            )
            self.last_limits = watch.limits
        except Exception as exc:
            if is_out_of_memory(exc):
                raise OutOfMemoryError(
                    _("{device} ran out of memory while speaking; try a shorter text, close other programs, "
                      "or use {option}.").format(device=self.device.device, option="--device cpu")
                ) from exc
            raise
        finally:
            chattts_log.removeHandler(watch)
        if self._cancel.is_set():
            raise SynthesisCancelled(_("Synthesis was stopped."))
        return [np.asarray(w, dtype=np.float32).reshape(-1) for w in wavs]

    def _limit_warnings(self, request: SynthesisRequest, first: int, count: int) -> list[str]:
        out = []
        if request.sampling.max_new_tokens in self.last_limits:
            out.append(_token_cut_warning(first, count, request.sampling.max_new_tokens))
        if request.refine_text and any(n != request.sampling.max_new_tokens for n in self.last_limits):
            out.append(_refine_cut_warning(first, count))
        return out

    def synthesize(self, request: SynthesisRequest) -> Iterator[AudioChunk | SynthesisResult]:
        """Yield AudioChunks in reading order (a segment may come in several pieces; its last
        has `final` set), then the SynthesisResult."""
        self._require_loaded()
        self._cancel.clear()
        started = time.perf_counter()
        speaker = self.resolve_speaker(request) if request.speaker or not request.reference else None
        prepared = self.prepare(request.text)
        reference = (request.reference, request.reference_text or "") if request.reference else None
        pieces: list[np.ndarray] = []
        warnings = list(prepared.warnings)
        run = self._synthesize_upstream if self._speech is None else self._synthesize_fast
        for chunk in run(request, prepared.segments, speaker, reference, warnings):
            pieces.append(chunk.samples)
            yield chunk
        audio = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)
        warnings = list(dict.fromkeys(warnings))     # an out-of-memory retry repeats some
        yield SynthesisResult(
            audio=audio, sample_rate=SAMPLE_RATE, device=self.device.device, speaker=speaker or "",
            seed=request.seed, segments=len(prepared.segments), synth_seconds=time.perf_counter() - started,
            test_model=self.test_model, warnings=warnings, spoken_text=prepared.spoken,
            decode=self.decode_label,
        )

    def _lock_voice(self, request, segments, first_audio, reference):
        if reference is None and request.voice_lock and len(segments) > 1 and first_audio.size:
            return self.reference_from_audio(first_audio, segments[0])
        return reference

    def _synthesize_upstream(self, request, segments, speaker, reference, warnings) -> Iterator[AudioChunk]:
        index = 0
        while index < len(segments):
            if self._cancel.is_set():
                raise SynthesisCancelled(_("Synthesis was stopped."))
            size = 1 if index == 0 else BATCH_SIZE
            batch = segments[index:index + size]
            wavs = self._infer(batch, request, speaker, request.seed, reference)
            warnings.extend(self._limit_warnings(request, index, len(batch)))
            for offset, wav in enumerate(wavs):
                retry = 1
                while wav.size == 0 and retry <= EMPTY_RETRIES:
                    wav = self._infer([batch[offset]], request, speaker, request.seed + retry, reference)[0]
                    retry += 1
                yield AudioChunk(index + offset, len(segments), wav, SAMPLE_RATE)
                if index == 0:
                    reference = self._lock_voice(request, segments, wav, reference)
            index += len(batch)

    def _synthesize_fast(self, request, segments, speaker, reference, warnings) -> Iterator[AudioChunk]:
        from app.engine.decode.loop import PassParams

        s = request.sampling
        params = PassParams(s.temperature, s.top_p, s.top_k, s.repetition_penalty, s.max_new_tokens,
                            min_new_tokens=s.min_new_tokens)
        emitted = [0] * len(segments)         # samples already yielded, per segment
        finished: set[int] = set()            # segments whose final chunk was yielded
        first: list[np.ndarray] = []
        cap = None                            # batch limit after running out of memory
        index = 0
        while index < len(segments):
            if self._cancel.is_set():
                raise SynthesisCancelled(_("Synthesis was stopped."))
            if index in finished:             # ended before an out-of-memory retry
                index += 1
                continue
            size = 1 if index == 0 else choose_batch(self._loop, PROMPT_ALLOWANCE + s.max_new_tokens,
                                                     min(max_batch(self._loop.device), len(segments) - index))
            size = min(size, cap or size)
            rows = list(range(index, index + size))
            try:
                for chunk in self._fast_batch(rows, segments, request, params, speaker, reference,
                                              emitted, finished, warnings):
                    if chunk.index == 0:
                        first.append(chunk.samples)
                    yield chunk
            except Exception as exc:
                if not is_out_of_memory(exc):
                    raise
                self._loop.release_static()
                if size == 1:
                    raise OutOfMemoryError(
                        _("{device} ran out of memory even with one sentence at a time; close other programs, "
                          "lower the token limit, or use {option}.").format(
                            device=self.device.device, option="--device cpu")
                    ) from exc
                cap = size // 2
                log.warning("out of memory with %d sentences at once; retrying with %d", size, cap)
                if not self._loop.exact_across_batches:
                    yield from self._cut_partly_played(rows, len(segments), emitted, finished, warnings)
                continue
            if index == 0:
                reference = self._lock_voice(request, segments, np.concatenate(first), reference)
            index += size

    def _cut_partly_played(self, rows, count, emitted, finished, warnings) -> Iterator[AudioChunk]:
        """Where a smaller batch gives other low bits (a GPU), the retry would not continue a
        sentence where its sound stopped: end what was partly played there, and say so."""
        for i in rows:
            if emitted[i] and i not in finished:
                finished.add(i)
                warnings.append(_("Sentence {n} was cut short when memory ran out while it played; play the "
                                  "text again to hear it whole.").format(n=i + 1))
                yield AudioChunk(i, count, np.zeros(0, dtype=np.float32), SAMPLE_RATE, final=True)

    def _fast_batch(self, rows, segments, request, params, speaker, reference, emitted, finished, warnings):
        """Yield the batch's chunks; after an out-of-memory retry, only what was not yet yielded
        (`emitted` samples and `finished` segments; sentences replay identically, having their
        own seeds)."""
        from app.engine.decode.speech import BatchReport, sentence_seed

        texts = [segments[i] for i in rows]
        seeds = [sentence_seed(request.seed, i) for i in rows]
        if request.refine_text:
            texts, cut = self._speech.refine(texts, request.refine_prompt(), seeds, self._cancel)
            warnings.extend(_refine_cut_warning(rows[r], 1) for r, c in enumerate(cut) if c)
        report = BatchReport()
        produced = [0] * len(rows)
        for piece in self._speech.speak(texts, request.code_prompt(), params, seeds, speaker, reference,
                                        self._cancel, self.stream, report):
            i = rows[piece.row]
            if piece.final and produced[piece.row] + piece.samples.size == 0 and i not in finished:
                yield from self._retry_empty(i, texts[piece.row], request, params, speaker, reference, emitted)
                finished.add(i)
                continue
            samples = piece.samples
            skip = max(0, emitted[i] - produced[piece.row])   # already played before an OOM retry
            produced[piece.row] += samples.size
            if i in finished:
                continue
            if skip < samples.size or piece.final:
                emitted[i] += max(0, samples.size - skip)
                if piece.final:
                    finished.add(i)
                yield AudioChunk(i, len(segments), samples[skip:], SAMPLE_RATE, final=piece.final)
        warnings.extend(_token_cut_warning(rows[r], 1, params.max_new_tokens)
                        for r, c in enumerate(report.audio_cut) if c)

    def _retry_empty(self, i, text, request, params, speaker, reference, emitted):
        """The model ended a sentence at once: try it again with other random draws."""
        from app.engine.decode.speech import BatchReport, sentence_seed

        wav = np.zeros(0, dtype=np.float32)
        for retry in range(1, EMPTY_RETRIES + 1):
            report = BatchReport()
            parts = [p.samples for p in self._speech.speak(
                [text], request.code_prompt(), params, [sentence_seed(request.seed, i, retry)], speaker,
                reference, self._cancel, False, report)]
            wav = np.concatenate(parts)
            if wav.size:
                break
        emitted[i] += wav.size
        yield AudioChunk(i, len(emitted), wav, SAMPLE_RATE, final=True)

    def run(self, request: SynthesisRequest, on_chunk=None) -> SynthesisResult:
        """Synthesize to the end; `on_chunk(AudioChunk)` sees each segment as it is ready."""
        result = None
        for item in self.synthesize(request):
            if isinstance(item, AudioChunk):
                if on_chunk is not None:
                    on_chunk(item)
            else:
                result = item
        return result
