"""The window's controllers without a window: the real synthesis and doctor workers on their
threads, the tiny model, a fake sound output; what each controller emits and which state it
is in."""

import numpy as np
import pytest
import soundfile as sf

from app.core import ModelKind
from app.core.device import DeviceOption
from app.core.errors import InputTextError, ParameterError
from app.core.request import SamplingParams, SynthesisRequest, SynthesisResult
from app.doctor.recommendation import Because, Recommendation
from app.selftest.fake_audio import FakeOutput
from app.ui.controllers import (
    DoctorController,
    HistoryController,
    ModelController,
    ModelState,
    NotReady,
    SpeechController,
)
from app.workers.synthesis_worker import WorkerThread
from tests.ui.conftest import LOAD_TIMEOUT_MS, RUN_TIMEOUT_MS
from tests.ui.test_doctor_ui import snapshot_probe


@pytest.fixture
def synthesis():
    thread = WorkerThread()
    yield thread
    assert thread.shutdown()


def _states(model):
    seen = []
    model.stateChanged.connect(seen.append)
    return seen


def test_model_states_missing_then_loading_then_ready(
    qtbot, settings, synthesis, tiny_model, tmp_path
):
    settings.model_dir = str(tmp_path / "empty")
    model = ModelController(settings, synthesis)
    seen = _states(model)
    assert model.check_presence() is False
    assert seen == [ModelState.MISSING] and model.missing_folder == str(tmp_path / "empty")
    seen.clear()
    with qtbot.waitSignal(
        model.stateChanged, check_params_cb=lambda s: s is ModelState.READY, timeout=LOAD_TIMEOUT_MS
    ):
        model.set_model_dir(str(tiny_model))
    assert seen == [ModelState.UNKNOWN, ModelState.LOADING, ModelState.READY]
    assert settings.model_dir == str(tiny_model)
    assert model.status.model_kind is ModelKind.RANDOM_WEIGHTS and model.makes_noise()
    assert model.status.root == str(tiny_model)
    assert model.synthesizer() is not None and model.error is None


def test_a_damaged_model_fails_with_the_engine_s_sentence(qtbot, settings, synthesis, model_copy):
    (model_copy / "asset" / "Vocos.safetensors").write_bytes(b"not a model")
    settings.model_dir = str(model_copy)
    model = ModelController(settings, synthesis)
    with qtbot.waitSignal(
        model.stateChanged,
        check_params_cb=lambda s: s is ModelState.FAILED,
        timeout=LOAD_TIMEOUT_MS,
    ):
        model.load()
    assert "Vocos.safetensors" in model.error and model.status is None


def test_the_doctor_s_device_is_used_unless_settings_name_one(settings, synthesis):
    model = ModelController(settings, synthesis)
    gpu = Recommendation(
        DeviceOption.CUDA, Because.GPU_WORKS, "The NVIDIA GPU works with this PyTorch."
    )
    model.use_recommendation(type("Report", (), {"recommendation": gpu})())
    assert model.effective_device() == "cuda"
    settings.device = "cpu"
    assert model.effective_device() == "cpu"


@pytest.fixture
def ready(qtbot, settings, synthesis):
    """A model controller with the tiny model loaded, and a speech controller on a fake output."""
    model = ModelController(settings, synthesis)
    speech = SpeechController(synthesis, model, FakeOutput())
    assert model.check_presence()
    with pytest.raises(NotReady):  # refused until the model is loaded
        speech.start(SynthesisRequest("你好。"))
    with qtbot.waitSignal(
        model.stateChanged, check_params_cb=lambda s: s is ModelState.READY, timeout=LOAD_TIMEOUT_MS
    ):
        model.load()
    return model, speech


def test_speech_streams_a_request_and_reports_it_once(qtbot, ready):
    _model, speech = ready
    busy, done = [], []
    speech.busyChanged.connect(busy.append)
    speech.finished.connect(lambda *args: done.append(args))
    request = SynthesisRequest(
        "你好，世界。", refine_text=False, sampling=SamplingParams(max_new_tokens=64)
    )
    with qtbot.waitSignal(speech.finished, timeout=RUN_TIMEOUT_MS):
        with qtbot.waitSignal(speech.started, timeout=1_000):
            assert speech.start(request, audition=True)
        assert speech.busy
        assert speech.start(SynthesisRequest("另一个。")) is False  # one at a time
    ((got_request, result, audition),) = done
    assert got_request is request and audition is True
    assert busy == [True, False] and not speech.busy
    assert speech.output.ended and np.allclose(speech.output.played(), result.audio)
    # Each piece went to the output with its sentence, the last one marked, for the buffer.
    segments = speech.output.segments
    assert [index for index, _final in segments] == sorted(index for index, _final in segments)
    assert segments[-1][1] is True
    # ... with the time its vocoder call took, which the player's grid rule sets apart.
    assert len(speech.output.vocoder_seconds) == len(segments)
    assert all(
        seconds > 0
        for seconds, chunk in zip(speech.output.vocoder_seconds, speech.output.chunks)
        if chunk.size
    )


def test_saved_audio_goes_to_the_output_whole_and_final(ready):
    """History and narration replays: one complete segment, so the player starts it at once."""
    _model, speech = ready
    audio = np.linspace(-0.5, 0.5, 2400, dtype=np.float32)
    assert speech.play_audio(audio, 24_000)
    assert speech.output.segments == [(0, True)] and np.array_equal(speech.output.played(), audio)


