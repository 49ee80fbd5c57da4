"""Synthesis: a loaded model and the order of work over it.

- chattts_model.py: ChatTTS loaded on a device, its normalizer, the hooks decoders need
- tickets.py:       a request's priority (Priority) and its record in the scheduler
- decoders.py:      decoders as strategies: ChatTTS's Chat.infer, and our loop
- scheduler.py:     batches sentences across requests, priorities, per-request cancel; the
                    running batch's session (join, leave, emit)
- engine.py:        one thread serving many clients through the scheduler
- synthesizer.py:   the model with its voices and text; one request on the caller's thread
- messages.py:      the sentences a result may carry
"""
