"""Our decode loop over ChatTTS's GPT (see loop.py); importing this package costs nothing.

- llama_step.py: the Llama layers as one TorchScript-able step over a KV cache
- sampling.py:   ChatTTS's sampling rules as one TorchScript-able function
- loop.py:       the per-token steps of both passes, batches, streaming events
- prefill.py:    a batch's prompts (or joining sentences') through the stack into a fresh cache
- row_sampling.py: each row's logits filtered at its own token count, its own random numbers
- pass_output.py: what a pass yields, read off its rows: Progress, then Generated
- step_script.py: the step, filter and draw under TorchScript (eager on any gap)
- modes.py:      DecodeMode (jit, eager, graph, ort, upstream)
- options.py:    DecodeOptions, what benchmarks and tests vary in the loop
- unoptimized.py: calling the int8 step without TorchScript's first-call optimization
- precision.py:  fp32 / bf16 / fp16 / int8 per device (`auto`: int8 on a CPU)
- int8.py:       int8 robust to activation outliers: SmoothQuant folded into the weights, per-channel scales
- int8_rows.py:  int8 Linear layers with per-row activation scales (batch-independent), q/k/v and gate/up fused
- int8_levels.py: how many levels those rows get: 255 where the CPU's kernel sums them exactly
- layer_threads.py: a first start's per-layer conversion work, two layers at a time
- ort_graph.py:  the Llama stack as one ONNX Runtime graph (fused norms, attention, 8/4-bit matmuls)
- ort_step.py:   that graph as the loop's step (`ort`), the loop's KV cache bound in place
- compiled_cache.py: the converted, compiled step kept between starts, keyed and checked
- int8_weights_file.py: that step's int8 matrices in a file beside it, packed back on load
- static_steps.py: fixed-shape steps and CUDA graphs (a GPU's decode)
- memory.py:     batch size from free memory
- row_cap.py:    a CPU's batch cap from the compiled step's measured cost per row, kept beside it
- prompts.py:    prompt embeddings from ChatTTS's own tokenizer, speaker and Embed
- vocoder_stream.py: hidden states -> audio in pieces with seamless joins, on audio/piece_grid.py
- mel_stream.py: the mel decoder streamed layer by layer, keeping each layer's settled frames
- batch.py:      a batch's rows, pieces and cut notices, and the session rows join and leave by
- speech.py:     one batch of sentences through refine, audio codes and the vocoder
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.decode.batch import BatchSession, Cut, CutKind, Piece, Row
    from app.decode.compiled_cache import CompiledCache, model_fingerprint, read_step_in_background
    from app.decode.loop import DecodeLoop
    from app.decode.memory import choose_batch, max_batch
    from app.decode.modes import CHOICES as MODE_CHOICES
    from app.decode.modes import DecodeMode
    from app.decode.options import DEFAULT as DEFAULT_OPTIONS
    from app.decode.options import DecodeOptions
    from app.decode.passes import PassParams
    from app.decode.precision import CHOICES as PRECISION_CHOICES
    from app.decode.precision import Precision, running_note
    from app.decode.precision import resolve as resolve_precision
    from app.decode.row_cap import RowCap
    from app.decode.speech import FastSpeech

__all__ = [
    "DEFAULT_OPTIONS",
    "MODE_CHOICES",
    "PRECISION_CHOICES",
    "BatchSession",
    "CompiledCache",
    "Cut",
    "CutKind",
    "DecodeLoop",
    "DecodeMode",
    "DecodeOptions",
    "FastSpeech",
    "PassParams",
    "Piece",
    "Precision",
    "Row",
    "RowCap",
    "choose_batch",
    "max_batch",
    "model_fingerprint",
    "read_step_in_background",
    "resolve_precision",
    "running_note",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "BatchSession": "app.decode.batch",
        "CompiledCache": "app.decode.compiled_cache",
        "Cut": "app.decode.batch",
        "CutKind": "app.decode.batch",
        "DEFAULT_OPTIONS": "app.decode.options:DEFAULT",
        "DecodeLoop": "app.decode.loop",
        "DecodeMode": "app.decode.modes",
        "DecodeOptions": "app.decode.options",
        "FastSpeech": "app.decode.speech",
        "MODE_CHOICES": "app.decode.modes:CHOICES",
        "PRECISION_CHOICES": "app.decode.precision:CHOICES",
        "PassParams": "app.decode.passes",
        "Piece": "app.decode.batch",
        "Precision": "app.decode.precision",
        "Row": "app.decode.batch",
        "RowCap": "app.decode.row_cap",
        "choose_batch": "app.decode.memory",
        "max_batch": "app.decode.memory",
        "model_fingerprint": "app.decode.compiled_cache",
        "read_step_in_background": "app.decode.compiled_cache",
        "resolve_precision": "app.decode.precision:resolve",
        "running_note": "app.decode.precision",
    },
)
