"""The real openai client against the speech server: every format decodes at 24 kHz, the body
streams before the request ends, concurrent clients each get the audio they would get alone,
a client that leaves cancels its job, and the voices it can name."""

from __future__ import annotations

import io
import threading

import numpy as np
import pytest

from app.core.request import SynthesisRequest
from app.library.voices import Voice, VoiceLibrary
from app.server.encoders import FORMATS, to_s16le
from app.server.speech_request import chattts_speed
from app.server.voices import OPENAI_VOICES
from tests.server.conftest import FAST, Gate, fast_sampling, wait_for
from tests.support.decode_hooks import step_hooked

TEXT = "Hello there. How are you today?"


def _state(**fields):
    return {"sampling": fast_sampling(), **FAST, **fields}


def _decode(fmt: str, data: bytes) -> tuple[np.ndarray, int]:
    if fmt == "pcm":
        return np.frombuffer(data, dtype="<i2"), 24_000
    if fmt == "aac":
        import av

        with av.open(io.BytesIO(data)) as container:
            frames = [f.to_ndarray().reshape(-1) for f in container.decode(audio=0)]
            rate = container.streams.audio[0].sample_rate
        return np.concatenate(frames), rate
    import soundfile as sf

    audio, rate = sf.read(io.BytesIO(data), dtype="float32")
    return audio, rate


def _alone(synthesizer, text: str, seed: int, sampling=None) -> np.ndarray:
    request = SynthesisRequest(text, seed=seed, sampling=sampling or fast_sampling(), **FAST)
    return np.frombuffer(to_s16le(synthesizer.run(request).audio), dtype="<i2")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_decodes_at_24_khz(serve, engine, fmt):
    server = serve(engine, **_state())
    reply = server.client().audio.speech.create(
        model="tts-1", voice="alloy", input=TEXT, response_format=fmt
    )
    audio, rate = _decode(fmt, reply.content)
    assert rate == 24_000
    assert audio.size > 0


def test_pcm_is_the_audio_the_synthesizer_makes_alone(serve, engine, synthesizer):
    alone = _alone(synthesizer, TEXT, OPENAI_VOICES["echo"])
    server = serve(engine, **_state())
    reply = server.client().audio.speech.create(
        model="chattts", voice="echo", input=TEXT, response_format="pcm"
    )
    heard = np.frombuffer(reply.content, dtype="<i2")
    assert heard.shape == alone.shape
    np.testing.assert_allclose(heard.astype(int), alone.astype(int), atol=1)


def test_streaming_gives_bytes_before_the_request_ends(serve, engine):
    gate = Gate()
    server = serve(engine, wrap_submit=gate, **_state())
    client = server.client(timeout=120)
    with client.audio.speech.with_streaming_response.create(
        model="tts-1", voice="nova", input=TEXT, response_format="wav"
    ) as response:
        chunks = response.iter_bytes()
        first = next(chunks)
        # The job's end is held back: these bytes were sent while the request was unfinished.
        assert not gate.event.is_set() and server.state.active == 1
        assert first[:4] == b"RIFF"
        gate.open()
        rest = b"".join(chunks)
    import soundfile as sf

    audio, rate = sf.read(io.BytesIO(first + rest))
    assert rate == 24_000 and audio.size > 0


def test_sse_stream_carries_base64_audio_then_done(serve, engine):
    import base64
    import json

    server = serve(engine, **_state())
    client = server.client()
    with client.audio.speech.with_streaming_response.create(
        model="tts-1", voice="nova", input=TEXT, response_format="pcm", stream_format="sse"
    ) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [
            json.loads(line[len("data: ") :])
            for line in response.iter_lines()
            if line.startswith("data: ")
        ]
    assert events[-1]["type"] == "speech.audio.done"
    pcm = b"".join(
        base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta"
    )
    assert len(pcm) > 0 and len(pcm) % 2 == 0


