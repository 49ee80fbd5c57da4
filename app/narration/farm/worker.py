"""Inside a worker (a local process or a Ray actor): the model loaded once, verified by checksum
before any work, on an Engine of its own; several requests in flight at once, so that its
scheduler batches them as the in-process render's engine does."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

from app.core import StudioError, SynthesisCancelled
from app.i18n import _

log = logging.getLogger("chattts_studio.farm")

# Sentences a worker holds at once: as many as the CPU batch takes (the in-process render
# keeps as many at its engine), so one worker decodes them in one batch.
IN_FLIGHT = 4


@dataclass(frozen=True)
class WorkerSpec:
    name: str  # shown in progress and recorded with each take
    model_dir: str
    device: str = "cpu"
    precision: str = "auto"
    threads: int | None = None  # CPU threads for this worker (a fair share of the cores)
    gpu: int | None = None  # a local worker's GPU (it sees only that one)
    in_flight: int = IN_FLIGHT  # sentences it renders at once (its engine batches them)


class Refused(Exception):
    """The worker could not load its model; it takes no work."""


class RenderWorker:
    """The model on an Engine (loaded and used on the engine's thread, engine.py), and the
    work items in flight on it by their farm ids, so that one of them can be cancelled."""

    def __init__(self, spec: WorkerSpec):
        if spec.gpu is not None:  # before torch is imported in this process
            visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").strip()
            ids = [i.strip() for i in visible.split(",") if i.strip()] if visible else []
            # The parent's own restriction stays: gpu N is the Nth card it may use.
            os.environ["CUDA_VISIBLE_DEVICES"] = (
                ids[spec.gpu] if spec.gpu < len(ids) else str(spec.gpu)
            )
        if spec.threads:
            import torch

            torch.set_num_threads(max(1, int(spec.threads)))
        from app.synthesis import Engine, Synthesizer

        self.spec = spec
        try:
            # Whole takes: nobody listens to a worker's sentence as it is made, and the vocoder
            # run once per sentence costs less than in streamed pieces (test_farm.py).
            self.synth = Synthesizer(
                spec.model_dir, device=spec.device, precision=spec.precision, stream=False
            )
            self.engine = Engine.loading(self.synth, verify=True)
        except StudioError as exc:
            raise Refused(str(exc)) from None
        self._lock = threading.Lock()
        self._jobs: dict[int, object] = {}  # item id -> its Job, while it renders
        self._cancelled: set[int] = set()  # cancelled before they reached the engine

    def info(self) -> dict:
        return {
            "name": self.spec.name,
            "device": self.synth.device.device if self.synth.device is not None else None,
            "decode": self.synth.decode_label,
            # A random-weight model makes noise: its takes are checked, never re-made.
            "makes_speech": self.synth.model_kind.makes_speech,
        }

    def handle(self, kind: str, payload, item: int = 0):
        """('render', request) -> ('ok', SynthesisResult); ('speaker', seed) -> ('ok', str);
        ('reference', (audio, text)) -> ('ok', (codes, text)); a failure -> ('error', class name,
        sentence): exceptions of our own need not survive pickling. Blocks until its end; call
        it from several threads to have several items in flight."""
        value: object
        try:
            if kind == "render":
                value = self._render(item, payload)
            elif kind == "speaker":
                value = self.engine.call(lambda: self.synth.speaker_for_seed(payload))
            elif kind == "reference":
                value = self.engine.call(lambda: self.synth.reference_from_audio(*payload))
            else:
                return ("error", "StudioError", f"unknown work {kind!r}")
        except SynthesisCancelled as exc:
            return ("error", "SynthesisCancelled", str(exc))
        except StudioError as exc:
            return ("error", "StudioError", str(exc))
        except (
            Exception
        ) as exc:  # out of memory and the like: the sentence fails, the worker goes on
            log.exception("worker %s failed on %s", self.spec.name, kind)
            return ("error", type(exc).__name__, f"{type(exc).__name__}: {exc}")
        return ("ok", value)

    def _render(self, item: int, request):
        from app.synthesis import Priority

        with self._lock:
            if item in self._cancelled:
                self._cancelled.discard(item)
                raise SynthesisCancelled(_("Stopped."))
            job = self._jobs[item] = self.engine.submit(request, Priority.BACKGROUND)
        try:
            return job.result()
        finally:
            with self._lock:
                self._jobs.pop(item, None)

    def cancel(self, item: int | None = None) -> None:
        """Stop one item (it may not have reached the engine yet), or with None every one."""
        with self._lock:
            if item is None:
                jobs = list(self._jobs.values())
            elif item in self._jobs:
                jobs = [self._jobs[item]]
            else:
                self._cancelled.add(item)
                jobs = []
        for job in jobs:
            job.cancel()  # type: ignore[attr-defined]

    def close(self) -> None:
        self.engine.close(timeout=10)


def process_main(conn, spec: WorkerSpec) -> None:
    """A local worker process: ('ready', info) or ('refused', sentence) first; then each
    ('work', item, kind, payload) is rendered on a thread of its own (so several are in flight
    on the engine) and answered (item, reply) as it ends, in any order; ('cancel', item or
    None) stops one item or all; None ends the process."""
    import signal

    # Ctrl+C in a terminal reaches every process of the group: the driver stops the render and
    # tells its workers through the pipe; a worker must not die of it on its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        worker = RenderWorker(spec)
    except Refused as exc:
        conn.send(("refused", str(exc)))
        return
    except Exception as exc:
        conn.send(("refused", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", worker.info()))
    sending = threading.Lock()  # one message at a time on the pipe

    def answer(item: int, kind: str, payload) -> None:
        reply = worker.handle(kind, payload, item)
        with sending:
            try:
                conn.send((item, reply))
            except (OSError, ValueError):  # the driver is gone
                pass

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            break
        if message is None:
            break
        if message[0] == "cancel":
            worker.cancel(message[1])
            continue
        _, item, kind, payload = message
        threading.Thread(
            target=answer, args=(item, kind, payload), name=f"work-{item}", daemon=True
        ).start()
    worker.close()
