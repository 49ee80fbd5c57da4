"""`chattts-studio serve`: the OpenAI-compatible speech server (app/server) on uvicorn.

It listens at once and loads the model meanwhile (503 until it is ready). It binds the loopback
address unless told otherwise, and refuses any other address without an API key.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import sys
import threading

from app.cli.arguments import number
from app.core import DEVICE_CHOICES as DEVICES
from app.core import StudioError
from app.decode import PRECISION_CHOICES as PRECISIONS
from app.decode import running_note
from app.i18n import _

log = logging.getLogger("chattts_studio.server")
KEY_ENV = "CHATTTS_STUDIO_API_KEY"
DEFAULT_PORT = 8000


def add_parser(sub) -> None:
    from app.server import DEFAULT_MAX_QUEUE

    s = sub.add_parser(
        "serve",
        help="serve OpenAI's speech API (/v1/audio/speech) on this machine",
        description="An OpenAI-compatible speech server: tools that speak OpenAI's "
        "/v1/audio/speech use ChatTTS through it. Concurrent requests share "
        "decode batches.",
    )
    s.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only); any other needs --api-key",
    )
    s.add_argument(
        "--port",
        type=number("--port", 1, 65535, integer=True),
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT})",
    )
    s.add_argument(
        "--api-key",
        metavar="KEY",
        default=os.environ.get(KEY_ENV) or None,
        help=f"key clients must send as 'Authorization: Bearer KEY' (default: the {KEY_ENV} "
        "environment variable, which other users cannot read from the process list)",
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
        help="number format of the decode step (default auto: int8 on a CPU; fp32 is exact and slower)",
    )
    s.add_argument(
        "--max-queue",
        type=number("--max-queue", 1, 10_000, integer=True),
        default=DEFAULT_MAX_QUEUE,
        help=f"requests in hand at once; more get 429 with Retry-After (default {DEFAULT_MAX_QUEUE})",
    )
    s.add_argument(
        "--max-batch",
        type=number("--max-batch", 1, 64, integer=True),
        default=None,
        help="sentences decoded together at most (default: as many as memory allows); "
        "lower it to share the machine with other work",
    )
    s.add_argument(
        "--cors",
        action="append",
        metavar="ORIGIN",
        help="let web pages from ORIGIN call the server (repeatable; default: none)",
    )
    s.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, api_key: str | None) -> None:
    if not is_loopback(host) and not api_key:
        raise StudioError(
            _(
                "Listening on {host} lets other machines use the server; give --api-key KEY "
                "(or set {env}) first, or keep the default 127.0.0.1."
            ).format(host=host, env=KEY_ENV)
        )


def run(args) -> int:
    check_exposure(args.host, args.api_key)
    from app.model import ModelStore

    store = ModelStore(args.model)
    store.require_present()

    import uvicorn

    from app.server.app import ServerState, create_app

    state = ServerState(api_key=args.api_key, max_queue=args.max_queue)
    app = create_app(state, cors=args.cors)
    loader = threading.Thread(
        target=_load, args=(state, store.root, args), name="model-load", daemon=True
    )
    loader.start()
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(
        _(
            "Speech server at http://{host}:{port}/v1 (the model loads meanwhile; Ctrl+C stops it)."
        ).format(host=shown, port=args.port),
        file=sys.stderr,
    )
    auth = " -H 'Authorization: Bearer $" + KEY_ENV + "'" if args.api_key else ""
    print(
        f"curl http://{shown}:{args.port}/v1/audio/speech{auth} -H 'Content-Type: application/json' "
        '-d \'{"model":"tts-1","voice":"alloy","input":"Hello","response_format":"wav"}\' '
        "-o hello.wav",
        file=sys.stderr,
    )
    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:
        # uvicorn has shut down gracefully and re-raises the signal: stopping is this command's
        # normal end.
        print(_("The speech server stopped."), file=sys.stderr)
        return 0
    finally:
        if state.engine is not None:
            state.engine.close(30)
    if not server.started:
        raise StudioError(
            _(
                "The server could not listen on {host}:{port}; is another program using the port? "
                "Choose another with --port."
            ).format(host=args.host, port=args.port)
        )
    return 0


def _load(state, root, args) -> None:
    from app.synthesis import Engine, Synthesizer

    try:
        synth = Synthesizer(root, device=args.device, precision=args.precision)
        # Loaded on the engine's thread: a pool of OpenMP threads is kept per thread that used
        # PyTorch, and two live ones slow decoding (engine.py).
        state.engine = Engine.loading(synth, max_batch=args.max_batch)
    except StudioError as exc:
        # Kept as said (a Phrase): each API client hears it again in its own language.
        state.load_error = (
            exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
        )
        print(_("error: {message}").format(message=exc), file=sys.stderr)
        return
    except Exception:
        log.exception("model load failed")
        state.load_error = _("The model could not be loaded; the log has the details.")
        print(_("error: {message}").format(message=state.load_error), file=sys.stderr)
        return
    for note in synth.notes + [running_note(synth.precision)]:
        if note:
            print(_("Note: {message}").format(message=note), file=sys.stderr)
    print(
        _("Model loaded on {device}; the server is ready.").format(device=synth.device.device),
        file=sys.stderr,
    )
    try:
        synth.finish_loading()  # requests are served meanwhile; a voice lock waits for it
    except Exception as exc:
        log.info("ChatTTS not preloaded: %s", exc)
