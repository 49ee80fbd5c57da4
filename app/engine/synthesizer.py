"""Moved to app.engine.synthesis (issue 14); this name goes once every import uses the new one."""

from app.engine.synthesis.chattts_model import chattts_normalizer, quiet_libraries  # noqa: F401
from app.engine.synthesis.synthesizer import Synthesizer  # noqa: F401
