"""FarmEngine: the engine's face (submit -> job, synthesizer, call, close) over a farm of
workers, so the narration Renderer renders on many workers as it does on one engine."""

from __future__ import annotations

from dataclasses import replace

from app.narration.farm.slots import Farm, FarmError, Work
from app.synthesis import Priority


class FarmJob:
    def __init__(self, farm: Farm, work: Work):
        self._farm, self._work = farm, work

    def result(self, on_chunk=None):
        result = self._work.wait()
        # Who made it goes with the take into the project ("render jit-int8 on cpu1").
        return replace(result, decode=f"{result.decode} on {self._work.worker}")

    def cancel(self) -> None:
        self._farm.cancel(self._work)


class _RemoteSynthesizer:
    """What the narration's voicing asks of a synthesizer, answered by any worker."""

    def __init__(self, farm: Farm):
        self._farm = farm

    def speaker_for_seed(self, seed: int) -> str:
        return self._farm.run("speaker", seed)

    def reference_from_audio(self, audio, text: str):
        return self._farm.run("reference", (audio, text))


class FarmEngine:
    def __init__(self, farm: Farm):
        self.farm = farm
        self.synthesizer = _RemoteSynthesizer(farm)

    @property
    def workers(self) -> int:
        return len(self.farm.slots)

    @property
    def makes_speech(self) -> bool:
        """Whether the workers' model makes speech (the Renderer re-takes only then); every
        worker loads the same model folder, so the ones started so far say it."""
        return all(info.get("makes_speech", True) for info in list(self.farm.infos.values()))

    @property
    def notices(self) -> list[str]:
        return self.farm.notices

    def submit(self, request, priority: Priority = Priority.BACKGROUND) -> FarmJob:
        """Like Engine.submit: with no worker left it refuses at once, so the render ends with
        one sentence instead of failing every sentence in turn."""
        if not self.farm.has_workers():
            raise FarmError(self.farm.none_left())
        return FarmJob(self.farm, self.farm.put(Work("render", request)))

    def call(self, work, timeout=None):
        """The remote synthesizer's methods reach a worker themselves; nothing waits for a thread."""
        return work()

    def close(self, timeout: float = 30.0) -> None:
        self.farm.close(timeout)