@pytest.fixture(scope="module")
def int8_engine(tiny_model, tmp_path_factory):
    """An engine over the tiny model in int8, what `auto` runs on a CPU (the session's
    synthesizer is fp32)."""
    from app.synthesis.engine import Engine
    from app.synthesis.synthesizer import Synthesizer

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHATTTS_STUDIO_HOME", str(tmp_path_factory.mktemp("int8-home")))
        synth = Synthesizer(tiny_model, device="cpu", precision="int8")
        synth.load(verify=False, warm_up=False)
    assert synth.decode_label == "jit-int8"
    eng = Engine(synth)
    yield eng
    eng.close(30)


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_concurrent_clients_each_get_the_audio_they_would_get_alone(serve, request, precision):
    """Their sentences share decode batches, and each client still hears exactly its own
    audio: in int8 too, whose activation scales are per row (decode/int8_rows.py)."""
    from app.core.request import SamplingParams

    engine = request.getfixturevalue("engine" if precision == "fp32" else "int8_engine")
    synthesizer = engine.synthesizer
    asks = [
        ("你好，世界。Then again.", 11),
        ("Hello there, a longer sentence than the first. More words.", 22),
        ("再见。第二句话。", 33),
    ]
    sampling = SamplingParams(max_new_tokens=24, min_new_tokens=24)  # every row runs all steps
    alone = [_alone(synthesizer, text, seed, sampling) for text, seed in asks]
    server = serve(engine, **_state(sampling=sampling))
    heard: dict[int, np.ndarray] = {}
    errors = []

    def ask(i, text, seed):
        try:
            reply = server.client(timeout=300).audio.speech.create(
                model="tts-1", voice=f"seed:{seed}", input=text, response_format="pcm"
            )
            heard[i] = np.frombuffer(reply.content, dtype="<i2")
        except Exception as exc:  # reported below, with the others' results
            errors.append(exc)

    rows_per_step: list[int] = []
    synthesizer.loop.filter_step = step_hooked(
        synthesizer.loop, lambda step, logits, rows: rows_per_step.append(rows.numel())
    )
    held = threading.Event()

    def hold():
        """The engine's thread waits here until all three requests are in, so their first
        sentences start in one batch (however the threads happen to be scheduled)."""
        held.set()
        wait_for(lambda: len(engine.scheduler._tickets) >= len(asks), "three requests waiting")

    holder = threading.Thread(target=engine.call, args=(hold,))
    holder.start()
    held.wait(60)
    threads = [threading.Thread(target=ask, args=(i, *a)) for i, a in enumerate(asks)]
    try:
        for t in threads:
            t.start()
        for t in threads + [holder]:
            t.join(300)
    finally:
        del synthesizer.loop.filter_step  # the step hook off again
    assert not errors
    assert rows_per_step[0] == len(asks), rows_per_step  # the three first sentences at once
    for i, expected in enumerate(alone):
        assert heard[i].shape == expected.shape
        np.testing.assert_allclose(heard[i].astype(int), expected.astype(int), atol=1)


def test_a_client_that_leaves_cancels_its_job(serve, engine):
    gate = Gate()
    server = serve(engine, wrap_submit=gate, **_state())
    client = server.client(timeout=120)
    with client.audio.speech.with_streaming_response.create(
        model="tts-1", voice="nova", input=TEXT, response_format="pcm"
    ) as response:
        next(response.iter_bytes())
    # The connection is closed with the job unfinished (its end is held by the gate).
    wait_for(lambda: gate.jobs[0].ticket.cancelled, "the job was cancelled")
    wait_for(lambda: server.state.active == 0, "the request's place was freed")
    gate.open()


def test_voices_lists_openai_names_and_saved_voices_which_speak(
    serve, engine, synthesizer, tmp_path
):
    library = VoiceLibrary(tmp_path / "voices")
    library.save(Voice(name="Narrator", speaker=synthesizer.speaker_for_seed(7), seed=7))
    server = serve(engine, voices=library, **_state())
    import httpx

    listed = httpx.get(server.url + "/v1/voices").json()["data"]
    names = {v["name"]: v for v in listed}
    assert set(OPENAI_VOICES) <= set(names) and names["Narrator"]["kind"] == "saved"
    client = server.client()
    by_name = client.audio.speech.create(
        model="tts-1", voice="Narrator", input=TEXT, response_format="pcm"
    )
    by_seed = client.audio.speech.create(
        model="tts-1", voice="seed:7", input=TEXT, response_format="pcm"
    )
    by_string = client.audio.speech.create(
        model="tts-1", voice=synthesizer.speaker_for_seed(7), input=TEXT, response_format="pcm"
    )
    # The saved voice is seed 7's speaker and sampling seed: the same audio as seed:7.
    assert by_name.content == by_seed.content
    assert len(by_string.content) > 0


def test_models_lists_ours_and_openai_aliases(serve, engine):
    ids = {m.id for m in serve(engine).client().models.list()}
    assert {"chattts", "tts-1", "tts-1-hd"} <= ids


@pytest.mark.parametrize(
    "speed, level", [(0.25, 1), (0.5, 3), (1.0, 5), (2.0, 7), (4.0, 9), (1.2, 6)]
)
def test_openai_speed_maps_onto_chattts_levels(speed, level):
    assert chattts_speed(speed) == level
