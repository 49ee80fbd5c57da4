"""Spoken-form normalization that installs everywhere (no pynini).

ChatTTS drops every character it cannot read, digits included, so "618" is silently lost.
We rewrite numbers, dates, times, money, temperatures, units, phone numbers and versions
into words first, in Chinese or English chosen per occurrence from the text around it.
"""

from app.engine.text.normalize.pipeline import language_of, normalize  # noqa: F401
