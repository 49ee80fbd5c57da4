"""Workers as Ray actors: one per GPU (num_gpus=1) and CPU actors as asked, on one machine or a
cluster (`ray://HOST:PORT`, or `auto` for the cluster this machine joined). Ray is an optional
extra: pip install "chattts-studio[farm]". Each node needs the model at the same path (or
`chattts-studio models download` there first); a worker verifies it by checksum before work."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from app.core import DeviceOption, StudioError
from app.i18n import _
from app.narration.farm.farm import FarmEngine
from app.narration.farm.slots import Farm, Slot, WorkerLost
from app.narration.farm.worker import Refused, RenderWorker, WorkerSpec

INSTALL = 'pip install "chattts-studio[farm]"'


def import_ray():
    try:
        import ray
    except ImportError:
        raise StudioError(
            _(
                "Rendering on Ray needs Ray, which is not installed; install it with: {command}"
            ).format(command=INSTALL)
        ) from None
    return ray


class _ActorBody:
    """The actor: its model loads in the constructor; a refusal is kept and told, not raised, so
    the driver reads the sentence rather than an actor's death. Ray runs a threaded actor's
    calls (the items in flight, and a cancel beside them) on threads of its own; each waits on
    the worker's Engine, which loads and uses the model on one thread of its own, so PyTorch
    keeps one OpenMP pool beside no other (synthesis/engine.py)."""

    def __init__(self, spec: WorkerSpec):
        self.worker, self.refusal = None, None
        try:
            self.worker = RenderWorker(spec)
        except Refused as exc:
            self.refusal = str(exc)

    def start(self):
        return ("refused", self.refusal) if self.worker is None else ("ready", self.worker.info())

    def handle(self, kind, payload, item=0):
        if self.worker is None:  # refused at start: the farm sends it no work
            raise Refused(self.refusal or "")
        return self.worker.handle(kind, payload, item)

    def cancel(self, item=None):
        if self.worker is not None:
            self.worker.cancel(item)

    def pid(self):
        return os.getpid()


class RaySlot(Slot):
    def __init__(self, ray, spec: WorkerSpec, gpus: float = 0):
        self.ray, self.spec, self.gpus = ray, spec, gpus
        self.name = spec.name
        self.in_flight = max(1, spec.in_flight)
        self.actor: Any = None  # a Ray actor handle: its methods are made at run time
        # Its items in flight and a cancel beside them run at once.
        self._actor_class = ray.remote(max_concurrency=self.in_flight + 1)(_ActorBody)

    def _runtime_env(self) -> dict:
        # Workers import this program from where the driver does (a source tree in development).
        root = str(Path(__file__).resolve().parents[3])
        return {
            "env_vars": {
                "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
            }
        }

    def start(self) -> dict:
        self.stop()
        threads = self.spec.threads or 1
        self.actor = self._actor_class.options(
            num_cpus=threads if not self.gpus else 1,
            num_gpus=self.gpus,
            runtime_env=self._runtime_env(),
        ).remote(self.spec)
        status, value = self._get(self.actor.start.remote())
        if status == "refused":
            raise Refused(value)
        return value

    def _get(self, ref):
        from ray.exceptions import RayActorError, RayError

        try:
            return self.ray.get(ref)
        except RayActorError:
            raise WorkerLost(_("its Ray actor died")) from None
        except RayError as exc:
            raise WorkerLost(_("Ray failed: {error}").format(error=type(exc).__name__)) from None

    def do(self, item: int, kind: str, payload):
        return self._get(self.actor.handle.remote(kind, payload, item))

    def cancel(self, item: int | None = None) -> None:
        if self.actor is not None:
            self.actor.cancel.remote(item)

    def stop(self) -> None:
        if self.actor is not None:
            self.ray.kill(self.actor)
            self.actor = None


def ray_specs(ray, model_dir, precision: str = "auto", count="auto") -> list[WorkerSpec]:
    """One actor per GPU of the cluster, plus CPU actors of four threads on what CPUs remain
    (at least one actor); `count` caps them."""
    from app.narration.farm.plan import CPU_THREADS_PER_WORKER

    resources = ray.cluster_resources()
    gpus, cpus = int(resources.get("GPU", 0)), int(resources.get("CPU", 1))
    cpu_actors = max(0 if gpus else 1, (cpus - gpus) // CPU_THREADS_PER_WORKER)
    specs = [WorkerSpec(f"ray-gpu{i}", str(model_dir), "cuda", precision) for i in range(gpus)]
    specs += [
        WorkerSpec(
            f"ray-cpu{i}",
            str(model_dir),
            "cpu",
            precision,
            threads=max(1, min(CPU_THREADS_PER_WORKER, cpus)),
        )
        for i in range(cpu_actors)
    ]
    return specs if count == "auto" else specs[: max(1, int(count))]


def ray_farm(address: str, specs, **init) -> FarmEngine:
    """`address`: "auto" (the cluster this machine joined, else a new local one), "local" (a new
    local one) or "ray://HOST:PORT". `specs`: the workers, or a function of the connected `ray`
    that plans them from the cluster's resources."""
    ray = import_ray()
    if not ray.is_initialized():
        try:
            if address == "auto":
                try:
                    ray.init(address="auto", **init)
                except ConnectionError:
                    ray.init(**init)
            else:
                ray.init(address=None if address == "local" else address, **init)
        except Exception as exc:
            raise StudioError(
                _(
                    "Ray could not be reached at {address} ({reason}); check the address, or start "
                    "a cluster with: ray start --head"
                ).format(address=address, reason=exc)
            ) from None
    if callable(specs):
        specs = specs(ray)
    return FarmEngine(
        Farm(
            [
                RaySlot(ray, spec, gpus=1 if spec.device == DeviceOption.CUDA else 0)
                for spec in specs
            ]
        )
    )
