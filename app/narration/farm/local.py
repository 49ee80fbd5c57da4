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


def _ended(process: BaseProcess) -> str:
    return _("its process ended (exit code {code})").format(code=process.exitcode)


class _Inbox:
    """A worker process's replies, read on a thread of their own and handed to the items
    waiting for them (they end in any order); once the process is gone every wait raises
    WorkerLost."""

    def __init__(self, conn: Connection, process: BaseProcess):
        self._conn, self._process = conn, process
        self._replies: dict[int, object] = {}
        self._state = threading.Condition()
        self._lost: str | None = None
        threading.Thread(target=self._read, name=f"{process.name}-inbox", daemon=True).start()

    def _read(self) -> None:
        conn, process = self._conn, self._process
        while True:
            try:
                if conn.poll(POLL_S):
                    item, reply = conn.recv()
                    with self._state:
                        self._replies[item] = reply
                        self._state.notify_all()
                elif not process.is_alive() and not conn.poll(0):
                    break
            except (EOFError, OSError):
                break
        process.join(1)  # its exit code for the sentence
        with self._state:
            self._lost = _ended(process)
            self._state.notify_all()

    def wait(self, item: int):
        with self._state:
            self._state.wait_for(lambda: item in self._replies or self._lost is not None)
            if item in self._replies:
                return self._replies.pop(item)
            raise WorkerLost(self._lost)


class LocalSlot(Slot):
    def __init__(self, spec: WorkerSpec, context=None):
        self.spec = spec
        self.name = spec.name
        self.in_flight = max(1, spec.in_flight)
        self._context = context or multiprocessing.get_context("spawn")
        self._send_lock = threading.Lock()
        self.process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._inbox: _Inbox | None = None

    def start(self) -> dict:
        self._end_process()  # a restart: the old one is gone or going
        self._inbox = None
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
        self._inbox = _Inbox(parent, process)  # from here on it alone reads the pipe
        return value

    def _receive(self):
        """The worker's first message (ready or refused)."""
        conn, process = self._conn, self.process
        if conn is None or process is None:  # never started
            raise WorkerLost(_("its process cannot be reached"))
        while True:
            try:
                if conn.poll(POLL_S):
                    return conn.recv()
                if not process.is_alive() and not conn.poll(0):
                    raise WorkerLost(_ended(process))
            except (EOFError, OSError):
                raise WorkerLost(_ended(process)) from None

    def _send(self, message) -> None:
        with self._send_lock:
            try:
                if self._conn is None:  # never started
                    raise OSError("no pipe")
                self._conn.send(message)
            except (OSError, ValueError):
                raise WorkerLost(_("its process cannot be reached")) from None

    def do(self, item: int, kind: str, payload):
        inbox = self._inbox
        if inbox is None:  # not started
            raise WorkerLost(_("its process cannot be reached"))
        self._send(("work", item, kind, payload))
        return inbox.wait(item)

    def cancel(self, item: int | None = None) -> None:
        try:
            self._send(("cancel", item))
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
