"""Workers as local processes (spawned, so CUDA and the frozen bundle work alike)."""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from app.i18n import _
from app.narration.farm.farm import FarmEngine
from app.narration.farm.slots import Farm, Slot, WorkerLost
from app.narration.farm.worker import Refused, WorkerSpec, process_main

POLL_S = 0.2


class LocalSlot(Slot):
    def __init__(self, spec: WorkerSpec, context=None):
        self.spec = spec
        self.name = spec.name
        self._context = context or multiprocessing.get_context("spawn")
        self._send_lock = threading.Lock()
        self.process: BaseProcess | None = None
        self._conn: Connection | None = None

    def start(self) -> dict:
        self._end_process()  # a restart: the old one is gone or going
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=process_main, args=(child, self.spec), name=f"chattts-{self.name}", daemon=True
        )
        self.process = process
        process.start()
        child.close()
        self._conn = parent
        status, value = self._receive()
        if status == "refused":
            raise Refused(value)
        return value

    def _receive(self):
        conn, process = self._conn, self.process
        if conn is None or process is None:  # never started
            raise WorkerLost(_("its process cannot be reached"))
        while True:
            try:
                if conn.poll(POLL_S):
                    return conn.recv()
                if not process.is_alive() and not conn.poll(0):
                    raise WorkerLost(
                        _("its process ended (exit code {code})").format(code=process.exitcode)
                    )
            except (EOFError, OSError):
                raise WorkerLost(
                    _("its process ended (exit code {code})").format(code=process.exitcode)
                ) from None

    def _send(self, message) -> None:
        with self._send_lock:
            try:
                if self._conn is None:  # never started
                    raise OSError("no pipe")
                self._conn.send(message)
            except (OSError, ValueError):
                raise WorkerLost(_("its process cannot be reached")) from None

    def do(self, kind: str, payload):
        self._send((kind, payload))
        return self._receive()

    def cancel_current(self) -> None:
        try:
            self._send("cancel")
        except WorkerLost:
            pass

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            self._send(None)
        except WorkerLost:
            pass
        self.process.join(10)
        self._end_process()

    def _end_process(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(5)


def local_farm(specs: list[WorkerSpec]) -> FarmEngine:
    return FarmEngine(Farm([LocalSlot(spec) for spec in specs]))
