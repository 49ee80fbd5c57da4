"""ChatTTS's parts around the decode step, without importing ChatTTS or transformers.

`import ChatTTS` costs seconds (transformers' Llama, torch._dynamo through vector_quantize_pytorch,
numba; docs/design/constants.md#the-light-start), yet a start whose int8 or bf16 step comes from the
compiled cache (decode/compiled_cache.py) needs none of that: only the tokenizer, the speaker rules,
the embedding tables and heads, the mel decoder and the vocoder. These modules rebuild them from the
same files, with the same classes of torch, `tokenizers` and `vocos` where ChatTTS uses those, and
each is checked equal to ChatTTS's own on the test model (tests/engine/test_light_parts.py).

- config.py:    the numbers ChatTTS's Config holds, for the official model or a test model
- tokenizer.py: ChatTTS's Tokenizer over the `tokenizers` library
- speaker.py:   ChatTTS's Speaker rules (prompt decoration, speaker embedding)
- nets.py:      the Embed tables and heads, the mel decoder, the vocoder, the Llama's shell
- chat.py:      LightChat, what our decoders ask of ChatTTS's Chat; real ChatTTS only on
                demand (voice cloning from a recording)
"""
