"""The speech server: OpenAI's /v1/audio/speech over the engine (no Qt).

`create_app(ServerState(...))` gives the FastAPI app; `chattts-studio serve` (app/cli/serve.py)
runs it with uvicorn, and the window can hand it the engine it already has.
"""

# Here, not in app.py: the command line's parser reads it at every start, and app.py imports
# FastAPI (seconds).
DEFAULT_MAX_QUEUE = 16
