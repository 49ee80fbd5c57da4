"""The narration view's adapter to the Renderer: a render runs on its own QThread, against the
window's engine at background priority (so Play in the window still answers at once), and
what it does comes back as Qt signals carrying plain data.

`set_paused()` and `cancel()` are called directly from the GUI thread: they only set flags on
the renderer, so they are not stuck behind the sentence being rendered.
"""

from __future__ import annotations

import logging
import threading
import traceback

from PySide6.QtCore import QObject, Signal, Slot

from app.core import StudioError
from app.i18n import _
from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")


class NarrationWorker(QObject):
    started = Signal()
    progress = Signal(object)  # app.narration.progress.RenderProgress (counts, ETA)
    sentenceDone = Signal(object)  # sentence id: a take was added (or it failed)
    ended = Signal(str, int)  # a RenderState; sentences that failed
    noted = Signal(object)  # sentences a render says once (takes are not checked), a list
    exported = Signal(object, object)  # the files written (list of str), warnings (list of str)
    failed = Signal(str)  # the sentence to show

    def __init__(self, renderer_factory=None):
        super().__init__()
        self._factory = renderer_factory
        self._lock = threading.Lock()
        self._renderer = None
        self._paused = False
        self._cancelled = False

    # -- called from the GUI thread ------------------------------------------------------
    def set_paused(self, paused: bool) -> None:
        with self._lock:
            self._paused = paused
            renderer = self._renderer
        if renderer is not None:
            renderer.pause() if paused else renderer.resume()

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            renderer = self._renderer
        if renderer is not None:
            renderer.cancel()

    # -- run on the worker thread ------------------------------------------------------------
    @Slot(object, object, object, object)
    def render(self, project, engine, sentence_ids, options) -> None:
        factory = self._factory
        if factory is None:
            from app.narration.render import Renderer as factory
        # A farm is started here, off the GUI thread (its workers load their own model), and
        # closed when the render ends.
        start = engine if callable(engine) and not hasattr(engine, "submit") else None
        farm = None
        try:
            if start is not None:
                engine = farm = start()
            renderer = factory(project, engine, **(options or {}))
            with self._lock:
                self._renderer = renderer
                paused, cancelled = self._paused, self._cancelled  # asked while it was queued
            if cancelled:
                renderer.cancel()
            elif paused:
                renderer.pause()
            self.started.emit()

            def on_progress(p) -> None:
                self.progress.emit(p)
                if p.sentence_id is not None:
                    self.sentenceDone.emit(p.sentence_id)

            outcome = renderer.render(sentence_ids=sentence_ids, on_progress=on_progress)
            self.noted.emit(list(getattr(outcome, "notes", ()) or ()))
            self.ended.emit(outcome.state, len(outcome.failed))
        except StudioError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:
            log.error("narration render crashed:\n%s", traceback.format_exc())
            self.failed.emit(
                _(
                    "The render stopped unexpectedly ({error}); the details are in the log file."
                ).format(error=f"{type(exc).__name__}: {exc}")
            )
        finally:
            with self._lock:
                self._renderer, self._paused, self._cancelled = None, False, False
            if farm is not None:
                farm.close()
                if farm.notices:  # workers refused or retired on the way
                    self.failed.emit(" ".join(farm.notices))

    @Slot(object, object, str, bool)
    def export(self, project, settings, out: str, overwrite: bool) -> None:
        """The chosen takes of every chapter through export(), which writes all files or none."""
        from app.narration.export import export

        try:
            report = export(
                project.rendered_chapters(),
                settings,
                out,
                title=project.title or None,
                author=project.author or None,
                overwrite=overwrite,
            )
        except StudioError as exc:
            self.failed.emit(str(exc))
            return
        except OSError as exc:
            self.failed.emit(
                _("The export could not be written: {error}").format(error=exc.strerror or exc)
            )
            return
        except Exception as exc:
            log.error("narration export crashed:\n%s", traceback.format_exc())
            self.failed.emit(
                _(
                    "The export stopped unexpectedly ({error}); the details are in the log file."
                ).format(error=f"{type(exc).__name__}: {exc}")
            )
            return
        warnings = list(report.warnings)
        if report.flagged:  # exported all the same: the user decides
            warnings.append(
                _(
                    "{count} sentences were exported with takes the take check flagged; "
                    "re-take them in the Narration view."
                ).format(count=len(report.flagged))
            )
        self.exported.emit([str(f.path) for f in report.files], warnings)


class NarrationThread(OwnedThread):
    """The narration worker on its thread; `shutdown()` cancels the render, stops and waits."""

    requestRender = Signal(
        object, object, object, object
    )  # project, engine, sentence ids or None, options
    requestExport = Signal(object, object, str, bool)  # project, ExportSettings, where, overwrite

    def __init__(self, renderer_factory=None, parent=None):
        super().__init__(NarrationWorker(renderer_factory), "narration-worker", parent)
        self.requestRender.connect(self.worker.render)
        self.requestExport.connect(self.worker.export)

    def stop_work(self) -> None:
        self.worker.cancel()
