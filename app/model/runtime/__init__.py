"""The model's runtime, built from the model's files by our own code: no ChatTTS, no transformers.

`import ChatTTS` costs seconds (transformers' Llama, torch._dynamo through vector_quantize_pytorch,
numba; docs/design/constants.md#a-start-without-chattts), and none of it is needed to synthesize: these
modules build the tokenizer, the speaker rules, the embedding tables and heads, the mel decoder, the
vocoder and the GPT's Llama from the same files, with the same classes of torch and `tokenizers`
where ChatTTS uses those (the vocoder is `vocos`'s built layer for layer, without importing that
package), and each is checked equal to ChatTTS's own on the test model
(tests/engine/test_runtime_parts.py). ChatTTS stays the reference of the tests and benchmarks and
the `--decode upstream` way out (synthesis/chattts_model.py).

- config.py:    the numbers ChatTTS's Config holds, for the official model or a test model
- tokenizer.py: ChatTTS's Tokenizer over the `tokenizers` library
- speaker.py:   ChatTTS's Speaker rules (prompt decoration, speaker embedding)
- nets.py:      the Embed tables and heads, the mel decoder, the vocoder
- vocos_net.py: ChatTTS's Vocos (mel frames -> samples) without the `vocos` package
- llama.py:     the GPT's Llama from its checkpoint (or its shell, for a cached decode step)
- tensor_file.py: a safetensors file's tensors read into memory of their own, not mapped
- encoder.py:   ChatTTS's DVAE as an audio encoder (a recording -> a voice's codes)
- failures.py:  a load's failures as the user's sentence
- zero_init.py: building modules without PyTorch's random initial weights
- parts.py:     ModelParts, all of the above on one device; ChatTTS only on demand (voice
                cloning where the DVAE file cannot build the encoder)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.model.runtime.parts import ModelParts, load_parts

__all__ = ["ModelParts", "load_parts"]


def __getattr__(name: str) -> Any:
    # On first use: importing the package (runtime/failures.py for ChatTTS's loader) must not
    # import torch, so that the window appears first.
    if name in __all__:
        from app.model.runtime import parts

        return getattr(parts, name)
    raise AttributeError(name)
