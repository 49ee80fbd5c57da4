"""Rendering a project: its pending sentences become engine requests at background priority
(Play in the window goes first), several in flight so the scheduler batches them; each finished
sentence is written as a take in its own transaction.

Every take is checked (take_judge.py, app.audio's take checker): a flagged take is made again
with the next seed of the sentence's own sequence (`retake_seed`), up to the project's number of
tries, and the best-scoring try is chosen; each try is stored with what was found. A model that
makes no speech (the random test model) gets its takes checked but not re-made.

Voice lock per chapter: a chapter without a reference first renders its first sentence alone,
makes the chapter's reference from that take (engine.call -> reference_from_audio) and stores
both together; its other sentences use the reference. So a sentence's audio depends only on
its text, seed, speed, voice and the chapter's reference: a render stopped anywhere and resumed
gives the same audio as one that never stopped, and an edited sentence is redone alone.

    renderer = Renderer(project, engine)
    outcome = renderer.render(on_progress=print)    # blocks; pause/resume/stop/cancel from any thread
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.core import (
    DiskFullError,
    SamplingParams,
    StudioError,
    SynthesisCancelled,
    SynthesisRequest,
    is_disk_full,
)
from app.i18n import _
from app.narration.progress import Meter, RenderProgress
from app.narration.project import (
    Project,
    ProjectError,
    Sentence,
    SentenceStatus,
    TakeCheck,
    attempt_key,
    retake_seed,
)
from app.narration.project import audio as takes_audio
from app.narration.project.checks import check_row
from app.narration.project.errors import disk_full
from app.narration.render_state import RenderState
from app.narration.take_judge import CheckThread, TakeJudge
from app.narration.voicing import Voicing
from app.synthesis import Priority

if TYPE_CHECKING:
    from app.synthesis import Job

log = logging.getLogger("chattts_studio.narration")

IN_FLIGHT = 8  # requests kept at the engine: enough for the scheduler to fill a batch


@dataclass
class RenderOutcome:
    state: RenderState  # FINISHED, STOPPED or CANCELLED
    done: int = 0  # sentences rendered in this run
    failed: list[int] = field(default_factory=list)  # sentence ids that failed in this run
    remaining: int = 0  # sentences still pending or failed after it
    first_error: str = ""  # why the first of `failed` failed (its row may not say: a full disk)
    retaken: list[int] = field(default_factory=list)  # sentence ids made more than once
    flagged: list[int] = field(default_factory=list)  # whose chosen take is still flagged
    notes: list[str] = field(default_factory=list)  # said once: takes are not checked


@dataclass
class _Chapter:
    id: int
    index: int
    queue: list[Sentence]
    reference: tuple[str, str, str | None] | None = None  # codes, text, voice
    lead: int | None = None  # the sentence making the reference


class Renderer:
    def __init__(
        self,
        project: Project,
        engine,
        *,
        in_flight: int = IN_FLIGHT,
        refine_text: bool = True,
        sampling: SamplingParams | None = None,
        retry_failed: bool = True,
        worker: str | None = None,
        retakes: bool | None = None,
        clock=time.monotonic,
    ):
        """`retakes`: make a flagged take again (None: where the model makes speech)."""
        self.project = project
        self.engine = engine
        self.in_flight = max(1, int(in_flight))
        self.refine_text = refine_text
        self.sampling = sampling
        self.retry_failed = retry_failed
        self.worker = worker
        self.retakes = retakes
        self._clock = clock
        self._state = threading.Condition()
        self._paused = self._stopping = self._cancelled = False
        self._jobs: dict[int, Job | _Done] = {}
        self._judge: TakeJudge | None = None
        self._tries = 1

    # -- any thread ---------------------------------------------------------------------------
    def pause(self) -> None:
        """Finish the sentences in flight, then wait for resume() (or stop/cancel)."""
        with self._state:
            self._paused = True

    def resume(self) -> None:
        with self._state:
            self._paused = False
            self._state.notify_all()

    def stop(self) -> None:
        """Finish the sentences in flight, then return from render()."""
        with self._state:
            self._stopping = True
            self._state.notify_all()

    def cancel(self) -> None:
        """Stop now: the requests in flight are cancelled and their sentences stay pending."""
        with self._state:
            self._cancelled = True
            jobs = list(self._jobs.values())
            self._state.notify_all()
        for job in jobs:
            job.cancel()

    # -- the render ---------------------------------------------------------------------------
    def render(self, sentence_ids=None, on_progress=None) -> RenderOutcome:
        """Render the pending (and failed) sentences, or those of `sentence_ids` that are;
        blocks until they are done, or stop()/cancel()."""
        project = self.project
        with self._state:  # run again after stop() or cancel(); a pause asked before stays
            self._stopping = self._cancelled = False
        wanted = None if sentence_ids is None else set(sentence_ids)
        chapters = {c.id: c for c in project.chapters()}
        all_sentences = [s for s in project.sentences() if s.chapter_id in chapters]
        todo = [
            s
            for s in all_sentences
            if (
                s.status == SentenceStatus.PENDING
                or (self.retry_failed and s.status == SentenceStatus.FAILED)
            )
            and (wanted is None or s.id in wanted)
        ]
        scope = {s.chapter_id for s in todo} if wanted is not None else set(chapters)
        done_ids = {
            s.id
            for s in all_sentences
            if s.take_id is not None and s.status == SentenceStatus.DONE and s.chapter_id in scope
        }
        per_chapter = {cid: [s for s in all_sentences if s.chapter_id == cid] for cid in scope}
        plan = [
            _Chapter(
                c.id,
                c.index,
                [s for s in todo if s.chapter_id == c.id],
                (c.reference, c.reference_text or "", c.reference_voice) if c.reference else None,
            )
            for c in sorted(chapters.values(), key=lambda c: (c.index, c.id))
            if c.id in scope
        ]
        voicing = Voicing(project, self.engine)
        self._judge = TakeJudge(project, all_sentences)
        self._tries = project.take_tries()
        outcome = RenderOutcome(RenderState.FINISHED)
        meter = Meter()
        results: queue.Queue = queue.Queue()
        pending_chars = sum(len(s.text) for s in todo)
        started = self._clock()

        def report(sentence: Sentence | None, chapter: _Chapter) -> None:
            if on_progress is None:
                return
            meter.wall_seconds = self._clock() - started
            members = per_chapter.get(chapter.id, [])
            on_progress(
                RenderProgress(
                    chapter.id,
                    chapter.index,
                    sum(1 for s in members if s.id in done_ids),
                    len(members),
                    len(done_ids),
                    sum(len(v) for v in per_chapter.values()),
                    len(outcome.failed),
                    None if sentence is None else sentence.id,
                    meter.audio_seconds,
                    meter.wall_seconds,
                    meter.eta(pending_chars),
                )
            )

        for chapter in plan:
            if chapter.reference is None and chapter.queue:
                chapter.reference = voicing.reference_from_done(chapter.id, per_chapter[chapter.id])
        if plan:
            report(None, plan[0])
        by_id = {c.id: c for c in plan}
        self._checks = CheckThread()  # shut down in the finally below
        try:
            while True:
                with self._state:
                    while (
                        self._paused and not (self._cancelled or self._stopping) and not self._jobs
                    ):
                        self._state.wait(0.5)
                    halted = self._cancelled or self._stopping or self._paused
                while not halted and len(self._jobs) < self.in_flight:
                    picked = self._next(plan)
                    if picked is None:
                        break
                    self._submit(
                        picked, by_id[picked.chapter_id], voicing, results, self._first(picked)
                    )
                if not self._jobs:
                    if halted and self._paused and not (self._cancelled or self._stopping):
                        continue
                    break
                sentence, attempt, outcome_or_error = results.get()
                with self._state:
                    self._jobs.pop(sentence.id, None)
                chapter = by_id[sentence.chapter_id]
                seconds = self._finish(
                    sentence, chapter, attempt, outcome_or_error, voicing, outcome
                )
                if seconds is _AGAIN:
                    with self._state:
                        halted = self._cancelled or self._stopping or self._paused
                    if halted:  # no more tries now: it resumes from its stored tries
                        self._put_back(sentence, chapter)
                    else:
                        self._submit(sentence, chapter, voicing, results, attempt + 1)
                    continue
                if seconds is not None:
                    done_ids.add(sentence.id)
                    meter.add(len(sentence.text), seconds)
                if seconds is not None or sentence.id in outcome.failed:
                    pending_chars -= len(sentence.text)
                report(sentence, chapter)
        except BaseException:
            self.cancel()  # a crash or an engine shut down: nothing stays running for us
            raise
        finally:
            self._checks.close()
        outcome.state = (
            RenderState.CANCELLED
            if self._cancelled
            else RenderState.STOPPED
            if (self._stopping or self._paused)
            else RenderState.FINISHED
        )
        outcome.remaining = len(project.pending(include_failed=True))
        if self._judge.note:
            outcome.notes.append(self._judge.note)
        return outcome

    # -- checked takes --------------------------------------------------------------------------
    def _retaking(self) -> bool:
        if self.retakes is not None:
            return self.retakes
        kind = getattr(getattr(self.engine, "synthesizer", None), "model_kind", None)
        if kind is not None:
            return bool(kind.makes_speech)
        return bool(getattr(self.engine, "makes_speech", True))

    def _tries_of(self, sentence: Sentence) -> list[TakeCheck]:
        """The tries already stored for the sentence as it is now (a render stopped between
        them goes on with the next)."""
        key = attempt_key(sentence.text, sentence.seed, sentence.speed, sentence.speaker)
        try:
            return [c for c in self.project.take_checks(sentence.id) if c.attempt_key == key]
        except ProjectError:
            return []

    def _first(self, sentence: Sentence) -> int:
        return max((c.attempt + 1 for c in self._tries_of(sentence)), default=0)

    def _keepable(self, sentence: Sentence) -> TakeCheck | None:
        """The sentence's chosen take when it is a try of the same words, speed and voice with
        another seed (a regenerated sentence): a candidate beside the new tries, so re-taking
        never chooses a worse take than the one it had."""
        check = sentence.check
        if check is None or sentence.take_id is None or check.take_id != sentence.take_id:
            return None
        key = attempt_key(sentence.text, sentence.seed, sentence.speed, sentence.speaker)
        if check.attempt_key == key:
            return None  # one of the tries themselves
        try:  # its tries' first take has their seed: the same words, speed and voice?
            seeds = {t.seed for t in self.project.takes(sentence.id)}
        except ProjectError:
            return None
        same = (attempt_key(sentence.text, s, sentence.speed, sentence.speaker) for s in seeds)
        return check if check.attempt_key in same else None

    def _put_back(self, sentence: Sentence, chapter: _Chapter) -> None:
        """A sentence between its tries when the render halts: it stays pending, first in its
        chapter, and goes on from its stored tries (`_first`) on resume or the next render."""
        if chapter.lead == sentence.id:
            chapter.lead = None
        chapter.queue.insert(0, sentence)

    def _next(self, plan: list[_Chapter]) -> Sentence | None:
        """The next sentence to send. A chapter without its voice first sends its first sentence
        alone, with nothing else in flight: batched with other rows its audio could differ in the
        last bits, and the reference made from it would differ with them. Then the sentences of
        chapters with a voice go in reading order, batched."""
        for chapter in plan:
            if chapter.queue and chapter.reference is None:
                if self._jobs:
                    return None
                sentence = chapter.queue.pop(0)
                chapter.lead = sentence.id
                return sentence
        for chapter in plan:
            if chapter.queue and chapter.reference is not None:
                return chapter.queue.pop(0)
        return None

    def _submit(
        self,
        sentence: Sentence,
        chapter: _Chapter,
        voicing: Voicing,
        results: queue.Queue,
        attempt: int = 0,
    ) -> None:
        with self._state:
            if self._cancelled:  # cancel() ran before this job existed: nothing to send
                return
        reference = chapter.reference
        if reference is not None and reference[2] != sentence.speaker:
            reference = None  # the chapter's voice is another speaker's
        options: dict[str, Any] = {"refine_text": self.refine_text}
        if self.sampling is not None:
            options["sampling"] = self.sampling
        speaker = voicing.speaker(sentence.speaker)  # the engine's own errors end the render
        try:
            request = SynthesisRequest(
                voicing.text(sentence.text),
                seed=retake_seed(sentence.seed, attempt),
                speaker=speaker,
                speed=sentence.speed,
                reference=reference[0] if reference is not None else None,
                reference_text=reference[1] if reference is not None else None,
                **options,
            )
        except StudioError as exc:  # this sentence's values: it fails, the rest go on
            results.put((sentence, attempt, exc))
            with self._state:
                self._jobs[sentence.id] = _Done()
            return
        # An engine that refuses work (shut down) ends the whole render with its sentence.
        job = self.engine.submit(request, Priority.BACKGROUND)
        with self._state:
            self._jobs[sentence.id] = job
            if self._cancelled:
                job.cancel()

        def wait() -> None:
            try:
                results.put((sentence, attempt, job.result()))
            except BaseException as exc:  # the job's end, whatever it is, goes to render()
                results.put((sentence, attempt, exc))

        threading.Thread(target=wait, name=f"narration-wait-{sentence.id}", daemon=True).start()

    def _finish(
        self,
        sentence: Sentence,
        chapter: _Chapter,
        attempt: int,
        result,
        voicing: Voicing,
        outcome: RenderOutcome,
    ):
        """Write the sentence's take (or its failure): the chosen take's seconds, None, or
        _AGAIN where the take was flagged and the sentence is to be made again."""
        is_lead = chapter.lead == sentence.id
        if isinstance(result, SynthesisCancelled) and self._cancelled:
            if is_lead:
                chapter.lead = None
            return None
        earlier = self._tries_of(sentence) if attempt else []
        kept = self._keepable(sentence)  # as it was when the render began
        message = None
        if isinstance(result, BaseException):
            message = (
                str(result)
                if isinstance(result, StudioError)
                else _("The sentence could not be rendered ({error}).").format(
                    error=f"{type(result).__name__}: {result}"
                )
            )
        elif result.audio.size == 0:
            message = _(
                "The model made no audio for this sentence; regenerate it or change its text."
            )
        if message is not None:
            if is_lead:
                chapter.lead = None  # another sentence leads if this one gives no voice
            if earlier or kept:  # a re-take that failed: the best try so far stays
                return self._keep_best(sentence, earlier, kept, outcome, message)
            self._fail(sentence, message, outcome)
            return None
        audio = result.audio
        judge = self._judge
        assert judge is not None
        report = self._checks.run(lambda: judge.judge(sentence, audio, result.sample_rate))
        key = attempt_key(sentence.text, sentence.seed, sentence.speed, sentence.speaker)
        more = report.checked and report.flagged and attempt + 1 < self._tries and self._retaking()
        # Cancelled meanwhile: the try is kept and the sentence stays pending, so the next
        # render goes on with the next try as this one would have.
        again = more and not self._cancelled
        best = None if more else _best(earlier, kept)
        if best is not None and best.score < report.score:
            best = None  # this try is the best (equal scores: the earlier try stays)
        if best is not None and best is kept:
            log.info("narration sentence %s keeps its earlier take %s", sentence.id, kept.take_id)
        try:
            chosen_audio = audio if best is None else self.project.take_audio(best.take_id)
        except ProjectError:
            best, chosen_audio = None, audio
        reference = None
        if not more and is_lead and chapter.reference is None:
            reference = voicing.reference_from_audio(
                takes_audio.canonical(chosen_audio), sentence.text, sentence.speaker
            )
        try:
            self.project.add_take(
                sentence.id,
                audio,
                retake_seed(sentence.seed, attempt),
                worker=self.worker or f"render {result.decode}",
                choose=not more,
                chapter_reference=reference,
                check=check_row(report, sentence.id, key, attempt),
                chosen=None if best is None else best.take_id,
            )
        except DiskFullError:
            raise  # every next take would fail the same way: stop here
        except ProjectError as exc:
            if is_lead:
                chapter.lead = None
            self._fail(sentence, str(exc), outcome)
            return None
        except OSError as exc:
            if not is_disk_full(exc):
                raise
            raise disk_full(self.project.path) from exc
        if more:
            if not again:
                if is_lead:
                    chapter.lead = None
                return None
            log.info("narration sentence %s re-taken: %s", sentence.id, report.kinds())
            return _AGAIN
        if is_lead:
            chapter.lead = None
        if reference is not None:
            chapter.reference = reference
        flagged = report.flagged if best is None else best.flagged
        if is_lead and not flagged:
            self._checks.run(
                lambda: judge.set_voice(
                    chapter.id, sentence.speaker, chosen_audio, result.sample_rate
                )
            )
        outcome.done += 1
        if attempt > 0:
            outcome.retaken.append(sentence.id)
        if flagged:
            outcome.flagged.append(sentence.id)
        return len(chosen_audio) / result.sample_rate

    def _keep_best(
        self,
        sentence: Sentence,
        earlier: list[TakeCheck],
        kept: TakeCheck | None,
        outcome: RenderOutcome,
        message: str,
    ) -> float | None:
        best = _best(earlier, kept)
        assert best is not None
        log.warning("narration sentence %s: a re-take failed (%s)", sentence.id, message)
        try:
            self.project.choose_take(sentence.id, best.take_id)
            seconds = self.project.sentence(sentence.id).duration
        except ProjectError as exc:
            self._fail(sentence, str(exc), outcome)
            return None
        outcome.done += 1
        outcome.retaken.append(sentence.id)
        if best.flagged:
            outcome.flagged.append(sentence.id)
        return seconds

    def _fail(self, sentence: Sentence, message: str, outcome: RenderOutcome) -> None:
        log.warning("narration sentence %s failed: %s", sentence.id, message)
        outcome.failed.append(sentence.id)
        outcome.first_error = outcome.first_error or message
        try:
            self.project.mark_failed(sentence.id, message)
        except ProjectError as exc:
            log.warning("could not mark sentence %s failed: %s", sentence.id, exc)


def _best(tries: list[TakeCheck], kept: TakeCheck | None = None) -> TakeCheck | None:
    """The highest-scoring try, the earliest among equals; `kept` (the take chosen before the
    sentence was regenerated) unless a try scores higher."""
    best = max(tries, key=lambda c: (c.score, -c.attempt), default=None)
    if kept is not None and (best is None or kept.score >= best.score):
        return kept
    return best


_AGAIN = object()  # _finish's answer: the take was flagged, make the sentence again


class _Done:
    """A sentence that ended before reaching the engine (its request was refused)."""

    def cancel(self) -> None:
        pass
