"""`chattts-studio self-test`: does this installation (source or frozen) actually work?

Each step is a small function returning a detail string or raising; the report says which
step failed and why, in one sentence, and the command exits non-zero. Steps: PyTorch
imports (build and CUDA status), resources are present, one sentence in each language is
split and read right, the main window builds (offscreen only without a display),
and a tiny random-weight model speaks a sentence to a WAV through the normal code path.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

from app.i18n import _


@dataclass
class Step:
    name: str
    ok: bool
    seconds: float
    detail: str


def step_torch() -> str:
    import torch

    cuda = torch.version.cuda
    available = torch.cuda.is_available()
    build = _("CUDA {version} build").format(version=cuda) if cuda else _("CPU build")
    state = _("CUDA available") if available else _("CUDA not available")
    return _("torch {version}, {build}, {cuda}").format(
        version=torch.__version__, build=build, cuda=state
    )


def step_resources() -> str:
    import importlib.util

    from app.resources import loaded_resources, resources_dir

    for file in loaded_resources():
        if not file.is_file():
            raise FileNotFoundError(
                _("a file of the program is missing ({file})").format(file=file)
            )
    spec = importlib.util.find_spec("ChatTTS")
    res = Path(next(iter(spec.submodule_search_locations))) / "res"
    for name in ("sha256_map.json", "homophones_map.json"):
        if not (res / name).is_file():
            raise FileNotFoundError(
                _("ChatTTS's {file} is missing ({folder})").format(file=name, folder=res)
            )
    return _("resources in {resources}, ChatTTS data in {data}").format(
        resources=resources_dir(), data=res
    )


# One sentence in each language, with what the text path must get right (issue 38): a closing
# quote kept with its sentence, digits by context, a score, money. Nothing of it may stay digits.
TEXT_SAMPLES = (
    ("他说：“验证码是4396。”比分3:2。", ("他说：验证码是四三九六。", "比分三比二。")),
    (
        "“Call 911!” she said. It costs $4.50.",
        ("Call nine one one! she said.", "It costs four dollars and fifty cents."),
    ),
)


def step_text() -> str:
    """Sentence boundaries (sentencex) and normalization (wetext's FSTs) load and read right."""
    from app.text import prepare_text

    spoken = []
    for text, expected in TEXT_SAMPLES:
        segments = prepare_text(text).segments
        plain = ["".join(c for c in s if c not in '“”"') for s in segments]
        if plain != list(expected):
            raise ValueError(
                _("the text {text} was read as {spoken}").format(
                    text=text, spoken=" / ".join(segments)
                )
            )
        spoken.append(" / ".join(segments))
    return " | ".join(spoken)


def step_window() -> str:
    # With a display, the platform plugin the user's window will really use (on Linux its
    # system libraries are checked first, or Qt would abort); offscreen only without one.
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.ui.xcb_check import problem

    missing = problem()
    if missing:
        raise RuntimeError(missing)
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.selftest.fake_audio import FakeOutput
    from app.ui.main_window import MainWindow
    from app.ui.settings import Settings

    app = QApplication.instance() or QApplication([])
    window = MainWindow(Settings(), output=FakeOutput())
    window.show()
    app.processEvents()
    title = window.windowTitle()
    window.close()
    window.shutdown()  # its threads, even where close() sent no closeEvent (tests/cli/test_self_test.py)
    # Deleted, not only closed: a later language change would reach a window whose home is gone.
    window.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return _("main window built ({title}, Qt platform {platform})").format(
        title=title, platform=app.platformName()
    )


def step_synthesis(work: Path) -> str:
    import numpy as np
    import soundfile as sf

    from app.audio import write_wav
    from app.core import SamplingParams, SynthesisRequest
    from app.decode import DecodeMode, Precision
    from app.decode import resolve_precision as resolve
    from app.selftest.random_model import build_random_model
    from app.synthesis import Synthesizer, quiet_libraries

    quiet_libraries()
    model = build_random_model(work / "tiny-model", "tiny")
    synth = Synthesizer(model, device="cpu")
    synth.load()
    loop = synth.loop
    if (
        loop is None
        or loop.mode is not DecodeMode.JIT
        or synth.precision != resolve(Precision.AUTO, "cpu")
    ):
        # TorchScript reads the .py sources of the decode step: a bundle without them falls
        # back to the slower eager loop, which a build must not ship silently.
        raise ValueError(
            _("the decode step did not compile ({error})").format(
                error=loop.jit_error if loop is not None else synth.decode_label
            )
        )
    # Two sentences: with the voice lock, the second is voiced from the first one's recording,
    # encoded by the audio encoder built without ChatTTS (model/runtime).
    request = SynthesisRequest(
        "你好，世界。我们走吧。", refine_text=False, sampling=SamplingParams(max_new_tokens=128)
    )
    result = synth.run(request)
    # A second start of the same model takes its compiled step from the cache, and reads none of
    # the GPT's weights: what users meet at every start after the first.
    again = Synthesizer(model, device="cpu")
    again.load()
    cached = again.compiled_cache is not None and again.compiled_cache.hits > 0
    if again.precision != Precision.FP32 and (
        not cached or not np.array_equal(again.run(request).audio, result.audio)
    ):
        raise ValueError(
            _("the second start ({decode}) did not give the first start's audio").format(
                decode="cached step" if cached else "no cached step"
            )
        )
    if again.parts is not None and again.parts.recordings.full_loaded:
        raise ValueError(
            _(
                "the second start loaded ChatTTS to encode a recording: its audio encoder "
                "could not be built without it"
            )
        )
    out = write_wav(work / "self-test.wav", result.audio, result.sample_rate)
    info = sf.info(str(out))
    if (info.samplerate, info.channels, info.subtype) != (24_000, 1, "PCM_16") or info.frames == 0:
        raise ValueError(
            _("the WAV is wrong: {rate} Hz, {channels} ch, {subtype}").format(
                rate=info.samplerate, channels=info.channels, subtype=info.subtype
            )
        )
    return _(
        "{duration} s of 24 kHz audio, decoded by {decode} (tiny random-weight model: noise, "
        "not speech)"
    ).format(duration=f"{info.duration:.2f}", decode=synth.decode_label)


def run_self_test(steps=None) -> tuple[bool, list[Step]]:
    home = Path(tempfile.mkdtemp(prefix="chattts-self-test-"))
    saved = {name: os.environ.get(name) for name in ("CHATTTS_STUDIO_HOME", "HF_HUB_OFFLINE")}
    os.environ["CHATTTS_STUDIO_HOME"] = str(home / "home")  # never touch the user's settings
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        return _run_steps(
            steps
            or [
                ("torch", step_torch),
                ("resources", step_resources),
                ("text", step_text),
                ("window", step_window),
                ("synthesis", lambda: step_synthesis(home)),
            ]
        )
    finally:
        # Its tiny model, caches and WAV (about 14 MB) would otherwise stay in the user's
        # temporary folder after every run.
        shutil.rmtree(home, ignore_errors=True)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run_steps(steps) -> tuple[bool, list[Step]]:
    results = []
    for name, fn in steps:
        started = time.perf_counter()
        try:
            detail = fn()
            ok = True
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            ok = False
            import logging

            logging.getLogger("chattts_studio.selftest").error(
                "step %s failed:\n%s", name, traceback.format_exc()
            )
        results.append(Step(name, ok, round(time.perf_counter() - started, 2), detail))
        if not ok:
            break
    return all(s.ok for s in results), results


def main(json_path: str | None = None) -> int:
    ok, steps = run_self_test()
    report = {
        "ok": ok,
        "frozen": bool(getattr(sys, "frozen", False)),
        # build.spec turns UTF-8 mode on: a piped stdout is then UTF-8, not cp1252.
        "utf8_mode": bool(sys.flags.utf8_mode),
        "stdout_encoding": getattr(sys.stdout, "encoding", None),
        "executable": sys.executable,
        "steps": [asdict(s) for s in steps],
    }
    if json_path:  # first: the report must exist whatever happens to stdout
        from app.atomic import write_json_atomic

        write_json_atomic(json_path, report)
    for s in steps:
        print(f"{'[✓]' if s.ok else '[✗]'} {s.name:<10} {s.detail} ({s.seconds:.1f} s)")
    if ok:
        print(_("Self-test passed."))
    else:
        failed = steps[-1]
        print(
            _("Self-test failed at '{step}': {detail}").format(
                step=failed.name, detail=failed.detail
            ),
            file=sys.stderr,
        )
    # Flushed before the exit: a frozen program that dies while exiting loses buffered output.
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    return 0 if ok else 1
