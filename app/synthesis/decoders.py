"""Decoders as strategies: one interface, ChatTTS's own `Chat.infer` and our decode loop.

A decoder turns a batch of rows (sentences, possibly of different requests) into audio
pieces and cut notices; the scheduler decides what goes into a batch and where the pieces go.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator
from dataclasses import replace

import numpy as np

from app.core import SynthesisCancelled
from app.decode import BatchSession, Cut, CutKind, Piece, Row, choose_batch, max_batch
from app.synthesis import messages
from app.synthesis.chattts_model import CHATTTS_LOG, StopFlag, TokenLimitWatch

# ChatTTS's own path decodes up to this many sentences at once.
UPSTREAM_BATCH = 4
# Prompt tokens a sentence may take beyond its audio tokens when sizing the KV cache.
PROMPT_ALLOWANCE = 256
# A sentence that comes back empty (the model ended at once) is tried again with other draws.
EMPTY_RETRIES = 3


class Decoder(ABC):
    label: str = ""  # "upstream", or our loop's mode and precision ("jit-int8")
    precision: str = ""  # the decode step's number format ("" on ChatTTS's path)
    # Rows of different requests may share a batch (their results do not depend on it).
    mixes_requests: bool = False

    @property
    def exact_across_batches(self) -> bool:
        """A sentence decodes to the same samples in any batch, so a batch that is stopped and
        run again smaller (out of memory, priority) continues its sentences where they stopped."""
        return False

    @abstractmethod
    def batch_key(self, row: Row) -> Hashable:
        """Rows with equal keys may share a batch."""

    @abstractmethod
    def batch_size(self, rows: list[Row]) -> int:
        """How many of `rows` (all of one key) to decode at once now."""

    @abstractmethod
    def decode(self, rows: list[Row], batch: BatchSession) -> Iterator[Piece | Cut]:
        """Pieces of every row (each row's in order, ending with one final piece), and cut
        notices. Raises SynthesisCancelled within a step of `batch.stop` being set. A decoder
        that `joins_running` asks `batch.join(live)` between steps (live: rows still decoding)
        for rows that join the batch; they are numbered after the rows it has, in the order
        given. `batch.leave()` names groups (requests) that went away: a decoder may stop their
        rows early, and owes them no more pieces."""

    def release(self) -> None:  # noqa: B027 (optional: most decoders keep nothing)
        """Free what is kept between batches (after running out of memory)."""

    def joins_running(self, row: Row) -> bool:
        """Whether rows may join a running batch of `row`'s key (`BatchSession.join`)."""
        return False

    def capacity(self, row: Row) -> int:
        """The most rows of `row`'s key to decode at once now (rows joining included)."""
        return self.batch_size([row])


class UpstreamDecoder(Decoder):
    """ChatTTS's `Chat.infer`: kept for comparison and as a way out. Its sentences depend on
    what they are batched with, so a batch holds sentences of one request only."""

    label = "upstream"

    def __init__(self, chat, flag: StopFlag):
        self.chat = chat
        self.flag = flag

    def batch_key(self, row: Row) -> Hashable:
        return ("request", row.group)

    def batch_size(self, rows: list[Row]) -> int:
        return UPSTREAM_BATCH

    def decode(self, rows: list[Row], batch: BatchSession) -> Iterator[Piece | Cut]:
        request = rows[0].request
        s = request.sampling
        stop = batch.stop
        wavs, limits = self._infer(rows, stop)
        every = list(range(len(rows)))
        if s.max_new_tokens in limits:
            yield Cut(every, CutKind.AUDIO_LIMIT)
        if request.refine_text and any(n != s.max_new_tokens for n in limits):
            yield Cut(every, CutKind.REFINE_LIMIT)
        for i, wav in enumerate(wavs):
            # A retry is one more infer of that sentence alone, never a retry of retries.
            for retry in range(rows[i].retry + 1, rows[i].retry + EMPTY_RETRIES + 1):
                if wav.size:
                    break
                wav = self._infer([replace(rows[i], retry=retry)], stop)[0][0]
            yield Piece(i, wav, True)

    def _infer(self, rows: list[Row], stop: threading.Event) -> tuple[list[np.ndarray], list[int]]:
        """`Chat.infer` over rows of one request: their audio, and the token limits it hit."""
        import ChatTTS

        request = rows[0].request
        s = request.sampling
        seed = request.seed + rows[0].retry
        reference = rows[0].reference
        refine = ChatTTS.Chat.RefineTextParams(
            prompt=request.refine_prompt(), show_tqdm=False, manual_seed=seed
        )
        code = ChatTTS.Chat.InferCodeParams(
            prompt=request.code_prompt(),
            spk_emb=rows[0].speaker,
            temperature=s.temperature,
            top_P=s.top_p,
            top_K=s.top_k,
            repetition_penalty=s.repetition_penalty,
            max_new_token=s.max_new_tokens,
            min_new_token=s.min_new_tokens,
            show_tqdm=False,
            manual_seed=seed,
            spk_smp=reference[0] if reference else None,
            txt_smp=reference[1] if reference else None,
        )
        watch = TokenLimitWatch()
        chattts_log = logging.getLogger(CHATTTS_LOG)
        chattts_log.addHandler(watch)
        self.flag.event = stop
        try:
            wavs = self.chat.infer(
                [r.text for r in rows],
                stream=False,
                skip_refine_text=not request.refine_text,
                split_text=False,
                params_refine_text=refine,
                params_infer_code=code,
            )
        finally:
            chattts_log.removeHandler(watch)
        if stop.is_set():
            raise SynthesisCancelled(messages.stopped())
        return [np.asarray(w, dtype=np.float32).reshape(-1) for w in wavs], watch.limits


class LoopDecoder(Decoder):
    """Our decode loop (decode/loop.py) through FastSpeech (decode/speech.py): each sentence
    has its own seed and voice, so sentences of different requests share a batch."""

    mixes_requests = True

    def __init__(self, loop, speech):
        self.loop = loop
        self.speech = speech
        self.label = f"{loop.mode}-{loop.precision}"
        self.precision = loop.precision

    @property
    def exact_across_batches(self) -> bool:
        return self.loop.exact_across_batches

    def batch_key(self, row: Row) -> Hashable:
        request = row.request
        s = request.sampling
        return (
            s.temperature,
            s.top_p,
            s.top_k,
            s.repetition_penalty,
            s.max_new_tokens,
            s.min_new_tokens,
            request.code_prompt(),
            request.refine_text,
            request.refine_prompt(),
        )

    def batch_size(self, rows: list[Row]) -> int:
        return min(len(rows), self.capacity(rows[0]))

    def capacity(self, row: Row) -> int:
        tokens = PROMPT_ALLOWANCE + row.request.sampling.max_new_tokens
        return choose_batch(self.loop, tokens, max_batch(self.loop))

    def joins_running(self, row: Row) -> bool:
        # Fixed-shape steps (CUDA graphs) keep their batch; a joining prompt must fit the positions.
        return not self.loop.static_steps and self.loop.fits(
            PROMPT_ALLOWANCE, row.request.sampling.max_new_tokens
        )

    def decode(self, rows: list[Row], batch: BatchSession) -> Iterator[Piece | Cut]:
        from app.decode import PassParams

        request = rows[0].request
        s = request.sampling
        params = PassParams(
            s.temperature,
            s.top_p,
            s.top_k,
            s.repetition_penalty,
            s.max_new_tokens,
            min_new_tokens=s.min_new_tokens,
        )
        said: list[Row] = []  # every row of the batch as the model says it
        cuts: list[Cut] = []

        def spoken(new: list[Row]) -> list[Row]:
            """`new` with the text the model is to say: refined first if the request asks
            (alone: a sentence's refined text does not depend on its batch)."""
            if request.refine_text:
                seeds = [r.seed for r in new]
                texts, hits = self.speech.refine(
                    [r.text for r in new], request.refine_prompt(), seeds, batch.stop
                )
                cuts.extend(
                    Cut([len(said) + k], CutKind.REFINE_LIMIT) for k, hit in enumerate(hits) if hit
                )
                new = [replace(r, text=text) for r, text in zip(new, texts)]
            said.extend(new)
            return new

        first = spoken(list(rows))
        while cuts:
            yield cuts.pop(0)
        produced: dict[int, int] = {}
        for piece in self.speech.speak(first, request.code_prompt(), params, batch, spoken):
            while cuts:
                yield cuts.pop(0)
            produced[piece.row] = produced.get(piece.row, 0) + piece.samples.size
            if piece.final and piece.cut:
                yield Cut([piece.row], CutKind.AUDIO_LIMIT)
            if piece.final and produced[piece.row] == 0:
                piece = Piece(piece.row, self._again(said[piece.row], params, batch.stop), True)
            yield piece

    def _again(self, row: Row, params, stop: threading.Event) -> np.ndarray:
        """The model ended a sentence at once: its (refined) text with other random draws."""
        wav = np.zeros(0, dtype=np.float32)
        for retry in range(row.retry + 1, row.retry + EMPTY_RETRIES + 1):
            pieces = self.speech.speak(
                [replace(row, retry=retry)],
                row.request.code_prompt(),
                params,
                BatchSession(stop),
            )
            wav = np.concatenate([p.samples for p in pieces])
            if wav.size:
                break
        return wav

    def release(self) -> None:
        self.loop.release_static()
