"""Our decode loop over ChatTTS's GPT: both passes (refine-text tokens, audio codes).

One batch = one KV cache allocated up front, one prefill over the prompt (prefill.py), then one
step per token: heads, sampling (row_sampling.py), next embedding, the compiled Llama step.
Sentences of a batch are left-padded like ChatTTS does, keep their own positions and random
streams, and stop at their own end token, so a sentence decodes to the same tokens alone or in
any batch. Sentences may join a running batch between steps and leave it when they end
(rows_state.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import torch

from app.core import InputTextError, SynthesisCancelled
from app.decode import precision as prec
from app.decode.compiled_cache import LOOK_UP, step_key
from app.decode.llama_step import LlamaStack, rotary_tables
from app.decode.modes import LOOP_CHOICES, DecodeMode
from app.decode.options import DEFAULT, DecodeOptions
from app.decode.pass_output import generated, progress
from app.decode.passes import Generated, PassParams, Progress, nonfinite_error
from app.decode.prefill import join_rows, prefill
from app.decode.row_sampling import filter_rows, row_uniforms
from app.decode.rows_state import Joining, LiveRows, RowTable, leave
from app.decode.sampling import draw, filter_logits, greedy
from app.decode.static_steps import FixedShapeSteps, StaticCaches
from app.decode.step_script import script_step
from app.decode.unoptimized import Unoptimized
from app.i18n import _

if TYPE_CHECKING:
    from app.decode.ort_step import OrtStep
    from app.model import ModelParts


class DecodeLoop(FixedShapeSteps):
    def __init__(
        self,
        parts: ModelParts,
        mode: str = DecodeMode.JIT,
        precision: str = prec.Precision.FP32,
        own_weights: bool = False,
        cache=None,
        step=LOOK_UP,
        options: DecodeOptions = DEFAULT,
    ):
        """`parts`: the model (model/runtime), its Llama's weights included unless `step` brings
        them. `own_weights`: the caller will drop the fp32 Llama, so a reduced precision may
        convert its weights in place instead of copying them. `cache`: a CompiledCache
        (decode/compiled_cache.py) that keeps the converted, compiled step between starts.
        `step`: that cache's entry (or None: none), read before the model was (`read_step`), so
        that the Llama could be loaded without its weights; by default the loop reads it.
        `options`: what benchmarks and tests vary (decode/options.py)."""
        if mode not in LOOP_CHOICES:
            raise ValueError(f"DecodeLoop runs jit, eager or ort, not {mode!r}")
        mode = DecodeMode(mode)
        self.options = options
        llama = parts.llama
        if llama is None:
            raise ValueError("the model's Llama was given to another decode loop")
        self.device = next(llama.parameters()).device
        # `precision_note`: why another precision runs than the one asked for (or None).
        self.precision, self.precision_note = prec.choose(precision, self.device.type)
        if mode is DecodeMode.ORT:
            from app.decode.ort_step import choose_precision

            self.precision, self.precision_note = choose_precision(
                self.precision, self.precision_note, self.device.type
            )
        self.dtype = prec.compute_dtype(self.precision)
        # int8 keeps fp32 activations and cache; only the Linear weights are int8.
        self.cache_dtype = self.dtype
        cfg = llama.config
        self.layers = int(cfg.num_hidden_layers)
        self.heads = int(cfg.num_attention_heads)
        self.head_dim = int(cfg.hidden_size) // self.heads
        self.hidden_size = int(cfg.hidden_size)
        self.intermediate_size = int(cfg.intermediate_size)
        self.num_vq = int(parts.config.gpt.num_vq)
        self.num_audio_tokens = int(parts.config.gpt.num_audio_tokens)
        self._max_positions = int(cfg.max_position_embeddings)
        with torch.no_grad():
            self._cos, self._sin = rotary_tables(
                llama, self._max_positions, self.dtype, self.device
            )
            embed: Any = parts.embed  # weight-normed heads: typed as Tensors, built as modules
            self.emb_text = embed.emb_text.weight.detach()
            self.emb_code = torch.stack([e.weight.detach() for e in embed.emb_code])  # (vq, A, H)
            # weight_norm heads: materialize once; the loop reads plain matrices.
            self.head_text = embed.head_text.weight.detach().clone()
            self.head_code = torch.cat([h.weight.detach() for h in embed.head_code]).clone()
            # A reduced precision's compiled step from the cache skips conversion and compilation
            # (fp32 is not cached: it shares the model's weights, a loaded copy would double them).
            cache_key = step_key(cache, mode, self.precision, self.device, options.int8_recipe)
            if step is LOOK_UP:
                step = cache.load(cache_key, str(self.device)) if cache_key else None
            cached = step
            self._ort: OrtStep | None = None
            if mode is DecodeMode.ORT:
                from app.decode.ort_step import OrtStep

                # The session holds its own copy of the weights: the fp32 stack is not kept.
                self._ort = OrtStep(
                    LlamaStack(llama).eval(),
                    self._cos,
                    self._sin,
                    None if self.precision is prec.Precision.FP32 else 8,
                    self._calibration,
                    in_place=own_weights,
                )
            if cached is None and llama.weightless:
                raise RuntimeError(
                    "the GPT was loaded without weights but no cached step was given"
                )
            stack = (
                None
                if self._ort is not None
                else cached
                if cached is not None
                else prec.convert(
                    LlamaStack(llama).eval(),
                    self.precision,
                    in_place=own_weights,
                    calibration=self._calibration,
                    recipe=options.int8_recipe,
                )
            )
        self.mode = mode
        self.jit_error: str | None = None
        self._filter, self._draw = filter_logits, draw
        self._stack = stack
        self._run: Unoptimized | None = None  # how the compiled int8 step is called
        on_gpu = self.device.type == "cuda"
        # On a GPU, "jit" means each token is one replay of a captured graph of the fixed-shape
        # step; TorchScript is not used there: its fuser compiles ~130 kernels for each new
        # shape while the first requests wait, and the graph already removes launch overhead.
        # "eager" on a GPU is the plain growing loop (the reference the graphs are checked with).
        self.static_steps = self.cuda_graphs = on_gpu and mode is DecodeMode.JIT
        if self.cuda_graphs:
            self.mode = DecodeMode.GRAPH
        elif mode is DecodeMode.JIT:
            calls = script_step(
                stack, self.precision is prec.Precision.INT8 and options.int8_unoptimized
            )
            self._stack, self._filter, self._draw = calls.stack, calls.filter, calls.draw
            self._run = calls.run
            if calls.error is not None:
                self.mode, self.jit_error = DecodeMode.EAGER, calls.error
            if cache_key and cached is None and self.mode is DecodeMode.JIT:
                cache.save_in_background(cache_key, self._stack)
        self.static_caches = StaticCaches(self._zero_cache)
        # The most rows a batch takes, measured for this step on this machine (row_cap.py);
        # None: the device's constant (memory.py).
        self.row_cap: int | None = None
        # Steps between looks at completion and overflow: each look waits for a GPU; on a CPU
        # it costs nothing and ended rows leave the batch at once.
        self.sync_every = 8 if on_gpu else 1
        # Same numbers at any batch size, so a retry or preemption resumes a sentence where it was
        # cut: not on a GPU (other low bits), nor with int8 activation scales that span the batch.
        self.exact_across_batches = not on_gpu and (
            self.precision is not prec.Precision.INT8 or self._int8_rows()
        )

    @property
    def first_calls_cost(self) -> bool:
        """Whether a first request pays for more than later ones (TorchScript optimizing the
        step on its first runs), so that a warm-up sentence saves a user's first Play more than
        it costs one pressed while it runs: not for the unoptimized int8 step, whose first calls
        cost what later ones do, so a warm-up there only delays a Play pressed at ready
        (bench/first_call.py, bench/startup.py; figures:
        docs/design/constants.md#warm-up-and-the-unoptimized-int8-step)."""
        return self._run is None

    def _int8_rows(self) -> bool:
        from app.decode.int8 import RECIPE

        return (self.options.int8_recipe or RECIPE).rows

    def _calibration(self):
        """What int8 smoothing measures activations on: a fixed prompt of the model's embeddings."""
        from app.decode.int8 import calibration_prompt

        return (
            calibration_prompt(self.emb_text, self.emb_code).to(self.device),
            self._cos,
            self._sin,
        )

    # -- pieces the loop (and tests) use ------------------------------------------------
    def allocate_cache(
        self, batch: int, length: int, make=torch.empty
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The growing step reads only what it wrote, so on a CPU the cache can stay untouched
        (not resident) beyond the sentence's real length: 264 MB a sentence for the default
        2,048-token limit otherwise."""
        shape = (self.layers, batch, self.heads, length, self.head_dim)
        return (
            make(shape, dtype=self.cache_dtype, device=self.device),
            make(shape, dtype=self.cache_dtype, device=self.device),
        )

    def _zero_cache(self, batch: int, length: int) -> tuple[torch.Tensor, torch.Tensor]:
        # The fixed-shape step reads every slot of its bucket (masked, but garbage could be NaN,
        # and 0 x NaN is NaN), so its cache starts as zeros; later requests leave finite values.
        return self.allocate_cache(batch, length, torch.zeros)

    def cache_bytes_per_row(self, length: int) -> int:
        element = torch.empty(0, dtype=self.cache_dtype).element_size()
        return 2 * self.layers * self.heads * length * self.head_dim * element

    def rotary(self, positions_per_row: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self._cos[positions_per_row].unsqueeze(1), self._sin[positions_per_row].unsqueeze(1)

    def run_stack(
        self, x, positions_per_row, mask, k, v, write_at: torch.Tensor, length: int
    ) -> torch.Tensor:
        if self._ort is not None:
            return self._ort(x, positions_per_row, mask, k, v, write_at, length)
        cos, sin = self.rotary(positions_per_row)
        return (self._run or self._stack)(x.to(self.dtype), cos, sin, mask, k, v, write_at, length)

    def logits(self, hidden: torch.Tensor, audio: bool) -> torch.Tensor:
        if audio:
            return (hidden @ self.head_code.t()).view(-1, self.num_audio_tokens)
        return hidden @ self.head_text.t()

    def embed_tokens(self, tokens: torch.Tensor, audio: bool) -> torch.Tensor:
        if audio:  # (B, vq) codes: the sum of one embedding per codebook, as ChatTTS does
            summed = self.emb_code[0][tokens[:, 0]]
            for q in range(1, self.num_vq):
                summed = summed + self.emb_code[q][tokens[:, q]]
            return summed.unsqueeze(1)
        return self.emb_text[tokens].unsqueeze(1)

    # -- the loop -----------------------------------------------------------------------
    @torch.inference_mode()
    def generate(
        self,
        emb: torch.Tensor,
        attention_mask: torch.Tensor,
        audio: bool,
        params: PassParams,
        seeds: list[int],
        eos: int,
        cancel: threading.Event | None = None,
        stream_every: int = 0,
        admit: Callable[[int], Joining | None] | None = None,
        gone: Callable[[], list[int]] | None = None,
    ) -> Iterator[Progress | Generated]:
        """Yield Progress every `stream_every` tokens (0: never), then the Generated result.

        `admit(live)`, asked before every step with the number of rows still decoding, may
        return sentences that join the batch there (not with fixed-shape steps); their rows
        come after those already in it. `gone()`, asked there too, names rows that stop and
        leave the batch at once (their requests were cancelled; not with fixed-shape steps)."""
        batch, prompt_len = emb.shape[0], emb.shape[1]
        self._check_length(prompt_len, params.max_new_tokens)
        total = prompt_len + params.max_new_tokens
        per_row = self.num_vq if audio else 1
        static = self.static_steps
        entry = None
        if static:
            entry = self.static_entry(batch, total)
            total = entry.capacity
            k_cache, v_cache = entry.k, entry.v
        else:
            k_cache, v_cache = self.allocate_cache(batch, total)
        mask_in = attention_mask.to(self.device).bool()
        valid = torch.ones(batch, total, dtype=torch.bool, device=self.device)
        valid[:, :prompt_len] = mask_in
        steps_max = params.max_new_tokens
        table = RowTable(
            self,
            batch,
            per_row,
            steps_max,
            audio,
            None if params.greedy else row_uniforms(seeds, steps_max, per_row, self.device),
        )
        live = LiveRows(
            torch.arange(batch, device=self.device),
            per_row,
            valid,
            mask_in.long().sum(-1),
            k_cache,
            v_cache,
            float(params.temperature),
        )
        del k_cache, v_cache
        slots = torch.arange(total, device=self.device)
        hidden = prefill(self.run_stack, emb, mask_in, live.k, live.v)
        # Every host read waits for the GPU: there, look at completion and bad numbers only
        # every few steps (rows that ended meanwhile just run on; their lengths stop growing).
        check_every = min(stream_every or self.sync_every, self.sync_every)
        at = prompt_len  # the cache slot the next step writes
        i = 0
        while True:
            if gone is not None and not static:
                hidden = leave(table, live, hidden, gone(), at)
                if not live.id_list:
                    break
            if admit is not None and not static:
                joining = admit(live.ids.numel())
                if joining is not None and joining.emb.shape[0]:
                    self._check_length(joining.emb.shape[1], params.max_new_tokens)
                    hidden, at = join_rows(
                        self.run_stack,
                        self.allocate_cache,
                        table,
                        live,
                        hidden,
                        joining,
                        at,
                        i,
                        params,
                    )
                    slots = torch.arange(live.valid.shape[1], device=self.device)
            # Each row's own token count: rows that joined later are earlier in their sentence.
            t_list = [i - table.start[r] for r in live.id_list]
            t_at = t_list[0] if len(set(t_list)) == 1 else torch.tensor(t_list, device=self.device)
            table.nonfinite[live.ids] |= ~torch.isfinite(hidden).all(-1) & ~table.finished[live.ids]
            logits = self.logits(hidden, audio)
            filtered = self.filter_step(logits, table, live, t_list, params, eos)
            if table.uniforms is None:
                picked = greedy(filtered)
            else:
                picked = self._draw(filtered, table.uniforms[live.ids, t_at].reshape(-1, 1))
            token_t = t_at if isinstance(t_at, int) else t_at.repeat_interleave(per_row)
            table.generated[live.token_rows, token_t] = picked
            if audio:
                codes = picked.view(-1, self.num_vq)
                table.audio_hiddens()[live.ids, t_at] = hidden
                ended = codes.eq(eos).any(1)
            else:
                codes = picked
                ended = picked.eq(eos)
            table.finished[live.ids] |= ended
            table.lengths[live.ids] += (~table.finished[live.ids]).long()
            at_limit = torch.tensor([t + 1 >= steps_max for t in t_list], device=self.device)
            leaving = ended | at_limit
            table.done[live.ids] |= leaving
            i += 1
            if i % check_every == 0 or min(t_list) + 1 >= steps_max:
                if bool(table.nonfinite.any()):
                    self.release_static()
                    raise nonfinite_error(self.precision, table.nonfinite)
                if bool(table.done.all()):
                    break
            if stream_every and i % stream_every == 0:
                yield progress(table, audio, i)
            if cancel is not None and cancel.is_set():
                raise SynthesisCancelled(_("Synthesis was stopped."))
            if not static and bool(leaving.any()):
                # Ended sentences leave the batch: on a CPU a step costs more for every row.
                stay = ~leaving
                live.keep(stay, written=at)
                codes = codes[stay]
                t_list = [t for t, s in zip(t_list, stay.tolist()) if s]
            t_next = (
                t_list[0] if len(set(t_list)) == 1 else torch.tensor(t_list, device=self.device)
            )
            x, rows_at = self.embed_tokens(codes, audio), (live.next_position + t_next)[:, None]
            if not static:  # attend to what has been written so far
                out = self.run_stack(
                    x,
                    rows_at,
                    live.valid[:, None, None, : at + 1],
                    live.k,
                    live.v,
                    slots[at : at + 1],
                    at + 1,
                )
            else:  # fixed shapes: a length bucket, the future masked
                out = self._static_step(entry, x, rows_at, live.valid, slots, at)
            hidden = out[:, -1]
            at += 1
        del live
        yield generated(table, audio)  # every row is done by now

    def _check_length(self, prompt_len: int, max_new_tokens: int) -> None:
        if prompt_len + max_new_tokens > self._max_positions:
            raise InputTextError(
                _(
                    "A sentence of {prompt} prompt tokens with up to {limit} audio tokens exceeds the model's "
                    "{positions} positions; lower the token limit ({option}) to {most} or less."
                ).format(
                    prompt=prompt_len,
                    limit=max_new_tokens,
                    positions=self._max_positions,
                    option="--max-tokens",
                    most=max(1, self._max_positions - prompt_len),
                )
            )

    def fits(self, prompt_len: int, max_new_tokens: int) -> bool:
        """Whether a sentence of this prompt and token limit fits the model's positions."""
        return prompt_len + max_new_tokens <= self._max_positions

    def filter_step(
        self,
        logits: torch.Tensor,
        table: RowTable,
        live: LiveRows,
        t_list: list[int],
        params: PassParams,
        eos: int,
    ) -> torch.Tensor:
        """One step's raw logits of the live rows (`live.ids`, at their token counts `t_list`),
        filtered for sampling (row_sampling.py): the one call per step that is given them."""
        return filter_rows(self._filter, logits, table, live, t_list, params, eos)
