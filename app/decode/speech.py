"""A batch of sentences -> refined text -> audio pieces, through our decode loop.

Each sentence gets its own seed (from the request's seed, its place in the text and the
retry count), so its tokens are the same whether it is decoded alone, in a batch of four, or
again after an out-of-memory retry with a smaller batch.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from app.core import SynthesisRequest
from app.decode.batch import BatchSession, Piece, Row
from app.decode.loop import DecodeLoop
from app.decode.passes import Generated, PassParams, Progress
from app.decode.prompts import code_prompts, refine_prompt, refined_texts
from app.decode.rows_state import Joining
from app.decode.vocoder_stream import StreamingVocoder, push_all

if TYPE_CHECKING:
    from app.model import ModelParts

# ChatTTS's RefineTextParams defaults.
REFINE = PassParams(
    temperature=0.7, top_p=0.7, top_k=20, repetition_penalty=1.0, max_new_tokens=384
)
STREAM_EVERY = 4  # tokens between looks at whether a piece of audio is ready
REFINE_PROMPT_ALLOWANCE = 128  # prompt tokens of a typical sentence's refine pass
WARM_UP = "你好。"


class FastSpeech:
    def __init__(self, parts: ModelParts, loop: DecodeLoop, lookahead: int | None = None):
        self.parts = parts
        self.loop = loop
        self.lookahead = lookahead

    def warm_up_parts(self, shapes: Sequence[tuple[int, int]] = ()) -> list[Callable[[], None]]:
        """TorchScript optimizes a function on its first runs: pay that while loading, not on the
        user's first sentence (not for a step whose first calls cost no more:
        `DecodeLoop.first_calls_cost`). On a GPU, capture the step's graphs for the (batch, cache
        length) `shapes` of the audio pass, and the same batches of the refine pass, so that the
        first requests of those shapes capture nothing. In parts, so that a caller can serve a
        request between them."""
        params = PassParams(1.0, 1.0, 0, 1.0, 2, greedy=True)

        row = Row(WARM_UP, 0, SynthesisRequest(WARM_UP, seed=0), None, None, 0)

        def sentence() -> None:
            list(self.speak([row], "[speed_5]", params))

        parts = [sentence, sentence] if self.loop.first_calls_cost else []
        for batch, tokens in shapes:
            parts.append(functools.partial(self.loop.prepare_graphs, batch, tokens))
            parts.append(
                functools.partial(
                    self.loop.prepare_graphs,
                    batch,
                    REFINE.max_new_tokens + REFINE_PROMPT_ALLOWANCE,
                )
            )
        return parts

    def refine(
        self, texts: list[str], prompt: str, seeds: list[int], cancel: threading.Event | None
    ) -> tuple[list[str], list[bool]]:
        emb, mask = refine_prompt(self.parts, texts, prompt)
        result = _last(
            self.loop.generate(
                emb,
                mask,
                False,
                REFINE,
                seeds,
                eos=self.parts.tokenizer.eos_token,
                cancel=cancel,
            )
        )
        return refined_texts(self.parts, result.tokens), result.hit_limit

    def _prompts(self, rows: list[Row], prompt: str):
        """The audio-code prompts of `rows`: embeddings and attention mask, one row each."""
        return code_prompts(
            self.parts,
            [r.text for r in rows],
            prompt,
            [r.speaker for r in rows],
            [r.reference for r in rows],
        )

    def speak(
        self,
        rows: list[Row],
        prompt: str,
        params: PassParams,
        batch: BatchSession | None = None,
        spoken: Callable[[list[Row]], list[Row]] | None = None,
    ) -> Iterator[Piece]:
        """Pieces of each group's rows in reading order: all of its first row, then its next,
        ... (a group is one request; rows of different requests share a batch). The first row
        in line of each group streams while it is decoded (`batch.stream`); the group's later
        rows come once the rows before them end. Rows that join the batch (`batch.join`) are
        numbered after the batch's, in the order given; `spoken(rows)` gives them as the model
        is to say them (refined text). The rows of groups that leave (`batch.leave`) give no
        more pieces."""
        batch = batch if batch is not None else BatchSession()
        emb, mask = self._prompts(rows, prompt)
        eos = int(self.parts.config.gpt.num_audio_tokens) - 1
        # A lookahead chosen by the caller (e.g. the receptive field, for an exact stream) holds
        # for the first piece too.
        kwargs = (
            {}
            if self.lookahead is None
            else {"lookahead": self.lookahead, "first_lookahead": self.lookahead}
        )
        vocoders = [StreamingVocoder(self.parts, **kwargs) for _ in rows]
        lines = _lines([r.group for r in rows])

        def join(live: int) -> Joining | None:
            new = batch.join(live)
            if not new:
                return None
            if spoken is not None:
                new = spoken(new)
            emb, mask = self._prompts(new, prompt)
            for row in new:
                lines.setdefault(row.group, []).append(len(vocoders))
                vocoders.append(StreamingVocoder(self.parts, **kwargs))
            return Joining(emb, mask, [r.seed for r in new])

        def leave() -> list[int]:
            going: list[int] = []
            for group in batch.leave():
                going.extend(lines.get(group, []))
                lines[group] = []
            return going

        for event in self.loop.generate(
            emb,
            mask,
            True,
            params,
            [r.seed for r in rows],
            eos=eos,
            cancel=batch.stop,
            stream_every=STREAM_EVERY if batch.stream else 0,
            admit=join,
            gone=leave,
        ):
            if isinstance(event, Progress):
                # Each group's head row streams; a head that ended hands over to the next row.
                heads = [line for line in lines.values() if line]
                while heads:
                    asks = [
                        (
                            vocoders[line[0]],
                            event.hiddens[line[0], : event.lengths[line[0]]],
                            bool(event.finished[line[0]]),
                        )
                        for line in heads
                    ]
                    made, took = _timed_push_all(self.parts, asks)
                    for line, piece, (_, _, ended) in zip(heads, made, asks):
                        head = line[0]
                        if piece.size or ended:
                            yield Piece(head, piece, ended, ended and event.cut[head], took)
                        if ended:
                            line.pop(0)
                    heads = [line for line, (_, _, ended) in zip(heads, asks) if ended and line]
            else:
                waiting = [row for line in lines.values() for row in line]
                asks = [(vocoders[row], event.hiddens[row], True) for row in waiting]
                made, took = _timed_push_all(self.parts, asks)
                for row, piece in zip(waiting, made):
                    yield Piece(row, piece, True, bool(event.hit_limit[row]), took)


def _timed_push_all(parts, asks) -> tuple[list[np.ndarray], float]:
    """`push_all`'s pieces and the seconds the call took (each piece reports the whole call:
    the player counts it apart from the tokens' time)."""
    began = time.perf_counter()
    made = push_all(parts, asks)
    return made, time.perf_counter() - began


def _lines(groups: list[int]) -> dict[int, list[int]]:
    """Rows per group, in batch order (a group's rows are its sentences in reading order)."""
    lines: dict[int, list[int]] = {}
    for row, group in enumerate(groups):
        lines.setdefault(group, []).append(row)
    return lines


def _last(events) -> Generated:
    result = None
    for result in events:  # noqa: B007 (the last one is kept)
        pass
    if result is None:
        raise ValueError("the pass ended without its result")
    return result
