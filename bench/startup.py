"""Start-up: launch to window visible, to Play possible (model ready), to first sound, with the
program's caches cold (emptied) and then warm (the second launch). Prints JSON.

Each launch is a fresh process that starts the window the way `python -m app` does
(app.__main__.main with no arguments), QT_QPA_PLATFORM=offscreen, on the random-weight model
with the official shapes (built once, as bench/decode.py does). A probe records, in seconds
after the parent started the process:
  window_s       the window shown and its first event-loop turn done
  ready_s        the model controller READY: Play is enabled
  first_sound_s  Play pressed the moment it is possible; the first non-silent block a
                 simulated sound card (a 20 ms callback in real time) pulls from the real
                 sound output and its adaptive buffer
  replay_sound_s Stop (once the first sentence has all arrived), then Play again
                 REPLAY_AFTER_S later (the warm-up long done): Play to the first sound of that
                 second Play, the delay a user meets from then on
  first_piece_s, second_piece_s, rate_at_second_piece, first_sound_bound_s (and replay_...)
                 in seconds after that Play: when the first sentence's first two pieces were
                 queued, the rate the second showed, and the hindsight bound (the earliest start
                 from which the sentence would have played through, given when all its pieces
                 arrived). No player that never breaks a sentence sounds before the bound; one
                 that knows only the past and keeps a margin for the machine slowing down
                 sounds later, and at a production rate near real time much later
  decode         what runs (e.g. jit-int8)
  first_sentence_whole_at_start, first_started_to_a_pause, first_sentence_received_s,
  rate_at_first_sound
                 why the first sound came when it did: whether the player had waited for the
                 whole first sentence or for a pause in it (it does when audio is made too
                 slowly for its rules to start sooner, audio/buffering.py; random weights make
                 no pauses), how much of it had arrived, and the production rate it had
                 measured (seconds of audio per second)
  peak_rss_mb_at_ready  the process's peak resident memory when Play became possible (a
                 warm int8 start reads no fp32 GPT, so it should stay under fp32's)
The OS file cache is not dropped (that needs root): "cold" means the program's own caches.

    python bench/startup.py [--model DIR] [--runs N] [--precision auto|fp32|int8|bf16] [--pieces]
                            [--quick] [--save]

--quick: the tiny model, the replay 0.5 s after the first sentence: a smoke run of the probe.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.process import load_average
from bench.support.results import add_save_argument, emit

ROOT = Path(__file__).resolve().parents[1]
TEXT = "今天天气很好，我们一起去公园散步吧。"
REPLAY_AFTER_S = 5.0


def _probe(t0: float, out_path: str, replay_after_s: float = REPLAY_AFTER_S) -> None:
    """In the launched process: watch the window, press Play when possible, hear the first sound."""
    events: dict = {}
    presses: list[float] = []  # when each Play was pressed (the second: the replay)
    pieces: list[list] = []  # per Play: (s after it, audio s, sentence, final, vocoder s) as queued

    def mark(name: str, **extra) -> None:
        if name not in events:
            events[name] = round(time.time() - t0, 3)
        events.update(extra)

    import numpy as np

    import app.ui.main_window as mw
    from app.audio.playback import SoundDeviceOutput

    def _why(buffer) -> None:
        """What the player knew when it started: the rate it measured and whether it had waited
        for the whole first sentence (below the rate its rules need, it does)."""
        if buffer is None or not buffer._segments:
            return
        seg = buffer._segments[0]
        rate = buffer.production_rate()
        events.update(
            first_sentence_whole_at_start=seg.complete,
            first_started_to_a_pause=seg.hold is not None,
            first_sentence_received_s=round(seg.received / buffer.sample_rate, 2),
            rate_at_first_sound=None if rate is None else round(rate, 2),
        )

    class Card:
        """A sound card's stream: pulls 20 ms blocks on its own thread, in real time."""

        def __init__(self, callback=None, samplerate=24_000, **_kwargs):
            self.callback, self.rate, self.active = callback, samplerate, False

        def start(self):
            self.active = True
            threading.Thread(target=self._run, daemon=True).start()

        def _run(self):
            frames = self.rate // 50
            while self.active:
                buf = np.zeros((frames, 1), dtype=np.float32)
                try:
                    self.callback(buf, frames, None, None)
                except Exception:
                    self.active = False
                if buf.any():
                    if "first_sound_s" not in events:
                        _why(self.callback.__self__.buffer())
                    mark("first_sound_s")
                    if len(presses) > 1 and "replay_sound_s" not in events:
                        events["replay_sound_s"] = round(time.time() - presses[1], 3)
                time.sleep(0.02)

        def abort(self):
            self.active = False

        def close(self):
            pass

    class ProbeOutput(SoundDeviceOutput):
        def _probe(self):
            import types

            self._sd = types.SimpleNamespace(OutputStream=Card, CallbackStop=StopIteration)
            return None

    mw.SoundDeviceOutput = lambda _device=None: ProbeOutput()
    from app.audio import buffering

    queue_piece = buffering.SegmentBuffer.push

    def recorded_push(self, samples, segment, final, vocoder_s=0.0):
        if presses:
            pieces[-1].append(
                (
                    time.time() - presses[-1],
                    np.size(samples) / self.sample_rate,
                    segment,
                    final,
                    round(vocoder_s, 4),
                )
            )
        return queue_piece(self, samples, segment, final, vocoder_s)

    buffering.SegmentBuffer.push = recorded_push

    def press_play(window) -> None:
        presses.append(time.time())
        pieces.append([])
        window.play()

    def first_sentence_in(play: int) -> bool:
        """Whether the first sentence of that Play has all arrived (or is not coming)."""
        return (
            len(pieces) > play and any(seg == 0 and final for _, _, seg, final, _ in pieces[play])
        ) or time.time() - presses[play] > 60

    shown = mw.show_when_ready

    def show_and_watch(window):
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from app.ui.controllers.model import ModelState

        shown(window)
        QTimer.singleShot(0, lambda: mark("window_s"))

        def on_state(state):
            if state is ModelState.READY and "ready_s" not in events:
                from bench.support.process import peak_rss_mb

                # Peak resident memory up to Play being possible: the load's high-water mark.
                mark(
                    "ready_s",
                    decode=window.model.status.decode,
                    peak_rss_mb_at_ready=round(peak_rss_mb()),
                )
                window.text_panel.set_text(TEXT)
                press_play(window)
            elif state is ModelState.FAILED:
                events["error"] = window.model.error
                QApplication.quit()

        window.model.stateChanged.connect(on_state)

        stopped = []

        def check():
            # Each Play runs until its sentence has all arrived, so its pieces give the bound.
            if (
                ("replay_sound_s" in events and first_sentence_in(1))
                or "error" in events
                or time.time() - t0 > 1200
            ):
                window.stop()
                window.close()
                QApplication.quit()
                return
            if "first_sound_s" in events and not stopped and first_sentence_in(0):
                stopped.append(True)
                window.stop()
                QTimer.singleShot(int(replay_after_s * 1000), lambda: press_play(window))
            QTimer.singleShot(20, check)

        QTimer.singleShot(20, check)

    mw.show_when_ready = show_and_watch
    from app.__main__ import main

    try:
        main([])
    finally:
        for play, (prefix, bound) in enumerate(
            [("", "first_sound_bound_s"), ("replay_", "replay_sound_bound_s")]
        ):
            if play < len(pieces):
                events.update(arrival_summary(pieces[play], prefix, bound))
        events["pieces"] = pieces
        Path(out_path).write_text(json.dumps(events), encoding="utf-8")
        os._exit(0)  # threads of a stopped request need not be waited for here


