"""What `chattts-studio narrate` says while it works: a tqdm bar on a terminal, one JSON object
per line with --json (for scripts and front ends), nothing but the result otherwise."""

from __future__ import annotations

import json
import sys

from app.i18n import _


def _json_line(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}, ensure_ascii=False), flush=True)


class Reporter:
    def __init__(self, as_json: bool, stream=None):
        self.as_json = as_json
        self.stream = stream if stream is not None else sys.stderr
        self.bar = None

    @property
    def interactive(self) -> bool:
        return not self.as_json and hasattr(self.stream, "isatty") and self.stream.isatty()

    def notice(self, message: str) -> None:
        if self.as_json:
            _json_line("notice", message=message)
        else:
            self._write(_("Note: {message}").format(message=message))

    def start(self, project, done: int, total: int, resumed: bool) -> None:
        if self.as_json:
            _json_line("start", project=str(project), done=done, total=total, resumed=resumed)
            return
        if resumed:
            self._write(
                _("Continuing {project}: {done} of {total} sentences are already rendered.").format(
                    project=project, done=done, total=total
                )
            )
        if self.interactive:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=done,
                unit=_("sentence"),
                file=self.stream,
                dynamic_ncols=True,
                desc=_("Rendering"),
            )

    def progress(self, p) -> None:
        """A RenderProgress after each sentence."""
        if self.as_json:
            _json_line(
                "progress",
                done=p.done,
                total=p.total,
                failed=p.failed,
                chapter=p.chapter_index + 1,
                chapter_done=p.chapter_done,
                chapter_total=p.chapter_total,
                audio_s=round(p.audio_seconds, 3),
                wall_s=round(p.wall_seconds, 3),
                speed=None if p.speed is None else round(p.speed, 3),
                eta_s=None if p.eta_seconds is None else round(p.eta_seconds, 1),
            )
        elif self.bar is not None:
            self.bar.n = p.done
            postfix = _("chapter {number}: {done}/{total}").format(
                number=p.chapter_index + 1, done=p.chapter_done, total=p.chapter_total
            )
            if p.eta_seconds is not None:
                postfix += " · " + _("{minutes} min left").format(
                    minutes=f"{p.eta_seconds / 60:.1f}"
                )
            self.bar.set_postfix_str(postfix, refresh=False)
            self.bar.refresh()

    def exporting(self, output) -> None:
        self.close()
        if self.as_json:
            _json_line("export", output=str(output))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def _write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)
