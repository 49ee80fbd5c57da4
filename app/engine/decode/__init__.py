"""Our decode loop over ChatTTS's GPT (see loop.py); importing this package costs nothing.

- llama_step.py: the Llama layers as one TorchScript-able step over a KV cache
- sampling.py:   ChatTTS's sampling rules as one TorchScript-able function
- loop.py:       prefill + per-token steps for both passes, batches, streaming events
- modes.py:      DecodeMode (jit, eager, graph, upstream)
- options.py:    DecodeOptions, what benchmarks and tests vary in the loop
- unoptimized.py: calling the int8 step without TorchScript's first-call optimization
- precision.py:  fp32 / bf16 / fp16 / int8 per device (`auto`: int8 on a CPU)
- int8.py:       int8 robust to activation outliers: SmoothQuant folded into the weights, per-channel scales
- int8_rows.py:  int8 Linear layers with per-row activation scales (batch-independent), q/k/v and gate/up fused
- static_steps.py: fixed-shape steps and CUDA graphs (a GPU's decode)
- memory.py:     batch size from free memory
- prompts.py:    prompt embeddings from ChatTTS's own tokenizer, speaker and Embed
- vocoder_stream.py: hidden states -> audio in pieces with seamless joins, on audio/piece_grid.py
- mel_stream.py: the mel decoder streamed layer by layer, keeping each layer's settled frames
- batch.py:      a batch's rows, pieces and cut notices, and the session rows join and leave by
- speech.py:     one batch of sentences through refine, audio codes and the vocoder
"""
