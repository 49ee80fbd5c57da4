"""Spoken-form normalization that installs everywhere (no pynini).

ChatTTS drops every character it cannot read, digits included, so "618" is silently lost.
We rewrite numbers, dates, times, money, temperatures, units, phone numbers and versions
into words first, in Chinese or English chosen per occurrence from the text around it: our
rules where they read better, WeTextProcessing's grammars (library.py) for the rest
(combined.py; docs/text.md). Our rules: rules.py finds the spans (Roman numerals in roman.py,
written forms in written.py), pipeline.py picks one span at a time and its language, render.py
says it (en.py, zh.py, abbreviations.py).
"""

from app.text.normalize.combined import normalize  # noqa: F401
from app.text.normalize.pipeline import language_of  # noqa: F401
