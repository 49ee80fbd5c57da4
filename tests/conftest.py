"""Shared fixtures: one tiny random-weight model and one loaded synthesizer per session.

Importing ChatTTS costs seconds, so the model is built and loaded once; tests that damage
a model work on their own copy.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples at every run (derived from each test's name), so a
# failure is reproducible and CI's verdict is the one seen here; HYPOTHESIS_PROFILE=explore
# draws new examples each run, to look for more.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The frozen smoke tests need a built bundle; they run after the build
# (installer/build-and-test.sh, which .ci/run calls), never as skips in the ordinary run.
# A run without a bundle says so at its end, so their absence is never silent.
collect_ignore = [] if os.environ.get("CHATTTS_STUDIO_BUNDLE") else ["frozen"]


def pytest_terminal_summary(terminalreporter):
    if collect_ignore:
        terminalreporter.write_sep("-", "frozen bundle tests", yellow=True)
        terminalreporter.write_line(
            "tests/frozen NOT RUN: no bundle in this run. They run after a build: "
            "bash installer/build-and-test.sh (CI does), or "
            "CHATTTS_STUDIO_BUNDLE=dist/ChatTTSStudio pytest tests/frozen.",
            yellow=True,
        )


@pytest.fixture(autouse=True)
def english_messages(monkeypatch):
    """Tests read English messages whatever the machine's language (the CLI follows LC_ALL,
    LC_MESSAGES, LANG, LANGUAGE), and a test that switches the Qt-free catalog (app.i18n) to
    Chinese does not leave it on for the next one."""
    for name in ("LC_ALL", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LC_MESSAGES", "en_US.UTF-8")
    yield
    from app import i18n

    i18n.set_language("en")


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path, monkeypatch):
    """Every test gets its own settings/cache/log folders and no model folder override."""
    home = tmp_path / "studio-home"
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(home))
    monkeypatch.delenv("CHATTTS_STUDIO_MODEL_DIR", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no test may reach the network
    return home


# bench/mutation.sh runs the tests once per mutant in processes forked from one that already
# ran them. With CHATTTS_STUDIO_TEST_REUSE=<folder>, the tiny model (built in that folder) and
# the loaded synthesizer are made once and inherited by every fork instead of being rebuilt
# in each (a model load per mutant would not fit the time). Ordinary runs never set it.
_REUSE_DIR = os.environ.get("CHATTTS_STUDIO_TEST_REUSE")
_reused: dict = {}


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    from app.selftest.random_model import build_random_model

    if _REUSE_DIR:
        if "model" not in _reused:
            _reused["model"] = build_random_model(Path(_REUSE_DIR) / "tiny", size="tiny", seed=0)
        return _reused["model"]
    return build_random_model(tmp_path_factory.mktemp("models") / "tiny", size="tiny", seed=0)


@pytest.fixture
def model_copy(tiny_model, tmp_path) -> Path:
    """A private copy of the tiny model that a test may damage."""
    target = tmp_path / "model"
    shutil.copytree(tiny_model, target)
    return target


@pytest.fixture(scope="session")
def synthesizer(tiny_model, tmp_path_factory):
    from app.synthesis.synthesizer import Synthesizer

    if _REUSE_DIR and "synthesizer" in _reused:
        return _reused["synthesizer"]

    os.environ["CHATTTS_STUDIO_HOME"] = str(tmp_path_factory.mktemp("synth-home"))
    # bench/gpu_check.sh runs the engine tests on a GPU with CHATTTS_STUDIO_TEST_DEVICE=cuda.
    device = os.environ.get("CHATTTS_STUDIO_TEST_DEVICE", "cpu")
    # fp32 on a CPU (where `auto` is int8): the engine tests compare our loop with ChatTTS's own
    # GPT on the same weights, which a reduced precision replaces.
    synth = Synthesizer(tiny_model, device=device, precision="fp32" if device == "cpu" else "auto")
    synth.load()
    if _REUSE_DIR:
        _reused["synthesizer"] = synth
    return synth


@pytest.fixture(scope="session")
def reference(tiny_model):
    """ChatTTS's own Chat on the tiny model: the reference our parts (model/runtime) and our
    decode loop are tested equal to."""
    from app.model.store import ModelStore
    from app.synthesis.chattts_model import StopFlag, load_chat

    if _REUSE_DIR and "reference" in _reused:
        return _reused["reference"]
    store = ModelStore(tiny_model)
    chat = load_chat(store, "cpu", store.studio_config(), StopFlag(), normalizer=False)
    if _REUSE_DIR:
        _reused["reference"] = chat
    return chat


@pytest.fixture(autouse=True)
def no_running_worker_threads():
    """Fail any test that leaves a synthesis QThread running (napari's rule)."""
    yield
    try:
        from app.workers.threads import running_threads
    except ImportError:
        return
    leaked = running_threads()
    for thread in leaked:
        thread.quit()
        thread.wait(10_000)
    assert not leaked, f"{len(leaked)} synthesis thread(s) still running after the test"
