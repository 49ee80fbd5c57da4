"""`chattts-studio narrate INPUT -o OUT`: a book, script or subtitle file into audio, through a
project file that keeps every rendered sentence.

The project (`--project`, else OUT's name with .ctsproj) is written sentence by sentence, so
Ctrl+C (exit 130) or a killed process loses at most the sentences being made; the same command
run again, or `narrate --project FILE -o OUT`, continues where it stopped. Every cheap check
(input, output, model files) runs before ChatTTS is imported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.cli.arguments import number
from app.cli.narrate_engine import add_arguments as add_engine_arguments
from app.core import DEVICE_CHOICES as DEVICES
from app.core import (
    SEED_MAX,
    DiskFullError,
    InputTextError,
    OutputError,
    StudioError,
    SynthesisCancelled,
)
from app.decode import PRECISION_CHOICES as PRECISIONS
from app.i18n import _
from app.narration.formats import FORMATS, LOUDNESS_RANGE, SUBTITLE_FORMATS
from app.narration.render_state import RenderState

PROJECT_SUFFIX = ".ctsproj"
TAKE_TRIES_RANGE = (1, 10)  # the project's own range (narration/project/project.py)
DEFAULT_LOUDNESS = -18.0


class RenderIncomplete(StudioError):
    """Some sentences failed; the project keeps them for the next run."""


def add_parser(sub) -> None:
    s = sub.add_parser(
        "narrate",
        help="narrate a book, script or subtitles into audio",
        description="Narrate INPUT (.txt, .md, .epub, .srt, .vtt) into OUT through a "
        "resumable project file.",
    )
    s.add_argument(
        "input",
        nargs="?",
        metavar="INPUT",
        help="the book, script or subtitle file (not needed to continue an existing --project)",
    )
    s.add_argument("-o", "--output", required=True, metavar="OUT", help="the audio file to write")
    s.add_argument(
        "--project",
        metavar="FILE",
        help="the project file (default: OUT with .ctsproj); an existing one is continued",
    )
    s.add_argument(
        "--format", choices=FORMATS, help="audio format (default: from OUT's suffix, else mp3)"
    )
    s.add_argument("--subtitles", choices=SUBTITLE_FORMATS, help="also write subtitles next to OUT")
    voice = s.add_mutually_exclusive_group()
    voice.add_argument("--voice", metavar="NAME", help="a saved voice for the narrator")
    voice.add_argument(
        "--seed",
        type=number("--seed", 0, SEED_MAX, integer=True),
        help=f"the narrator's voice seed, 0 to {SEED_MAX}",
    )
    s.add_argument(
        "--chapters",
        choices=("auto", "none"),
        default="auto",
        help="auto: chapters from headings, the table of contents or the file; none: one chapter",
    )
    s.add_argument(
        "--script",
        action="store_true",
        help="read a .txt as a dialogue script "
        "('Alice: ...' lines) even if it does not look like one",
    )
    s.add_argument(
        "--loudness",
        type=number("--loudness", *LOUDNESS_RANGE),
        default=DEFAULT_LOUDNESS,
        metavar="LUFS",
        help=f"loudness target, {LOUDNESS_RANGE[0]:g} to {LOUDNESS_RANGE[1]:g} "
        f"(default {DEFAULT_LOUDNESS:g})",
    )
    s.add_argument(
        "--overwrite", action="store_true", help="replace OUT (and its subtitles) if they exist"
    )
    s.add_argument(
        "--no-refine", action="store_true", help="skip the text-refinement pass (faster)"
    )
    s.add_argument(
        "--tries",
        type=number("--tries", *TAKE_TRIES_RANGE, integer=True),
        metavar="N",
        help="takes a sentence gets when the take check flags them, "
        f"{TAKE_TRIES_RANGE[0]} to {TAKE_TRIES_RANGE[1]} (default: the project's, else 3); "
        "kept in the project",
    )
    s.add_argument(
        "--model",
        metavar="DIR",
        help="model folder (default: CHATTTS_STUDIO_MODEL_DIR, "
        "else the folder chosen in the window; `models status` shows which)",
    )
    s.add_argument("--device", choices=DEVICES, default="auto", help="where to run (default auto)")
    s.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="auto",
        help="number format of the decode step (default auto: int8 on a CPU)",
    )
    add_engine_arguments(s)
    s.add_argument(
        "--json", action="store_true", help="progress and result as JSON lines on stdout"
    )
    s.set_defaults(func=run)


def project_path(args) -> Path:
    if args.project:
        return Path(args.project).expanduser()
    from app.narration.export import format_for_path

    out = Path(args.output).expanduser()
    return (
        out.with_suffix(PROJECT_SUFFIX)
        if format_for_path(out)
        else out.with_name(out.name + PROJECT_SUFFIX)
    )


def _same_file(a: Path, b: Path) -> bool:
    return a.expanduser().resolve() == b.expanduser().resolve()


def _check_paths(args, fmt: str, project: Path) -> Path:
    """The audio file to write; refused now, not after hours of rendering, if it would replace
    the input, the project or (without --overwrite) an existing file."""
    from app.narration.export.paths import one_file_path, subtitle_path

    target = one_file_path(args.output, fmt)
    for other in ([Path(args.input)] if args.input else []) + [project]:
        if _same_file(target, other) or (
            args.subtitles and _same_file(subtitle_path(target, args.subtitles), other)
        ):
            raise OutputError(
                _(
                    "The output {output} is also the file {other}; choose another output name."
                ).format(output=target, other=other)
            )
    if args.input and _same_file(project, Path(args.input)):
        raise OutputError(
            _("The project file {project} is the input file; choose another project name.").format(
                project=project
            )
        )
    if not args.overwrite:
        for path in [target] + ([subtitle_path(target, args.subtitles)] if args.subtitles else []):
            if path.exists():
                raise OutputError(
                    _(
                        "{path} already exists; choose another name or add {option} to replace it."
                    ).format(path=path, option="--overwrite")
                )
    if not target.parent.is_dir():
        raise OutputError(
            _("The folder {folder} does not exist; create it or choose another output.").format(
                folder=target.parent
            )
        )
    return target


def _narrator(args) -> tuple[int | None, str | None]:
    """The narrator's seed and speaker string from --voice or --seed."""
    if args.voice is None:
        return args.seed, None
    from app.library import VoiceLibrary

    voice = VoiceLibrary().get(args.voice)
    if voice is None or not voice.speaker:
        raise InputTextError(
            _(
                "There is no saved voice named {name}; save it in the window first, or "
                "use {option}."
            ).format(name=args.voice, option="--seed")
        )
    return voice.seed, voice.speaker