def test_speech_refuses_what_cannot_run_without_starting(ready):
    _model, speech = ready
    with pytest.raises(InputTextError):
        speech.start(SynthesisRequest("   "))
    with pytest.raises(ParameterError):
        speech.start(SynthesisRequest("你好。", sampling=SamplingParams(top_p=5)))
    assert not speech.busy and speech.output.starts == 0


def test_stop_ends_at_once_and_the_worker_confirms(qtbot, ready):
    _model, speech = ready
    done = []
    speech.finished.connect(lambda *args: done.append(args))
    speech.start(SynthesisRequest("这是一段要被停止的话。" * 5, refine_text=False))
    with qtbot.waitSignal(speech.stopConfirmed, timeout=RUN_TIMEOUT_MS):
        with qtbot.waitSignal(speech.stopped, timeout=1_000):
            speech.stop()
        assert not speech.busy and not speech.output.is_active()
    assert done == []


def _result():
    return SynthesisResult(np.zeros(2400, dtype=np.float32), 24000, "cpu", "", 1, 1, 0.1)


def test_history_records_deletes_and_exports(qtbot, tmp_path):
    history = HistoryController()
    with qtbot.waitSignals([history.changed, history.added], order="strict"):
        entry = history.record(SynthesisRequest("kept"), _result(), ModelKind.RANDOM_WEIGHTS)
    assert [e.id for e in history.entries()] == [entry.id]
    path = history.export_to(entry.id, str(tmp_path / "out.wav"))
    assert sf.info(str(path)).frames == 2400
    with qtbot.waitSignal(history.changed):
        history.delete(entry.id)
    assert history.entries() == []


def test_history_says_when_a_result_cannot_be_kept(qtbot, monkeypatch):
    from app.core.errors import OutputError
    from app.library import history as history_module

    history = HistoryController()
    monkeypatch.setattr(
        history_module,
        "write_wav",
        lambda *_a, **_k: (_ for _ in ()).throw(OutputError("the disk is full")),
    )
    with qtbot.waitSignal(
        history.notSaved, check_params_cb=lambda reason: "disk is full" in reason
    ):
        assert history.record(SynthesisRequest("lost"), _result(), ModelKind.RANDOM_WEIGHTS) is None


def test_a_library_that_cannot_open_gives_a_temporary_one_and_says_why(unopenable_library):
    history = HistoryController()
    assert history.problem == unopenable_library
    entry = history.record(SynthesisRequest("still works"), _result(), ModelKind.RANDOM_WEIGHTS)
    assert entry is not None
    # It lives in a temporary folder for this session, which closing removes.
    scratch = history._store.library.root
    assert scratch.is_dir() and history.audio(entry) is not None
    history.close()
    assert not scratch.exists()
    history.close()  # twice is harmless


def test_closing_a_history_on_the_user_s_library_removes_nothing(tmp_path):
    from app.library import HistoryStore, Library

    history = HistoryController(HistoryStore(Library(tmp_path / "lib")))
    assert history.record(SynthesisRequest("kept"), _result(), ModelKind.RANDOM_WEIGHTS) is not None
    history.close()
    assert (tmp_path / "lib" / "library.sqlite3").exists()
    assert len(HistoryController(HistoryStore(Library(tmp_path / "lib"))).entries()) == 1


@pytest.fixture
def doctor_for(tmp_path):
    made = []

    def make(factory):
        made.append(DoctorController(lambda: tmp_path, factory))
        return made[-1]

    yield make
    for doctor in made:
        assert doctor.shutdown()


def test_doctor_reports_and_names_the_problems_that_affect_synthesis(qtbot, doctor_for):
    probe = snapshot_probe("win_cpu_torch_rtx")
    doctor = doctor_for(probe)
    with qtbot.waitSignal(doctor.started, check_params_cb=lambda quick: quick is True):
        with qtbot.waitSignal(doctor.reportReady, timeout=LOAD_TIMEOUT_MS) as got:
            doctor.run(quick=True)
    assert got.args[1] is True and doctor.report is got.args[0] and probe.calls == [True]
    ids = [r.id for r in doctor.problems()]
    assert "torch_build" in ids and "model_files" not in ids


def test_a_crashing_doctor_is_one_sentence(qtbot, doctor_for):
    def broken(_folder, _quick):
        raise OSError("probe exploded")

    doctor = doctor_for(broken)
    with qtbot.waitSignal(doctor.failed, timeout=LOAD_TIMEOUT_MS) as got:
        doctor.run(quick=False)
    assert (
        got.args[0].startswith("The diagnostics could not run") and "probe exploded" in got.args[0]
    )
    assert doctor.report is None and doctor.problems() == []


def test_doctor_judges_its_report_again_in_a_new_language(qtbot, doctor_for):
    from app import i18n

    doctor = doctor_for(snapshot_probe("win_cpu_torch_rtx"))
    with qtbot.waitSignal(doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
        doctor.run(quick=True)
    assert doctor.follow_language() is False
    i18n.set_language("zh_CN")
    assert doctor.follow_language() is True
    assert doctor.report.language == "zh_CN" and "仅支持 CPU" in doctor.problems()[0].summary
    assert doctor.follow_language() is False
