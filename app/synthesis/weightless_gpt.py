"""ChatTTS's GPT without its weights, for a start whose converted decode step comes from the
compiled-step cache (decode/compiled_cache.py): the step holds its own int8 or bf16 weights, so
reading the fp32 Llama (about 0.9 GB for the official model) only to drop it again would cost
the start its time and its peak memory. What the decode loop still asks of the Llama is here:
its config, its rotary tables (computed from the config, never stored in the weights) and the
device it is on.
"""

from __future__ import annotations

import contextlib


def _shell_class():
    import torch
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    class WeightlessLlama(torch.nn.Module):
        weightless = True

        def __init__(self, config):
            super().__init__()
            self.config = config
            self.rotary_emb = LlamaRotaryEmbedding(config=config)
            self.embed_tokens = torch.nn.Identity()  # ChatTTS deletes it after loading
            # One empty parameter: where the model is, as `next(llama.parameters()).device` asks.
            self.device_probe = torch.nn.Parameter(torch.zeros(0), requires_grad=False)

    return WeightlessLlama


@contextlib.contextmanager
def gpt_without_weights():
    """Within this block, ChatTTS's `LlamaModel.from_pretrained(folder)` reads the folder's
    config only and gives a WeightlessLlama."""
    import ChatTTS.model.gpt as gpt_module
    from transformers import LlamaConfig

    shell = _shell_class()

    class _Loader:
        @staticmethod
        def from_pretrained(folder, *args, **kwargs):
            return shell(LlamaConfig.from_pretrained(folder))

    real = gpt_module.LlamaModel
    gpt_module.LlamaModel = _Loader
    try:
        yield
    finally:
        gpt_module.LlamaModel = real
