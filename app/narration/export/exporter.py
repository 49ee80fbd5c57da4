"""export(): rendered chapters -> audio files (one, per chapter, or both) and their subtitles.

Every file is staged and renamed into place at the end (staging.py), so a failure or a cancel
leaves the folder as it was. Loudness is normalized per file: each chapter file and the one
file each land on the target.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from app.core import StudioError
from app.i18n import _
from app.narration.export import paths
from app.narration.export.aac_writer import write_aac
from app.narration.export.errors import ExportCancelled, ExportError, explain_os_error
from app.narration.export.loudness import normalize, true_peak
from app.narration.export.mp3_chapters import add_mp3_chapters
from app.narration.export.report import ExportedFile, ExportReport, FlaggedSentence
from app.narration.export.resample import output_rate
from app.narration.export.settings import TRUE_PEAK_CEILING, ExportSettings
from app.narration.export.sndfile_writer import write_sndfile
from app.narration.export.staging import Staging, refuse_existing
from app.narration.export.subtitles import render
from app.narration.export.timeline import Span, assemble_chapter, join_chapters
from app.narration.rendered import RenderedChapter

MAX_RATE = 384_000


def _library_errors() -> tuple[type[BaseException], ...]:
    """What the codec libraries raise for a file they cannot write (libsndfile: RuntimeError)."""
    errors: tuple[type[BaseException], ...] = (RuntimeError, ValueError)
    if "av" in sys.modules:
        errors += (sys.modules["av"].FFmpegError,)
    return errors


class _Job:
    def __init__(
        self,
        settings: ExportSettings,
        title: str | None,
        staging: Staging,
        should_stop: Callable[[], bool] | None,
        progress: Callable[[int, int], None] | None,
        total: int,
    ):
        self.settings, self.title, self.staging = settings, title, staging
        self.should_stop, self.progress = should_stop, progress
        self.done, self.total = 0, total
        self.files: list[ExportedFile] = []
        self.warnings: list[str] = []

    def check(self) -> None:
        if self.should_stop is not None and self.should_stop():
            raise ExportCancelled(_("The export was cancelled; no file was written."))

    def write(
        self,
        target: Path,
        audio: np.ndarray,
        rate: int,
        spans: tuple[Span, ...],
        *,
        chapter: int | None,
        marks: list[tuple[str, int, int]],
        tags: dict[str, str],
    ) -> None:
        fmt = self.settings.format
        self.check()
        if self.settings.loudness is not None:
            level = normalize(audio, rate, self.settings.loudness, TRUE_PEAK_CEILING)
            audio, loudness, peak = level.audio, level.final, level.true_peak
            if level.short:
                self.warnings.append(
                    _(
                        "{path} is shorter than 0.4 s; its loudness was measured as if it repeated."
                    ).format(path=target.name)
                )
        else:
            loudness, peak = None, true_peak(audio)
        tmp = self.staging.temp_for(target)
        bitrate: int | None
        try:
            if fmt in ("m4a", "m4b"):
                bitrate = write_aac(
                    tmp,
                    audio,
                    rate,
                    fmt,
                    chapters=marks,
                    bitrate=self.settings.bitrate,
                    tags=tags,
                    check=self.check,
                )
            else:
                bitrate = write_sndfile(
                    tmp,
                    audio,
                    rate,
                    fmt,
                    bitrate=self.settings.bitrate,
                    tags=tags,
                    check=self.check,
                )
                if fmt == "mp3" and marks:
                    add_mp3_chapters(
                        tmp, [(t, s / rate, e / rate) for t, s, e in marks], tags.get("title")
                    )
        except StudioError:
            raise
        except OSError as error:
            raise ExportError(explain_os_error(error, target)) from error
        except _library_errors() as error:
            raise ExportError(
                _("{path} could not be written ({error}); choose another location.").format(
                    path=target, error=error
                )
            ) from error
        if (
            self.settings.bitrate is not None
            and bitrate is not None
            and bitrate != self.settings.bitrate
        ):
            self.warnings.append(
                _(
                    "{path}: {fmt} at this sample rate allows no {asked} kbit/s; "
                    "{used} kbit/s was used."
                ).format(
                    path=target.name, fmt=fmt.upper(), asked=self.settings.bitrate, used=bitrate
                )
            )
        starts = tuple(start / rate for _title, start, _end in marks)
        self.files.append(
            ExportedFile(
                target,
                "audio",
                chapter,
                len(audio) / rate,
                rate,
                spans,
                starts,
                loudness,
                peak,
                bitrate if fmt not in ("wav", "flac") else None,
            )
        )
        if self.settings.subtitles:
            self._subtitles(target, rate, spans, chapter, self.settings.subtitles)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    def _subtitles(
        self,
        audio_path: Path,
        rate: int,
        spans: tuple[Span, ...],
        chapter: int | None,
        kind: str,
    ) -> None:
        target = paths.subtitle_path(audio_path, kind)
        tmp = self.staging.temp_for(target)
        text = render(kind, ((s.start / rate, s.end / rate, s.text) for s in spans))
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as error:
            raise ExportError(explain_os_error(error, target)) from error
        self.files.append(ExportedFile(target, "subtitles", chapter))


def _chapters_with_sound(
    chapters: Sequence[RenderedChapter], warnings: list[str]
) -> list[tuple[int, RenderedChapter]]:
    kept = []
    for i, chapter in enumerate(chapters):
        if (
            not isinstance(chapter, RenderedChapter)
            or not isinstance(chapter.sample_rate, int)
            or not 0 < chapter.sample_rate <= MAX_RATE
        ):
            raise ExportError(
                _("Chapter {n} has no usable audio; render it again.").format(n=i + 1)
            )
        if any(np.asarray(s.audio).size for s in chapter.sentences):
            kept.append((i, chapter))
        else:
            warnings.append(
                _("Chapter {n} ({title}) has no audio yet and was left out.").format(
                    n=i + 1, title=chapter.title
                )
            )
    if not kept:
        raise ExportError(
            _("There is nothing to export: no chapter has audio yet. Render the narration first.")
        )
    return kept


def _targets(
    out: Path | str, settings: ExportSettings, count: int, kept: list[tuple[int, RenderedChapter]]
) -> tuple[Path | None, dict[int, Path]]:
    fmt = settings.format
    one = paths.one_file_path(out, fmt) if settings.one_file else None
    folder = paths.chapter_folder(out, fmt)
    per = (
        {i: paths.chapter_file(folder, i, count, c.title, fmt) for i, c in kept}
        if settings.per_chapter
        else {}
    )
    return one, per


def export(
    chapters: Sequence[RenderedChapter],
    settings: ExportSettings,
    out: Path | str,
    *,
    title: str | None = None,
    author: str | None = None,
    overwrite: bool = False,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExportReport:
    """Write the narration; refuse to replace an existing file unless `overwrite`. `title` and
    `author` (the book's) become the files' album/title and artist tags.

    `should_stop()` is asked between steps (a cancel raises ExportCancelled, nothing written);
    `progress(done, total)` follows the audio files."""
    warnings: list[str] = []
    kept = _chapters_with_sound(chapters, warnings)
    rate = output_rate(settings.format, kept[0][1].sample_rate)
    one, per = _targets(out, settings, len(chapters), kept)
    audio_targets = ([one] if one else []) + list(per.values())
    every = audio_targets + (
        [paths.subtitle_path(p, settings.subtitles) for p in audio_targets]
        if settings.subtitles
        else []
    )
    for target in every:
        if target.is_dir():
            raise ExportError(
                _("{path} is a folder; give a file name such as {example}.").format(
                    path=target, example=target.with_name("book" + paths.SUFFIXES[settings.format])
                )
            )
    if not overwrite:
        refuse_existing(every)
    with Staging(overwrite) as staging:
        job = _Job(settings, title, staging, should_stop, progress, len(audio_targets))
        timelines = []
        for i, chapter in kept:
            job.check()
            timelines.append(assemble_chapter(chapter, settings.sentence_pause, rate, i))
        for (i, chapter), timeline in zip(kept, timelines):
            if i in per:
                tags = {
                    "title": chapter.title,
                    "album": title or "",
                    "artist": author or "",
                    "tracknumber": f"{i + 1}/{len(chapters)}",
                }
                job.write(
                    per[i],
                    timeline.audio,
                    rate,
                    timeline.spans,
                    chapter=i,
                    marks=[],
                    tags=_tags_for(settings.format, tags),
                )
        if one is not None:
            joined = join_chapters(timelines, settings.chapter_pause, rate)
            ends = list(joined.chapter_starts[1:]) + [len(joined.audio)]
            marks = [(t.title, s, e) for t, s, e in zip(timelines, joined.chapter_starts, ends)]
            job.write(
                one,
                joined.audio,
                rate,
                joined.spans,
                chapter=None,
                marks=marks,
                tags=_tags_for(settings.format, {"title": title or "", "artist": author or ""}),
            )
        job.check()
        staging.commit()
    overflows = tuple(o for t in timelines for o in t.overflows)
    warnings += [o.message() for o in overflows]
    flagged = tuple(
        FlaggedSentence(i, n, s.text, tuple(s.flags))
        for i, chapter in enumerate(chapters)
        for n, s in enumerate(chapter.sentences)
        if s.flags
    )
    return ExportReport(tuple(job.files), overflows, tuple(warnings + job.warnings), flagged)


def _tags_for(fmt: str, tags: dict[str, str]) -> dict[str, str]:
    """Tag names as each library spells them (soundfile: tracknumber; FFmpeg's MP4: track)."""
    if fmt in ("m4a", "m4b") and "tracknumber" in tags:
        tags = dict(tags)
        tags["track"] = tags.pop("tracknumber")
    return {k: v for k, v in tags.items() if v}
