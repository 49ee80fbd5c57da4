"""How long does the GUI event loop stall while the window synthesizes? Prints JSON.

A 5 ms QTimer ticks on the GUI thread; a stall is a gap between ticks beyond the interval.
Measured for the real window (synthesis on the worker QThread), for the same text read from
the tray's Play clipboard (the window's voice, issue 43; the mini-player open and the fake
sound card playing in real time, so the read-along and the mini-player follow it) and, as the
baseline, the
same synthesis run by upstream `Chat.infer` on the GUI thread, as a naive front end would,
alternating window / upstream --repeats times in one run. The baseline loads its own upstream
model (fp32, ChatTTS's own GPT): the window's int8 step has taken over its model's GPT layers.
Uses the tiny random-weight model (its output is noise; only the timing matters here).

    python bench/ui_responsiveness.py [--model DIR] [--repeats N] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

TEXT = (
    "今天天气很好，我们一起去公园散步吧。Hello, this is a short paragraph for the benchmark. "
    "第三句话用来测试流式播放。The last sentence ends here."
)
TARGET_MS = 50.0


class StallMeter:
    def __init__(self, interval_ms: int = 5):
        from PySide6.QtCore import QTimer

        self.interval = interval_ms / 1000.0
        self.gaps: list[float] = []
        self._last = None
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self.gaps.clear()
        self._last = None
        self.timer.start()

    def stop(self) -> dict:
        self.timer.stop()
        stalls = sorted(max(0.0, g - self.interval) * 1000 for g in self.gaps) or [0.0]
        return {
            "max_stall_ms": round(stalls[-1], 1),
            "p99_stall_ms": round(stalls[int(0.99 * (len(stalls) - 1))], 1),
            "ticks": len(self.gaps),
        }


def wait(app, predicate, timeout_s: float) -> None:
    deadline = time.perf_counter() + timeout_s
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("benchmark step timed out")
        app.processEvents()
        time.sleep(0.001)


def _window_run(app, window, meter) -> dict:
    window.text_panel.set_text(TEXT)
    meter.start()
    started = time.perf_counter()
    window.play()
    wait(app, lambda: not window.is_busy(), 300)
    run = meter.stop()
    run["synth_s"] = round(time.perf_counter() - started, 2)
    return run


def _tray_run(app, window, meter) -> dict:
    """The tray menu's Play clipboard, as a user reading from another program would: the
    fake sound card plays in real time, so the highlight and the mini-player move."""
    from PySide6.QtGui import QGuiApplication

    from app.audio import SAMPLE_RATE

    output, heard = window.speech.output, set()

    def follow(segment: int, _span) -> None:
        heard.add(segment)

    window.speech.readingAt.connect(follow)
    QGuiApplication.clipboard().setText(TEXT)
    meter.start()
    started = time.perf_counter()
    window.anywhere.menu.actions["tray.play_clipboard"].trigger()
    mini_shown = window.anywhere.mini_shown

    def synthesizing() -> bool:
        output.advance(int((time.perf_counter() - started) * SAMPLE_RATE) - output.position)
        return window.is_busy()

    wait(app, lambda: not synthesizing(), 300)
    run = meter.stop()
    run["synth_s"] = round(time.perf_counter() - started, 2)
    run["mini_player_shown"] = mini_shown
    run["sentences_heard"] = len(heard - {-1})
    window.speech.readingAt.disconnect(follow)
    window.stop()
    return run


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):  # Windows has no load average
        return None


def _upstream_run(app, upstream, meter) -> dict:
    """Upstream ChatTTS called on the GUI thread, as a naive front end would."""
    import ChatTTS

    meter.start()
    meter._tick()  # the timer cannot tick while infer() holds the GUI thread: mark the start
    started = time.perf_counter()
    upstream.chat.infer(
        [TEXT],
        skip_refine_text=True,
        split_text=True,
        params_infer_code=ChatTTS.Chat.InferCodeParams(
            spk_emb=upstream.speaker_for_seed(2222), show_tqdm=False, manual_seed=2222
        ),
    )
    for _ in range(20):
        app.processEvents()
        time.sleep(0.006)
    run = meter.stop()
    run["synth_s"] = round(time.perf_counter() - started, 2)
    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a model folder (default: build a tiny one)")
    parser.add_argument(
        "--repeats", type=int, help="window and upstream runs, alternating (default 3; --quick 1)"
    )
    parser.add_argument("--quick", action="store_true", help="one run of each (smoke test)")
    add_save_argument(parser)
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)

    from PySide6.QtWidgets import QApplication

    os.environ["CHATTTS_STUDIO_HOME"] = tempfile.mkdtemp(prefix="chattts-bench-")
    model, _size = bench_model(args.model, True)

    app = QApplication.instance() or QApplication([])
    from app.selftest.fake_audio import FakeOutput
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.synthesizer import Synthesizer
    from app.ui.main_window import MainWindow
    from app.ui.settings import Settings

    quiet_libraries()
    settings = Settings()
    settings.model_dir = str(model)
    settings.params = {"refine_text": False}
    settings.mini_player = True  # a tray read opens the floating mini-player
    window = MainWindow(settings, output=FakeOutput())
    window.show()
    window.start()
    wait(app, lambda: window.model_status is not None, 300)
    upstream = Synthesizer(model, device="cpu", decode="upstream", precision="fp32")
    upstream.load(verify=False)

    meter = StallMeter()
    load_before = _load()
    runs, tray, baseline = [], [], []
    for _ in range(repeats):
        runs.append(_window_run(app, window, meter))
        tray.append(_tray_run(app, window, meter))
        baseline.append(_upstream_run(app, upstream, meter))
    window.close()

    worst = max(r["max_stall_ms"] for r in runs)
    worst_tray = max(r["max_stall_ms"] for r in tray)
    report = {
        "benchmark": "ui_responsiveness",
        "model": str(model),
        "window_decode": window.model_status.decode,
        "target_max_stall_ms": TARGET_MS,
        "window_worker_thread": {"runs": runs, "max_stall_ms": worst},
        "tray_clipboard_read": {"runs": tray, "max_stall_ms": worst_tray},
        "upstream_infer_on_gui_thread": {
            "runs": baseline,
            "max_stall_ms": max(r["max_stall_ms"] for r in baseline),
        },
        "meets_target": max(worst, worst_tray) < TARGET_MS,
        # Stalls grow with what else runs: the machine's 1-minute load before and after.
        "load_average_1m": [load_before, _load()],
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
