"""Inside a worker (a local process or a Ray actor): the model loaded once, verified by checksum
before any work, then requests rendered one at a time (so a sentence's audio never depends on
what else is rendering)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from app.core import StudioError, SynthesisCancelled

log = logging.getLogger("chattts_studio.farm")


@dataclass(frozen=True)
class WorkerSpec:
    name: str  # shown in progress and recorded with each take
    model_dir: str
    device: str = "cpu"
    precision: str = "auto"
    threads: int | None = None  # CPU threads for this worker (a fair share of the cores)
    gpu: int | None = None  # a local worker's GPU (it sees only that one)


class Refused(Exception):
    """The worker could not load its model; it takes no work."""


class RenderWorker:
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
        from app.synthesis import Synthesizer

        self.spec = spec
        try:
            self.synth = Synthesizer(spec.model_dir, device=spec.device, precision=spec.precision)
            self.synth.load(verify=True)
        except StudioError as exc:
            raise Refused(str(exc)) from None

    def info(self) -> dict:
        return {
            "name": self.spec.name,
            "device": self.synth.device.device if self.synth.device is not None else None,
            "decode": self.synth.decode_label,
            # A random-weight model makes noise: its takes are checked, never re-made.
            "makes_speech": self.synth.model_kind.makes_speech,
        }

    def handle(self, kind: str, payload):
        """('render', request) -> ('ok', SynthesisResult); ('speaker', seed) -> ('ok', str);
        ('reference', (audio, text)) -> ('ok', (codes, text)); a failure -> ('error', class name,
        sentence): exceptions of our own need not survive pickling."""
        value: object
        try:
            if kind == "render":
                value = self.synth.run(payload)
            elif kind == "speaker":
                value = self.synth.speaker_for_seed(payload)
            elif kind == "reference":
                value = self.synth.reference_from_audio(*payload)
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

    def cancel(self) -> None:
        self.synth.cancel()


def process_main(conn, spec: WorkerSpec) -> None:
    """A local worker process: ('ready', info) or ('refused', sentence) first, then one reply
    per work item. A cancel may arrive while rendering; a reader thread passes it on."""
    import queue
    import signal
    import threading

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
    work: queue.Queue = queue.Queue()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                work.put(None)
                return
            if message == "cancel":
                worker.cancel()
            else:
                work.put(message)
                if message is None:
                    return

    threading.Thread(target=read, daemon=True).start()
    while (item := work.get()) is not None:
        kind, payload = item
        conn.send(worker.handle(kind, payload))