def _open_or_create(args, path: Path, reporter):
    from app.narration.inputs import read_source
    from app.narration.project import Project

    if path.exists():
        project = Project.open(path)
        if args.input:
            reporter.notice(
                _("{project} exists: it is continued and {input} is not read again.").format(
                    project=path, input=args.input
                )
            )
        for message in project.notices:
            reporter.notice(message)
        return project, True
    if not args.input:
        raise InputTextError(
            _("The project {project} does not exist; give the INPUT file to start it.").format(
                project=path
            )
        )
    document = read_source(
        args.input, "script" if args.script else None, chapters=args.chapters == "auto"
    )
    for message in document.notices:
        reporter.notice(message)
    seed, speaker = _narrator(args)
    options = {"speaker": speaker} | ({"seed": seed} if seed is not None else {})
    project = Project.create(path, document, **options)
    _map_speakers(project, document)
    return project, False


def _map_speakers(project, document) -> None:
    """A script's speakers get the saved voices of the same name."""
    names = {s.speaker for c in document.chapters for s in c.sentences if s.speaker}
    if not names:
        return
    from app.library import VoiceLibrary

    library = VoiceLibrary()
    for name in sorted(names):
        voice = library.get(name)
        if voice is not None and voice.speaker:
            project.set_voice(name, seed=voice.seed, speaker=voice.speaker)


def run(args) -> int:
    from app.cli.narrate_progress import Reporter
    from app.model import ModelStore
    from app.narration.export import format_for_path

    reporter = Reporter(args.json)
    fmt = args.format or format_for_path(args.output) or "mp3"
    path = project_path(args)
    target = _check_paths(args, fmt, path)
    store = ModelStore(args.model)
    store.require_present()
    project, resumed = _open_or_create(args, path, reporter)
    if args.tries is not None:
        project.set_take_tries(args.tries)
    try:
        outcome = _render(args, store, project, reporter, resumed)
        reporter.exporting(target)
        report = _export(args, project, fmt, target)
    finally:
        reporter.close()
    from app.narration.take_summary import take_summary

    summary = take_summary(
        project, outcome.retaken if outcome else (), outcome.notes if outcome else ()
    )
    # Every worker loads this folder: its description says whether the audio is speech.
    _say(args, reporter, project, report, not store.model_kind.makes_speech, store.root, summary)
    return 0


