"""Which engine a narration renders on: the command's own (one model in this process), local
worker processes (`--workers N|auto`), or Ray actors (`--ray auto|local|ray://HOST:PORT`)."""

from __future__ import annotations

import argparse

from app.core import DeviceOption
from app.i18n import _

MAX_WORKERS = 64


def workers_value(text: str):
    """--workers: auto, or 1 to MAX_WORKERS."""
    if text == "auto":
        return text
    try:
        value = int(text, 10)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            _("--workers must be auto or a whole number from 1 to {most}, not '{value}'.").format(
                most=MAX_WORKERS, value=text[:40]
            )
        )
    return value


def add_arguments(s) -> None:
    s.add_argument(
        "--workers",
        type=workers_value,
        default="auto",
        metavar="N|auto",
        help="worker processes, each with its own copy of the model (default auto: one per GPU "
        "when there are several, CPU workers of four threads on eight or more cores, else "
        "this process alone)",
    )
    s.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="render on Ray actors instead: auto (the cluster this "
        "machine joined, else a local one), local, or ray://HOST:PORT; needs "
        'pip install "chattts-studio[farm]" and the model at the same path on every node',
    )


class InProcess:
    """The command's own engine: the model loaded here."""

    in_process = True

    def __init__(self, root, device: str, precision: str):
        from app.synthesis import Engine, Synthesizer

        self.synth = Synthesizer(root, device=device, precision=precision, stream=False)
        # Loaded on the engine's thread, not this one, which stays alive (engine.py).
        self.engine = Engine.loading(self.synth)
        self.notes = list(self.synth.notes)

    def notices(self) -> list[str]:
        return []

    def close(self) -> None:
        self.engine.close(timeout=30)


class Farmed:
    """A farm of workers (local processes or Ray actors) behind the engine's face."""

    in_process = False

    def __init__(self, engine):
        self.engine = engine
        self.notes: list[str] = []

    def notices(self) -> list[str]:
        return list(self.engine.notices)

    def close(self) -> None:
        self.engine.close()


def open_engine(args, root):
    from app.narration.farm.plan import auto_workers, worker_specs

    precision = getattr(args, "precision", "auto")
    if args.ray:
        from app.narration.farm.ray_pool import ray_farm, ray_specs

        return Farmed(ray_farm(args.ray, lambda ray: ray_specs(ray, root, precision, args.workers)))
    gpus = 0 if args.device == DeviceOption.CPU else None
    count = auto_workers(gpus=gpus) if args.workers == "auto" else args.workers
    if count <= 1:
        return InProcess(root, args.device, precision)
    from app.narration.farm.local import local_farm

    return Farmed(local_farm(worker_specs(count, root, args.device, precision, gpus=gpus)))
