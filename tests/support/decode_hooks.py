"""Hooks tests put on the decode loop to see what it was asked to do."""


def record_audio_batches(monkeypatch, loop) -> list[int]:
    """The number of sentences of every audio pass the loop starts (which sentences, of which
    requests, shared a batch shows in how many there were)."""
    sizes = []
    real = loop.generate

    def recording(emb, mask, audio, *args, **kwargs):
        if audio:
            sizes.append(emb.shape[0])
        return real(emb, mask, audio, *args, **kwargs)

    monkeypatch.setattr(loop, "generate", recording)
    return sizes