def _render(args, store, project, reporter, resumed: bool):
    """The render's outcome (None where every sentence was already rendered)."""
    from app.cli.ctrl_c import ctrl_c_cancels
    from app.cli.narrate_engine import open_engine
    from app.narration.project import SentenceStatus
    from app.narration.render import Renderer

    sentences = project.sentences()
    done = sum(1 for s in sentences if s.take_id is not None and s.status == "done")
    reporter.start(project.path, done, len(sentences), resumed)
    if done == len(sentences):
        return None
    engines = open_engine(args, store.root)
    for note in engines.notes:
        reporter.notice(note)
    # A farm's takes record the worker that made each ("render jit-int8 on cpu1").
    label = "narrate" if engines.in_process else None
    # A model that makes noise gets its takes checked (and flagged), never re-made.
    renderer = Renderer(
        project,
        engines.engine,
        refine_text=not args.no_refine,
        worker=label,
        retakes=store.model_kind.makes_speech,
    )
    stopped = _(
        "Stopped; the project {project} keeps every finished sentence. Run the same command again "
        "to continue."
    ).format(project=project.path)
    try:
        with ctrl_c_cancels(renderer):
            outcome = renderer.render(on_progress=reporter.progress)
    except KeyboardInterrupt:
        renderer.cancel()
        raise SynthesisCancelled(stopped) from None
    except DiskFullError as exc:
        raise DiskFullError(
            _(
                "The disk is full: free space on {folder}, then run the same command again; the "
                "project {project} keeps every finished sentence."
            ).format(folder=exc.folder, project=project.path),
            exc.folder,
        ) from None
    finally:
        engines.close()
        for notice in engines.notices():  # workers refused or retired on the way
            reporter.notice(notice)
    for note in outcome.notes:  # takes are not checked: said once
        reporter.notice(note)
    if outcome.state is not RenderState.FINISHED:
        raise SynthesisCancelled(stopped)
    if outcome.remaining:
        failed = [s for s in project.sentences() if s.status == SentenceStatus.FAILED]
        first = failed[0].error if failed and failed[0].error else outcome.first_error
        if first:
            raise RenderIncomplete(
                _(
                    "Sentences that could not be rendered: {count} (the first: {reason}). The "
                    "project {project} keeps them: run the same command again to retry, or "
                    "edit them in the window."
                ).format(count=outcome.remaining, reason=first, project=project.path)
            )
        raise RenderIncomplete(
            _(
                "Sentences that could not be rendered: {count}. The project {project} keeps "
                "them: run the same command again to retry, or edit them in the window."
            ).format(count=outcome.remaining, project=project.path)
        )
    return outcome


def _export(args, project, fmt: str, target: Path):
    from app.narration.export import ExportSettings, export

    settings = ExportSettings(format=fmt, subtitles=args.subtitles, loudness=args.loudness)
    return export(
        project.rendered_chapters(),
        settings,
        target,
        title=project.title or None,
        author=project.author or None,
        overwrite=args.overwrite,
    )


def _say(args, reporter, project, report, noise: bool, model: Path, summary) -> None:
    for warning in report.warnings:
        reporter.notice(warning)
    audio = report.audio()
    if noise and not args.json:
        print(
            _(
                "Note: {model} is a random-weight test model; {file} holds noise, not speech."
            ).format(model=model, file=audio.path.name),
            file=sys.stderr,
        )
    if args.json:
        print(
            json.dumps(
                {
                    "event": "done",
                    "project": str(project.path),
                    "test_model": noise,
                    **report.to_json(),
                    "takes": summary.to_json(),
                },
                ensure_ascii=False,
            ),
            flush=True,
        )
        return
    print(
        _("Wrote {file}: {duration} s of audio, chapters: {chapters} (project {project}).").format(
            file=audio.path,
            duration=f"{audio.duration or 0:.1f}",
            chapters=len(project.chapters()),
            project=project.path,
        )
    )
    for extra in report.files:
        if extra.kind == "subtitles":
            print(_("Wrote {file}.").format(file=extra.path))
    _say_takes(summary)
    sys.stdout.flush()


SHOWN_FLAGGED = 20  # a book flagged throughout is summed up, not listed


def _say_takes(summary) -> None:
    """Sentences re-taken and those still flagged, with why (the window can re-take them)."""
    if not summary.checked:
        return
    print(
        _("Takes checked: {retaken} sentences re-taken, {flagged} still flagged.").format(
            retaken=len(summary.retaken), flagged=len(summary.flagged)
        )
    )
    for item in summary.flagged[:SHOWN_FLAGGED]:
        print(
            _("  Chapter {chapter}, sentence {sentence}: {reasons}").format(
                chapter=item.chapter, sentence=item.sentence, reasons=" ".join(item.reasons)
            )
        )
    if len(summary.flagged) > SHOWN_FLAGGED:
        print(
            _("  ... and {count} more (narrate --json lists them all).").format(
                count=len(summary.flagged) - SHOWN_FLAGGED
            )
        )
