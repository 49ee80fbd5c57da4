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


def record_batch_rows(monkeypatch, loop) -> list[list[int]]:
    """Per audio pass the loop starts: the number of sentences it started with, then of each
    group that joined it while it ran."""
    passes = []
    real = loop.generate

    def recording(emb, mask, audio, *args, admit=None, **kwargs):
        if audio:
            rows = [emb.shape[0]]
            passes.append(rows)
            if admit is not None:
                inner = admit

                def admit(live):
                    joining = inner(live)
                    if joining is not None:
                        rows.append(joining.emb.shape[0])
                    return joining

        return real(emb, mask, audio, *args, admit=admit, **kwargs)

    monkeypatch.setattr(loop, "generate", recording)
    return passes