def arrival_summary(pieces: list, prefix: str, bound_key: str) -> dict:
    """What the first sentence's pieces, (s after Play, audio s, sentence, final, vocoder s) as they were
    queued, say about its first sound: when the first two arrived, the production rate the
    second showed (seconds of audio per second), and the hindsight bound (the earliest start
    from which it would have played through, tests/support/playback_sim.py)."""
    from tests.support.playback_sim import SAMPLE_RATE, Arrival, earliest_gapless_start

    first = [
        Arrival(at, round(audio * SAMPLE_RATE), seg, final)
        for at, audio, seg, final, _ in pieces
        if seg == 0
    ]
    out: dict = {prefix + "first_sentence_complete": any(a.final for a in first)}
    if first:
        out[prefix + "first_piece_s"] = round(first[0].at, 3)
        out[bound_key] = round(earliest_gapless_start(first), 3)
    if len(first) > 1:
        out[prefix + "second_piece_s"] = round(first[1].at, 3)
        span = first[1].at - first[0].at
        out[prefix + "rate_at_second_piece"] = (
            round(first[1].samples / SAMPLE_RATE / span, 2) if span > 0 else None
        )
    return out


def _settings(home: Path, model: Path, precision: str) -> None:
    env = {**os.environ, "CHATTTS_STUDIO_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    code = (
        f"from app.ui.settings import Settings; s = Settings(); s.model_dir = {str(model)!r}; "
        f"s.first_run_done = True; s.params = {{'refine_text': False}}; s.precision = {precision!r}; s.sync()"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)


def launch(home: Path, replay_after_s: float = REPLAY_AFTER_S) -> dict:
    out = home / "startup-events.json"
    out.unlink(missing_ok=True)
    env = {
        **os.environ,
        "CHATTTS_STUDIO_HOME": str(home),
        "QT_QPA_PLATFORM": "offscreen",
        "HF_HUB_OFFLINE": "1",
    }
    t0 = time.time()
    subprocess.run(
        [sys.executable, __file__, "--child", str(t0), str(out), str(replay_after_s)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=1500,
    )
    try:
        return json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"error": "the launched program wrote no events"}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument("--runs", type=int, default=1, help="cold+warm pairs")
    p.add_argument("--precision", default="auto")
    p.add_argument(
        "--pieces",
        action="store_true",
        help="also print each Play's pieces: (s after Play, audio s, sentence, final, the seconds "
        "its vocoder call took) as queued",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny model, a short wait before the replay (smoke test)",
    )
    add_save_argument(p)
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        _probe(float(args.child[0]), args.child[1], float(args.child[2]))
        return 0
    model, size = bench_model(args.model, args.quick)
    replay_after_s = 0.5 if args.quick else REPLAY_AFTER_S
    home = Path(tempfile.mkdtemp(prefix="chattts-startup-"))
    try:
        _settings(home, model, args.precision)
        runs = []
        for _ in range(args.runs):
            shutil.rmtree(home / "cache", ignore_errors=True)
            launches = {"cold": launch(home, replay_after_s), "warm": launch(home, replay_after_s)}
            for events in launches.values():
                if not args.pieces:
                    events.pop("pieces", None)
            runs.append(launches)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    report = {
        "model": f"random weights, {size} size",
        "precision": args.precision,
        "replay_after_s": replay_after_s,
        "cpu_count": os.cpu_count(),
        "load_average": load_average(),
        "runs": runs,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
