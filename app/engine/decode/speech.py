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
from dataclasses import dataclass, field

import numpy as np

from app.engine.decode.loop import DecodeLoop
from app.engine.decode.passes import Generated, PassParams, Progress
from app.engine.decode.prompts import code_prompts, refine_prompt, refined_texts
from app.engine.decode.rows_state import Joining
from app.engine.decode.vocoder_stream import StreamingVocoder, push_all

# ChatTTS's RefineTextParams defaults.
REFINE = PassParams(
    temperature=0.7, top_p=0.7, top_k=20, repetition_penalty=1.0, max_new_tokens=384
)
STREAM_EVERY = 4  # tokens between looks at whether a piece of audio is ready
REFINE_PROMPT_ALLOWANCE = 128  # prompt tokens of a typical sentence's refine pass


def sentence_seed(seed: int, index: int, retry: int = 0) -> int:
    return int(np.random.SeedSequence([int(seed) & 0xFFFFFFFF, index, retry]).generate_state(1)[0])


@dataclass
class Piece:
    row: int
    samples: np.ndarray
    final: bool
    cut: bool = False  # (final pieces) the row ran to the token limit
    vocoder_s: float = 0.0  # the vocoder call that made it (the player's grid rule)


@dataclass
class Joiner:
    """A sentence that joins a running batch (see `FastSpeech.speak`)."""

    text: str
    seed: int
    speaker: str | None
    reference: tuple[str, str] | None
    group: int


@dataclass
class BatchReport:
    """Filled in by `speak` when the batch ends: which sentences hit the audio token limit."""

    audio_cut: list[bool] = field(default_factory=list)


class FastSpeech:
    def __init__(self, chat, loop: DecodeLoop, lookahead: int | None = None):
        self.chat = chat
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

        def sentence() -> None:
            list(
                self.speak(
                    ["你好。"], "[speed_5]", params, [0], [None], [None], None, False, BatchReport()
                )
            )

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
        emb, mask = refine_prompt(self.chat, texts, prompt)
        result = _last(
            self.loop.generate(
                emb,
                mask,
                False,
                REFINE,
                seeds,
                eos=self.chat.tokenizer.eos_token,
                cancel=cancel,
            )
        )
        return refined_texts(self.chat, result.tokens), result.hit_limit

    def speak(
        self,
        texts: list[str],
        prompt: str,
        params: PassParams,
        seeds: list[int],
        speakers: list[str | None],
        references: list[tuple[str, str] | None],
        cancel: threading.Event | None,
        stream: bool,
        report: BatchReport,
        groups: list[int] | None = None,
        more: Callable[[int], list[Joiner]] | None = None,
        gone: Callable[[], set[int]] | None = None,
    ) -> Iterator[Piece]:
        """Pieces of each group's rows in reading order: all of its first row, then its next,
        ... (a group is one request; rows of different requests share a batch). The first row
        in line of each group streams while it is decoded; the group's later rows come once
        the rows before them end. `more(live)`, asked between steps, gives sentences that join
        the batch there; their rows are numbered after the batch's, in the order given.
        `gone()`, asked there too, names groups whose requests went away: their rows leave the
        batch and give no more pieces."""
        emb, mask = code_prompts(self.chat, texts, prompt, speakers, references)
        eos = int(self.chat.config.gpt.num_audio_tokens) - 1
        # A lookahead chosen by the caller (e.g. the receptive field, for an exact stream) holds
        # for the first piece too.
        kwargs = (
            {}
            if self.lookahead is None
            else {"lookahead": self.lookahead, "first_lookahead": self.lookahead}
        )
        vocoders = [StreamingVocoder(self.chat, **kwargs) for _ in texts]
        lines = _lines(groups if groups is not None else [0] * len(texts))

        def admit(live: int) -> Joining | None:
            joiners = more(live) if more is not None else None
            if not joiners:
                return None
            emb, mask = code_prompts(
                self.chat,
                [j.text for j in joiners],
                prompt,
                [j.speaker for j in joiners],
                [j.reference for j in joiners],
            )
            for joiner in joiners:
                lines.setdefault(joiner.group, []).append(len(vocoders))
                vocoders.append(StreamingVocoder(self.chat, **kwargs))
            return Joining(emb, mask, [j.seed for j in joiners])

        def leaving() -> list[int]:
            rows: list[int] = []
            for group in gone() if gone is not None else ():
                rows.extend(lines.get(group, []))
                lines[group] = []
            return rows

        for event in self.loop.generate(
            emb,
            mask,
            True,
            params,
            seeds,
            eos=eos,
            cancel=cancel,
            stream_every=STREAM_EVERY if stream else 0,
            admit=admit if more is not None else None,
            gone=leaving if gone is not None else None,
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
                    made, took = _timed_push_all(self.chat, asks)
                    for line, piece, (_, _, ended) in zip(heads, made, asks):
                        head = line[0]
                        if piece.size or ended:
                            yield Piece(head, piece, ended, ended and event.cut[head], took)
                        if ended:
                            line.pop(0)
                    heads = [line for line, (_, _, ended) in zip(heads, asks) if ended and line]
            else:
                report.audio_cut = event.hit_limit
                rows = [row for line in lines.values() for row in line]
                asks = [(vocoders[row], event.hiddens[row], True) for row in rows]
                made, took = _timed_push_all(self.chat, asks)
                for row, piece in zip(rows, made):
                    yield Piece(row, piece, True, bool(event.hit_limit[row]), took)


def _timed_push_all(chat, asks) -> tuple[list[np.ndarray], float]:
    """`push_all`'s pieces and the seconds the call took (each piece reports the whole call:
    the player counts it apart from the tokens' time)."""
    began = time.perf_counter()
    made = push_all(chat, asks)
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
